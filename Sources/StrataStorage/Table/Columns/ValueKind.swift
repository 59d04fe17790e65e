/// The kind of a primitive value the store keeps, in a column or as a list element.
public enum ValueKind: UInt8, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// 64-bit signed integer (every schema integer width is stored as one; the object layer narrows).
    case int = 1
    /// `true` / `false`, stored as one bit.
    case bool = 2
    /// 32-bit IEEE float.
    case float = 3
    /// 64-bit IEEE double.
    case double = 4
    /// UTF-8 text.
    case string = 5
    /// Raw bytes.
    case binary = 6
    /// A point in time: signed nanoseconds since 1970-01-01T00:00:00Z (years 1678 to 2262).
    case timestamp = 7
    /// 16 bytes.
    case uuid = 8
    /// An object key of the column's target table.
    case link = 9
    /// An exact decimal number (`Decimal`), stored in an ordered encoding (`DecimalCoding`).
    case decimal = 10
    /// A 12-byte `ObjectId`.
    case objectId = 11
    /// A mixed value (schema `any`): a value of any other kind but `link`, or a `typedLink`, stored with its kind.
    case mixed = 12
    /// A link to an object of any table (table key and object key): only held by `mixed` columns and lists.
    case typedLink = 13

    /// The lowercase name used in messages.
    public var description: String {
        switch self {
        case .int: return "int"
        case .bool: return "bool"
        case .float: return "float"
        case .double: return "double"
        case .string: return "string"
        case .binary: return "binary"
        case .timestamp: return "timestamp"
        case .uuid: return "uuid"
        case .link: return "link"
        case .decimal: return "decimal"
        case .objectId: return "objectId"
        case .mixed: return "any"
        case .typedLink: return "typedLink"
        }
    }

    /// Whether values of this kind live in the fixed-width word lane of a cluster (not as byte strings).
    var isWord: Bool {
        switch self {
        case .int, .bool, .float, .double, .timestamp, .link: return true
        case .string, .binary, .uuid: return false
        case .decimal, .objectId, .mixed, .typedLink: return false
        }
    }
}

/// What a column holds.
public enum ColumnType: Hashable, Sendable, CustomStringConvertible {
    /// One value per object (a link is `.value(.link)` with `target` set on the column).
    case value(ValueKind)
    /// An ordered list of values per object (a list of links has element kind `.link`).
    case list(ValueKind)
    /// The engine-maintained inverse of a link or list column of another (or the same) table:
    /// for each object, the keys of the objects that link to it (once per link).
    case backlinks
    /// An unordered set of distinct values per object, kept sorted in element order (a set of links has element
    /// kind `.link`). Reads and writes as `.list` of its elements in that order.
    case set(ValueKind)
    /// String-keyed values per object, kept sorted by key (a map of links has element kind `.link`; its values
    /// become `.null` when their target is deleted). Reads and writes as `.map`.
    case map(ValueKind)

    /// `int`, `[string]`, `backlinks`.
    public var description: String {
        switch self {
        case .value(let kind): return kind.description
        case .list(let kind): return "[\(kind)]"
        case .backlinks: return "backlinks"
        case .set(let kind): return "set<\(kind)>"
        case .map(let kind): return "map<\(kind)>"
        }
    }

    /// Whether the column links to objects (a link, or a list, set or map of links).
    public var isLink: Bool {
        switch self {
        case .value(.link), .list(.link), .set(.link), .map(.link): return true
        default: return false
        }
    }

    /// Whether the column holds mixed values (`any`, alone or in a list, set or map), which may link to an object
    /// of any table.
    public var isMixed: Bool {
        switch self {
        case .value(.mixed), .list(.mixed), .set(.mixed), .map(.mixed): return true
        default: return false
        }
    }

    /// Whether values of the column can link to objects: links, lists of links and mixed values. The engine keeps
    /// backlinks for every link such a column holds.
    public var mayLink: Bool { isLink || isMixed }

    var code: UInt8 {
        switch self {
        case .value(let kind): return kind.rawValue
        case .list(let kind): return 0x40 | kind.rawValue
        case .backlinks: return 0x80
        case .set(let kind): return 0xC0 | kind.rawValue
        case .map(let kind): return 0x80 | kind.rawValue
        }
    }

    /// The element kind of a list, set or map; `nil` for single values and backlinks.
    public var elementKind: ValueKind? {
        switch self {
        case .list(let kind), .set(let kind), .map(let kind): return kind
        case .value, .backlinks: return nil
        }
    }

    /// Codes: the kind alone for a value, `0x40 | kind` for a list, `0x80` for backlinks, `0xC0 | kind` for a set,
    /// `0x80 | kind` for a map (kinds are 1...63, so a map's code is never `0x80`).
    init?(code: UInt8) {
        if code == 0x80 {
            self = .backlinks
        } else if let kind = ValueKind(rawValue: code & 0x3F) {
            switch code & 0xC0 {
            case 0x00: self = .value(kind)
            case 0x40: self = .list(kind)
            case 0x80: self = .map(kind)
            default: self = .set(kind)
            }
        } else {
            return nil
        }
    }
}
