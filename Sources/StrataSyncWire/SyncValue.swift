import Foundation

/// A JSON value as the sync protocol carries it (docs/SYNC.md, "Protocol"): property values, object keys and whole
/// requests. Integers stay integers (`integer`), so 64-bit keys and counters survive a round trip exactly.
public enum SyncValue: Hashable, Sendable, Codable {
    /// `null`
    case null
    /// `true` or `false`
    case bool(Bool)
    /// A number without a fraction or exponent that fits 64 bits.
    case integer(Int64)
    /// Any other number.
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([SyncValue])
    /// An object.
    case object([String: SyncValue])

    /// Decodes any JSON value.
    public init(from decoder: any Decoder) throws {
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

    /// Encodes the value as JSON.
    public func encode(to encoder: any Encoder) throws {
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

    /// The value as compact JSON text with sorted keys, read back once so that a number prints the same whoever
    /// made it: equal values give equal text (set elements are keyed by it, on the server and on every client).
    public var canonicalText: String {
        let first = Self.text(self)
        guard let again = try? Self.parse(first) else { return first }
        return Self.text(again)
    }

    private static func text(_ value: SyncValue) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding a SyncValue cannot fail: every case is plain JSON (non-finite numbers never decode).
        guard let data = try? encoder.encode(value) else { return "null" }
        return String(decoding: data, as: UTF8.self)
    }

    /// Parses JSON text (as PostgreSQL returns a `jsonb` column's text).
    public static func parse(_ text: String) throws -> SyncValue {
        try JSONDecoder().decode(SyncValue.self, from: Data(text.utf8))
    }

    /// A short description of the value's kind, for error messages.
    public var kindName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .integer: return "an integer"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}
