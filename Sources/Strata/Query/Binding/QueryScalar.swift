import Foundation
import StrataStorage

/// One value a query compares while it runs: a stored value read from an object, or a constant of the
/// predicate, in one representation so both sides compare the same way.
///
/// Integers, floats, doubles and decimals compare as numbers with each other; dates are nanoseconds since 1970 (as
/// the store keeps them); an object is its key in its model's table, or its table and key when a mixed value
/// links to it.
///
/// The constants of a predicate arrive as ``QueryValue`` (the public, written form) and are converted once, when
/// the predicate is bound; ``QueryValue`` says why the two are kept apart.
enum QueryScalar: Hashable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case data([UInt8])
    case timestamp(Int64)
    case uuid(UUID)
    case object(ObjectKey)
    case decimal(Decimal)
    case objectId(ObjectId)
    /// An object a mixed value links to: its table and its key.
    case typedObject(TableKey, ObjectKey)

    /// A stored value (a list is not a scalar: callers expand lists first).
    init(_ value: StorageValue) {
        switch value {
        case .null, .list, .map: self = .null
        case .int(let value): self = .int(value)
        case .bool(let value): self = .bool(value)
        case .float(let value): self = .double(Double(value))
        case .double(let value): self = .double(value)
        case .string(let value): self = .string(value)
        case .binary(let value): self = .data(value)
        case .timestamp(let value): self = .timestamp(value)
        case .uuid(let value): self = .uuid(value)
        case .link(let key): self = .object(key)
        case .decimal(let value): self = .decimal(value)
        case .objectId(let value): self = .objectId(value)
        case .typedLink(let table, let key): self = .typedObject(table, key)
        }
    }

    /// A constant of the predicate (lists are expanded by the binder).
    init(_ value: QueryValue) {
        switch value {
        case .null, .list: self = .null
        case .bool(let value): self = .bool(value)
        case .int(let value): self = .int(value)
        case .double(let value): self = .double(value)
        case .string(let value): self = .string(value)
        case .data(let value): self = .data(Array(value))
        case .date(let value): self = .timestamp(ValueConversion.timestamp(value))
        case .uuid(let value): self = .uuid(value)
        case .object(_, let key): self = .object(ObjectKey(key))
        case .decimal(let value): self = .decimal(value)
        case .objectId(let value): self = .objectId(value)
        }
    }

    var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The value as a number, for sums, averages and numeric comparisons.
    var number: Double? {
        switch self {
        case .int(let value): return Double(value)
        case .double(let value): return value
        case .decimal(let value): return Double("\(value)")
        default: return nil
        }
    }

    /// The value as an exact decimal, for comparisons with decimals: integers exactly, doubles through their
    /// shortest text (`0.1` is `0.1`, as written); `nil` for NaN, infinities and other kinds.
    var decimalValue: Decimal? {
        switch self {
        case .int(let value): return Decimal(value)
        case .double(let value): return value.isFinite ? Decimal(string: "\(value)") : nil
        case .decimal(let value): return value.isNaN ? nil : value
        default: return nil
        }
    }

    /// Whether the value is a number (int, double or decimal).
    var isNumber: Bool {
        switch self {
        case .int, .double, .decimal: return true
        default: return false
        }
    }

    /// Orders two non-null values of comparable kinds: `nil` when they cannot be ordered (different kinds,
    /// booleans, UUIDs, objects).
    static func order(_ left: QueryScalar, _ right: QueryScalar) -> Int? {
        switch (left, right) {
        case (.int(let a), .int(let b)): return a < b ? -1 : (a == b ? 0 : 1)
        case (.int, .double), (.double, .int), (.double, .double):
            guard let a = left.number, let b = right.number, !a.isNaN, !b.isNaN else { return nil }
            return a < b ? -1 : (a == b ? 0 : 1)
        case (.decimal, _) where right.isNumber, (_, .decimal) where left.isNumber:
            guard let a = left.decimalValue, let b = right.decimalValue else { return nil }
            return a < b ? -1 : (a == b ? 0 : 1)
        case (.objectId(let a), .objectId(let b)): return a < b ? -1 : (a == b ? 0 : 1)
        case (.timestamp(let a), .timestamp(let b)): return a < b ? -1 : (a == b ? 0 : 1)
        case (.string(let a), .string(let b)):
            // UTF-8 byte order, as the index stores strings: no normalization, so the two always agree.
            if a.utf8.elementsEqual(b.utf8) { return 0 }
            return a.utf8.lexicographicallyPrecedes(b.utf8) ? -1 : 1
        case (.data(let a), .data(let b)): return a.lexicographicallyPrecedes(b) ? -1 : (a == b ? 0 : 1)
        default: return nil
        }
    }

    /// Whether two values are equal as a query sees them (`1 == 1.0`; strings by their UTF-8 bytes; nil equals
    /// only nil).
    static func equal(_ left: QueryScalar, _ right: QueryScalar) -> Bool {
        switch (left, right) {
        case (.int, .double), (.double, .int): return left.number == right.number
        case (.decimal, _) where right.isNumber, (_, .decimal) where left.isNumber:
            guard let a = left.decimalValue, let b = right.decimalValue else { return false }
            return a == b
        case (.string(let a), .string(let b)): return a.utf8.elementsEqual(b.utf8)
        default: return left == right
        }
    }

    /// The order a sort uses: nil first, then numbers, then the rest by kind, each kind in its natural order (a
    /// nil link on a sort key path sorts last instead: see `SortKey.order`).
    static func sortOrder(_ left: QueryScalar, _ right: QueryScalar) -> Int {
        if let order = order(left, right) { return order }
        switch (left, right) {
        case (.bool(let a), .bool(let b)): return a == b ? 0 : (a ? 1 : -1)
        case (.uuid(let a), .uuid(let b)): return a.uuidString < b.uuidString ? -1 : (a == b ? 0 : 1)
        case (.object(let a), .object(let b)): return a < b ? -1 : (a == b ? 0 : 1)
        case (.typedObject(let tableA, let a), .typedObject(let tableB, let b)):
            if tableA != tableB { return tableA.rawValue < tableB.rawValue ? -1 : 1 }
            return a < b ? -1 : (a == b ? 0 : 1)
        default: return left.rank - right.rank
        }
    }

    private var rank: Int {
        switch self {
        case .null: return 0
        case .bool: return 1
        case .int, .double, .decimal: return 2
        case .timestamp: return 3
        case .string: return 4
        case .data: return 5
        case .uuid: return 6
        case .object: return 7
        case .objectId: return 8
        case .typedObject: return 9
        }
    }

    // MARK: - Identity of constants

    /// Whether two constants of a predicate are the same constant: as `==`, except that strings compare by their
    /// UTF-8 bytes (as queries compare them; `==` on `String` equates canonically equivalent strings) and doubles
    /// by their bits (NaN is itself, and `-0.0` is not `0.0`). Equal bound predicates (``BoundPredicate``'s
    /// `Hashable`) compare their constants this way.
    func isIdentical(to other: QueryScalar) -> Bool {
        switch (self, other) {
        case (.string(let a), .string(let b)): return a.utf8.elementsEqual(b.utf8)
        case (.double(let a), .double(let b)): return a.bitPattern == b.bitPattern
        default: return self == other
        }
    }

    /// Feeds the constant to `hasher` consistently with ``isIdentical(to:)``.
    func hashIdentity(into hasher: inout Hasher) {
        switch self {
        case .string(let text):
            hasher.combine(4)
            hasher.combine(text.utf8.count)
            for byte in text.utf8 { hasher.combine(byte) }
        case .double(let number):
            hasher.combine(3)
            hasher.combine(number.bitPattern)
        default:
            hasher.combine(self)
        }
    }
}
