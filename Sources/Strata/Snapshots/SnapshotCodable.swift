#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A value a generated `Snapshot` holds, coded in the JSON form of docs/VALUES.md rather than its type's own
/// `Codable` form: a `Date` as ISO 8601 text, a `Decimal` as an exact string, `Data` as Base64, a non-finite
/// number as `NaN` / `Infinity`. Generated snapshots code every property through it, so their JSON is the JSON of
/// `Database.exportJSON` and `strata export`.
public protocol SnapshotCodable: Sendable {
    /// Writes the value in the snapshot JSON form.
    func encodeSnapshot(to encoder: any Encoder) throws
    /// Reads a value written in the snapshot JSON form.
    init(snapshotFrom decoder: any Decoder) throws
}

/// A value coded as its own single `Codable` value (booleans, integers, strings, UUIDs, `ObjectId`s).
public protocol PlainSnapshotCodable: SnapshotCodable, Codable {}

extension PlainSnapshotCodable {
    /// Encodes the value as its `Codable` form.
    public func encodeSnapshot(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(self)
    }

    /// Decodes the value from its `Codable` form.
    public init(snapshotFrom decoder: any Decoder) throws {
        self = try decoder.singleValueContainer().decode(Self.self)
    }
}

extension Bool: PlainSnapshotCodable {}
extension Int: PlainSnapshotCodable {}
extension Int64: PlainSnapshotCodable {}
extension Int32: PlainSnapshotCodable {}
extension Int16: PlainSnapshotCodable {}
extension Int8: PlainSnapshotCodable {}
extension String: PlainSnapshotCodable {}
extension UUID: PlainSnapshotCodable {}
extension ObjectId: PlainSnapshotCodable {}

/// Text a snapshot value is written as (dates, decimals, data, non-finite numbers).
private func decodeText(_ decoder: any Decoder, expected: String) throws -> String {
    let container = try decoder.singleValueContainer()
    guard let text = try? container.decode(String.self) else {
        throw DecodingError.typeMismatch(
            String.self, .init(codingPath: decoder.codingPath, debugDescription: "expected \(expected)"))
    }
    return text
}

private func corrupted(_ decoder: any Decoder, _ message: String) -> DecodingError {
    .dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: message))
}

extension Double: SnapshotCodable {
    /// A number, or `NaN`, `Infinity` or `-Infinity` as a string.
    public func encodeSnapshot(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if case .string(let text) = SnapshotFormat.numberJSON(self) { try container.encode(text) } else { try container.encode(self) }
    }

    /// Reads a number, or `NaN`, `Infinity` or `-Infinity` as a string.
    public init(snapshotFrom decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Double.self) {
            self = number
            return
        }
        guard let value = SnapshotFormat.double(.string(try decodeText(decoder, expected: "a number"))) else {
            throw corrupted(decoder, "expected a number, or NaN, Infinity or -Infinity as a string")
        }
        self = value
    }
}

extension Float: SnapshotCodable {
    /// A number, or `NaN`, `Infinity` or `-Infinity` as a string.
    public func encodeSnapshot(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if case .string(let text) = SnapshotFormat.numberJSON(self) { try container.encode(text) } else { try container.encode(self) }
    }

    /// Reads a number, or `NaN`, `Infinity` or `-Infinity` as a string.
    public init(snapshotFrom decoder: any Decoder) throws {
        self = Float(try Double(snapshotFrom: decoder))
    }
}

extension Date: SnapshotCodable {
    /// ISO 8601 text in UTC with the stored nanoseconds (`2024-05-01T09:30:00.25Z`).
    public func encodeSnapshot(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(SnapshotFormat.dateText(self))
    }

    /// Reads ISO 8601 text (`Z` or an offset, up to nine fraction digits).
    public init(snapshotFrom decoder: any Decoder) throws {
        let text = try decodeText(decoder, expected: "an ISO 8601 date string")
        guard let date = SnapshotFormat.date(text) else {
            throw corrupted(decoder, "'\(text)' is not an ISO 8601 date such as 2024-05-01T09:30:00Z")
        }
        self = date
    }
}

extension Decimal: SnapshotCodable {
    /// The exact decimal as a string (`"12.50"` reads back as 12.5).
    public func encodeSnapshot(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    /// Reads a decimal string (or a JSON number).
    public init(snapshotFrom decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text: String
        if let string = try? container.decode(String.self) {
            text = string
        } else {
            text = "\(try container.decode(Double.self))"
        }
        guard DecimalSyntax.isValid(text), let value = Decimal(string: text) else {
            throw corrupted(decoder, "'\(text)' is not a decimal number")
        }
        self = value
    }
}

extension Data: SnapshotCodable {
    /// Base64 text.
    public func encodeSnapshot(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(base64EncodedString())
    }

