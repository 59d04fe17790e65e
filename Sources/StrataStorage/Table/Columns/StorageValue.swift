#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One value as the store sees it: what generic reads return and generic writes take.
///
/// The typed accessors on `Table` (`int(_:column:)`, `string(_:column:)`, …) avoid building this enum on hot paths.
public enum StorageValue: Hashable, Sendable, CustomStringConvertible {
    /// No value (an optional column's nil, an unset link).
    case null
    /// An integer.
    case int(Int64)
    /// A boolean.
    case bool(Bool)
    /// A float.
    case float(Float)
    /// A double.
    case double(Double)
    /// Text.
    case string(String)
    /// Bytes.
    case binary([UInt8])
    /// Nanoseconds since 1970-01-01T00:00:00Z.
    case timestamp(Int64)
    /// A UUID.
    case uuid(UUID)
    /// A link to an object of the column's target table.
    case link(ObjectKey)
    /// A whole list (only as an insert value or a read of a list column); a set column's elements, in set order.
    case list([StorageValue])
    /// A whole map of a map column: its values by key.
    case map([String: StorageValue])
    /// An exact decimal number.
    case decimal(Decimal)
    /// A 12-byte object identifier.
    case objectId(ObjectId)
    /// A link to an object of any table (what a mixed value holds when it links).
    case typedLink(TableKey, ObjectKey)

    /// A short rendering for messages and test failures.
    public var description: String {
        switch self {
        case .null: return "nil"
        case .int(let value): return "\(value)"
        case .bool(let value): return "\(value)"
        case .float(let value): return "\(value)f"
        case .double(let value): return "\(value)"
        case .string(let value): return "\"\(value.count > 40 ? String(value.prefix(40)) + "…" : value)\""
        case .binary(let value): return "<\(value.count) bytes>"
        case .timestamp(let value): return "@\(value)ns"
        case .uuid(let value): return value.uuidString
        case .link(let key): return "→\(key)"
        case .list(let values): return "[" + values.map(\.description).joined(separator: ", ") + "]"
        case .map(let entries):
            if entries.isEmpty { return "[:]" }
            return "[" + entries.sorted { $0.key < $1.key }.map { "\"\($0.key)\": \($0.value)" }
                .joined(separator: ", ") + "]"
        case .decimal(let value): return "\(value)"
        case .objectId(let value): return "oid(\(value))"
        case .typedLink(let table, let key): return "→\(table):\(key)"
        }
    }

    /// Whether this is `.null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The kind of a non-null primitive value (`nil` for `.null`, `.list` and `.map`).
    public var kind: ValueKind? {
        switch self {
        case .null, .list, .map: return nil
        case .int: return .int
        case .bool: return .bool
        case .float: return .float
        case .double: return .double
        case .string: return .string
        case .binary: return .binary
        case .timestamp: return .timestamp
        case .uuid: return .uuid
        case .link: return .link
        case .decimal: return .decimal
        case .objectId: return .objectId
        case .typedLink: return .typedLink
        }
    }

    /// The zero value of a kind: what a non-optional column without a default holds.
    public static func zero(of kind: ValueKind) -> StorageValue {
        switch kind {
        case .int: return .int(0)
        case .bool: return .bool(false)
        case .float: return .float(0)
        case .double: return .double(0)
        case .string: return .string("")
        case .binary: return .binary([])
        case .timestamp: return .timestamp(0)
        case .uuid: return .uuid(UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))
        case .link: return .null
        case .decimal: return .decimal(0)
        case .objectId: return .objectId(ObjectId(bytes: repeatElement(0, count: 12))!)
        case .mixed, .typedLink: return .null
        }
    }
}
