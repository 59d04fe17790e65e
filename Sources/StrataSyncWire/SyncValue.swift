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
        if let text = simpleText { return text }
        let first = Self.text(self)
        guard let again = try? Self.parse(first) else { return first }
        return Self.text(again)
    }

    /// The canonical text of the values whose text is plain (null, booleans, integers, and strings of printable
    /// ASCII without quotes or backslashes, the usual object keys), written directly: the same text `JSONEncoder`
    /// writes for them, and reading them back changes nothing. `nil` for every other value.
    private var simpleText: String? {
        switch self {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .integer(let number): return String(number)
        case .string(let text):
            for byte in text.utf8 where byte < 0x20 || byte > 0x7E || byte == UInt8(ascii: "\"")
                || byte == UInt8(ascii: "\\")
            {
                return nil
            }
            return "\"" + text + "\""
        case .number, .array, .object: return nil
        }
    }

    private static func text(_ value: SyncValue) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding a SyncValue cannot fail: every case is plain JSON (non-finite numbers never decode).
        guard let data = try? encoder.encode(value) else { return "null" }
        return String(decoding: data, as: UTF8.self)
    }

    /// Parses JSON text (as PostgreSQL returns a `jsonb` column's text), with ``WireJSONReader``: the value
    /// `JSONDecoder` would decode.
    public static func parse(_ text: String) throws -> SyncValue {
        var text = text
        return try text.withUTF8 { bytes in try WireJSONReader.read(bytes) { try $0.value() } }
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