    /// Reads Base64 text.
    public init(snapshotFrom decoder: any Decoder) throws {
        let text = try decodeText(decoder, expected: "a Base64 string")
        guard let data = Data(base64Encoded: text) else { throw corrupted(decoder, "the string is not Base64") }
        self = data
    }
}

extension Optional: SnapshotCodable where Wrapped: SnapshotCodable {
    /// `null`, or the wrapped value.
    public func encodeSnapshot(to encoder: any Encoder) throws {
        guard let self else {
            var container = encoder.singleValueContainer()
            try container.encodeNil()
            return
        }
        try self.encodeSnapshot(to: encoder)
    }

    /// `nil` for `null`, or the wrapped value.
    public init(snapshotFrom decoder: any Decoder) throws {
        if try decoder.singleValueContainer().decodeNil() {
            self = nil
        } else {
            self = try Wrapped(snapshotFrom: decoder)
        }
    }
}

extension Array: SnapshotCodable where Element: SnapshotCodable {
    /// A JSON array of the elements.
    public func encodeSnapshot(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        for element in self { try element.encodeSnapshot(to: container.superEncoder()) }
    }

    /// Reads a JSON array.
    public init(snapshotFrom decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        var elements: [Element] = []
        while !container.isAtEnd { elements.append(try Element(snapshotFrom: container.superDecoder())) }
        self = elements
    }
}

extension Dictionary: SnapshotCodable where Key == String, Value: SnapshotCodable {
    /// A JSON object, its members in key order (as the store keeps a map).
    public func encodeSnapshot(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: SnapshotCodingKey.self)
        for key in keys.sorted(by: MapKeyOrder.precedes) {
            try self[key].encodeSnapshot(to: container.superEncoder(forKey: SnapshotCodingKey(key)))
        }
    }

    /// Reads a JSON object.
    public init(snapshotFrom decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: SnapshotCodingKey.self)
        var entries: [String: Value] = [:]
        for key in container.allKeys { entries[key.stringValue] = try Value(snapshotFrom: container.superDecoder(forKey: key)) }
        self = entries
    }
}

extension SnapshotCodable where Self: RawRepresentable, RawValue == String {
    /// An enumeration's raw value.
    public func encodeSnapshot(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// Reads a raw value, refusing one that names no case.
    public init(snapshotFrom decoder: any Decoder) throws {
        let text = try decodeText(decoder, expected: "a string")
        guard let value = Self(rawValue: text) else { throw corrupted(decoder, "'\(text)' is not a case of \(Self.self)") }
        self = value
    }
}

/// A coding key made of any string: a snapshot's property, a map's key.
public struct SnapshotCodingKey: CodingKey, Hashable, Sendable {
    /// The key.
    public let stringValue: String
    /// Always `nil`: snapshot keys are names.
    public var intValue: Int? { nil }

    /// The key `name`.
    public init(_ name: String) { stringValue = name }
    /// The key `stringValue`.
    public init?(stringValue: String) { self.stringValue = stringValue }
    /// `nil`: snapshot keys are names.
    public init?(intValue: Int) { nil }
}

extension KeyedEncodingContainer where Key == SnapshotCodingKey {
    /// Writes `value` under `name` in the snapshot JSON form: how generated snapshots encode each property.
    public mutating func encodeSnapshot<Value: SnapshotCodable>(_ value: Value, forKey name: String) throws {
        try value.encodeSnapshot(to: superEncoder(forKey: SnapshotCodingKey(name)))
    }
}

extension KeyedDecodingContainer where Key == SnapshotCodingKey {
    /// Reads the property `name` in the snapshot JSON form; a missing member reads as `nil` for an optional and
    /// is an error otherwise.
    public func decodeSnapshot<Value: SnapshotCodable>(_ type: Value.Type, forKey name: String) throws -> Value {
        let key = SnapshotCodingKey(name)
        if !contains(key), let optional = type as? any ExpressibleByNilLiteral.Type {
            // `Optional<Wrapped>` is the only nil-literal snapshot value, so the cast cannot fail.
            if let value = optional.init(nilLiteral: ()) as? Value { return value }
        }
        guard contains(key) else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "no member '\(name)'"))
        }
        return try Value(snapshotFrom: superDecoder(forKey: key))
    }
}
