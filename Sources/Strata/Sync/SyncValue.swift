import Foundation

/// A JSON value as the sync protocol carries it (docs/SYNC.md, "Protocol"): property values, object keys and
/// whole changes. Integers stay integers, so 64-bit keys survive a round trip exactly.
enum SyncValue: Hashable, Sendable, Codable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([SyncValue])
    case object([String: SyncValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([SyncValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: SyncValue].self))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// Compact JSON with sorted keys, read back once so that a number prints as the server prints it: equal values
    /// give equal text (set elements are keyed by it, as on the server).
    var canonicalText: String {
        let first = Self.text(self)
        guard let again = try? Self.parse(first) else { return first }
        return Self.text(again)
    }

    private static func text(_ value: SyncValue) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // A SyncValue is plain JSON; only a non-finite number fails, and those are never made.
        guard let data = try? encoder.encode(value) else { return "null" }
        return String(decoding: data, as: UTF8.self)
    }

    /// Parses JSON text.
    static func parse(_ text: String) throws -> SyncValue {
        try JSONDecoder().decode(SyncValue.self, from: Data(text.utf8))
    }
}
