#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension AnyValue {
    /// A mixed value as a snapshot holds it: `Sendable` and `Codable`, a link held as an ``ObjectReference``.
    ///
    /// Its JSON is `null` or an object of one member naming the kind: `{"int": 42}`, `{"double": 1.5}`,
    /// `{"string": "x"}`, `{"bool": true}`, `{"data": "AAE="}`, `{"date": "2024-05-01T09:30:00Z"}`,
    /// `{"uuid": "…"}`, `{"decimal": "12.5"}`, `{"objectId": "…"}`, `{"link": {"model": "Person", "key": 7}}`.
    public enum Snapshot: Hashable, Sendable, Codable, SnapshotCodable {
        /// No value (null).
        case none
        /// A boolean.
        case bool(Bool)
        /// An integer.
        case int(Int)
        /// A floating-point number.
        case double(Double)
        /// Text.
        case string(String)
        /// Bytes.
        case data(Data)
        /// A point in time.
        case date(Date)
        /// A UUID.
        case uuid(UUID)
        /// An exact decimal number.
        case decimal(Decimal)
        /// An `ObjectId`.
        case objectId(ObjectId)
        /// A link to a stored object.
        case object(ObjectReference)

        /// The snapshot of `value`: a linked object becomes a reference (an unmanaged object of a model without a
        /// primary key cannot be referenced, and stops the program).
        public init(_ value: AnyValue) {
            switch value {
            case .none: self = .none
            case .bool(let value): self = .bool(value)
            case .int(let value): self = .int(value)
            case .double(let value): self = .double(value)
            case .string(let value): self = .string(value)
            case .data(let value): self = .data(value)
            case .date(let value): self = .date(value)
            case .uuid(let value): self = .uuid(value)
            case .decimal(let value): self = .decimal(value)
            case .objectId(let value): self = .objectId(value)
            case .object(let object): self = .object(SnapshotSupport.reference(to: object))
            }
        }

        /// The mixed value to store: a reference becomes an object that names the stored one, which adding the
        /// object holding the value resolves (a reference to no stored object fails that write).
        public var anyValue: AnyValue {
            switch self {
            case .none: return .none
            case .bool(let value): return .bool(value)
            case .int(let value): return .int(value)
            case .double(let value): return .double(value)
            case .string(let value): return .string(value)
            case .data(let value): return .data(value)
            case .date(let value): return .date(value)
            case .uuid(let value): return .uuid(value)
            case .decimal(let value): return .decimal(value)
            case .objectId(let value): return .objectId(value)
            case .object(let reference): return .object(Object(managedBy: SnapshotReference(reference)))
            }
        }

        /// The value's JSON (docs/VALUES.md): `null` or `{"kind": value}`.
        package var json: JSONValue {
            switch self {
            case .none: return .null
            case .bool(let value): return .object([("bool", .bool(value))])
            case .int(let value): return .object([("int", .number(String(value)))])
            case .double(let value): return .object([("double", SnapshotFormat.numberJSON(value))])
            case .string(let value): return .object([("string", .string(value))])
            case .data(let value): return .object([("data", .string(value.base64EncodedString()))])
            case .date(let value): return .object([("date", .string(SnapshotFormat.dateText(value)))])
            case .uuid(let value): return .object([("uuid", .string(value.uuidString))])
            case .decimal(let value): return .object([("decimal", .string(value.description))])
            case .objectId(let value): return .object([("objectId", .string(value.stringValue))])
            case .object(let reference):
                let key: JSONValue
                switch reference.key {
                case .int(let number): key = .number(String(number))
                case .string(let text): key = .string(text)
                }
                return .object([("link", .object([("model", .string(reference.model)), ("key", key)]))])
            }
        }

        /// `null`, or an object of one member naming the kind.
        public func encode(to encoder: any Encoder) throws {
            guard case .object(let members) = json, let member = members.first else {
                var container = encoder.singleValueContainer()
                try container.encodeNil()
                return
            }
            var container = encoder.container(keyedBy: SnapshotCodingKey.self)
            switch self {
            case .none: break
            case .bool(let value): try container.encode(value, forKey: SnapshotCodingKey(member.key))
            case .int(let value): try container.encode(value, forKey: SnapshotCodingKey(member.key))
            case .double(let value): try container.encodeSnapshot(value, forKey: member.key)
            case .string(let value): try container.encode(value, forKey: SnapshotCodingKey(member.key))
            case .data(let value): try container.encodeSnapshot(value, forKey: member.key)
            case .date(let value): try container.encodeSnapshot(value, forKey: member.key)
            case .uuid(let value): try container.encode(value, forKey: SnapshotCodingKey(member.key))
            case .decimal(let value): try container.encodeSnapshot(value, forKey: member.key)
            case .objectId(let value): try container.encode(value, forKey: SnapshotCodingKey(member.key))
            case .object(let reference): try container.encode(reference, forKey: SnapshotCodingKey(member.key))
            }
        }

        /// Reads `null` or an object of one member naming the kind.
        public init(from decoder: any Decoder) throws {
            if try decoder.singleValueContainer().decodeNil() {
                self = .none
                return
            }
            let container = try decoder.container(keyedBy: SnapshotCodingKey.self)
            guard container.allKeys.count == 1, let key = container.allKeys.first else {
                throw DecodingError.dataCorrupted(.init(
                    codingPath: decoder.codingPath,
                    debugDescription: "a mixed value is null or an object of one member, such as {\"int\": 1}"))
            }
            switch key.stringValue {
            case "bool": self = .bool(try container.decode(Bool.self, forKey: key))
            case "int": self = .int(try container.decode(Int.self, forKey: key))
            case "double": self = .double(try container.decodeSnapshot(Double.self, forKey: key.stringValue))
            case "string": self = .string(try container.decode(String.self, forKey: key))
            case "data": self = .data(try container.decodeSnapshot(Data.self, forKey: key.stringValue))
            case "date": self = .date(try container.decodeSnapshot(Date.self, forKey: key.stringValue))
            case "uuid": self = .uuid(try container.decode(UUID.self, forKey: key))
            case "decimal": self = .decimal(try container.decodeSnapshot(Decimal.self, forKey: key.stringValue))
            case "objectId": self = .objectId(try container.decode(ObjectId.self, forKey: key))
            case "link": self = .object(try container.decode(ObjectReference.self, forKey: key))
            default:
                throw DecodingError.dataCorrupted(.init(
                    codingPath: decoder.codingPath + [key],
                    debugDescription: "'\(key.stringValue)' is not a kind of mixed value"))
            }
        }

        /// Its `Codable` form.
        public func encodeSnapshot(to encoder: any Encoder) throws { try encode(to: encoder) }

        /// Its `Codable` form.
        public init(snapshotFrom decoder: any Decoder) throws { try self.init(from: decoder) }
    }
}
