/// How a snapshot names a stored object it links to: its model and its key (docs/VALUES.md, "Links").
///
/// The key is the object's primary key, as its JSON writes it: an integer key as `.int`, a string, UUID or
/// `ObjectId` key as `.string` (the UUID uppercase, the `ObjectId` in 24 hexadecimal digits). An object of a
/// model without a primary key is named by its ``StableObjectKey`` (`.int`): stable for the object's life in its
/// file, and meaningless in another file.
public struct ObjectReference: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The model's name.
    public var model: String
    /// The object's primary key (or stable object key) as JSON writes it.
    public var key: Key

    /// A primary key (or a stable object key) as JSON writes it.
    public enum Key: Hashable, Sendable, Codable, CustomStringConvertible {
        /// An integer key, or a stable object key.
        case int(Int64)
        /// A string key, or a UUID or `ObjectId` key as text.
        case string(String)

        /// A JSON number or string.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let number = try? container.decode(Int64.self) {
                self = .int(number)
            } else {
                self = .string(try container.decode(String.self))
            }
        }

        /// A JSON number or string.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .int(let number): try container.encode(number)
            case .string(let text): try container.encode(text)
            }
        }

        /// `42` or `"ana"`.
        public var description: String {
            switch self {
            case .int(let number): return String(number)
            case .string(let text): return "\"\(text)\""
            }
        }
    }

    /// A reference to the object of `model` whose key is `key`.
    public init(model: String, key: Key) {
        self.model = model
        self.key = key
    }

    /// `Person 42`.
    public var description: String { "\(model) \(key)" }
}

/// The key of an object of a model without a primary key, as a snapshot links to it (docs/VALUES.md, "Links"): a
/// number the store gave the object when it was added, stable for the object's life in its file. It means
/// nothing in another file: import links to such objects only into the file they were exported from.
public struct StableObjectKey: Hashable, Sendable, Codable, CustomStringConvertible, SnapshotCodable {
    /// The number.
    public var rawValue: Int64

    /// The key `rawValue`.
    public init(rawValue: Int64) {
        self.rawValue = rawValue
    }

    /// A JSON number.
    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(Int64.self)
    }

    /// A JSON number.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// A JSON number.
    public func encodeSnapshot(to encoder: any Encoder) throws { try encode(to: encoder) }

    /// A JSON number.
    public init(snapshotFrom decoder: any Decoder) throws { try self.init(from: decoder) }

    /// The number.
    public var description: String { String(rawValue) }
}
