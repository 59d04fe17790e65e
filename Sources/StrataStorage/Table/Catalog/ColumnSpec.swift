/// One column of a table as the catalog records it.
public struct ColumnSpec: Hashable, Sendable, CustomStringConvertible {
    /// Stable identity inside the table.
    public let key: ColumnKey
    /// The property name (unique in the table, up to 255 UTF-8 bytes).
    public var name: String
    /// What the column holds.
    public var type: ColumnType
    /// Whether `.null` is a value of the column (links always are; lists and backlinks never are).
    public var isNullable: Bool
    /// Whether list, set or map elements may be `.null` (optional primitives; maps of links).
    public var elementsNullable: Bool
    /// For a link or list of links: the target table. For backlinks: the table holding the link.
    public var target: TableKey?
    /// For backlinks: the link or list column (in `target`) whose inverse this is.
    public var origin: ColumnKey?
    /// The value new objects (and existing ones, when the column is added) get when none is given.
    public var defaultValue: StorageValue

    /// `name: type`.
    public var description: String { "\(name): \(type)\(isNullable ? "?" : "")" }

    /// The value kind of the column's values or list elements (`.link` for backlinks).
    var kind: ValueKind {
        switch type {
        case .value(let kind), .list(let kind), .set(let kind), .map(let kind): return kind
        case .backlinks: return .link
        }
    }

    /// How the column is laid out in a cluster.
    var blockEncoding: BlockEncoding {
        switch type {
        case .value(.int), .value(.timestamp), .value(.link): return .packedInt
        case .value(.bool): return .bits
        case .value(.float): return .float32
        case .value(.double): return .float64
        case .value(.uuid): return .fixed16
        case .value(.string), .value(.binary), .list, .backlinks, .set, .map: return .variable
        case .value(.decimal), .value(.objectId), .value(.mixed), .value(.typedLink): return .variable
        }
    }

    /// Whether the column keeps a null bitmap.
    var hasNullBitmap: Bool {
        if case .value = type { return isNullable }
        return false
    }
}
