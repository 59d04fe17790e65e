#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StrataStorage

/// One persisted value read from an unmanaged object, in the store's terms.
///
/// Integers of every width are widened to `Int64` and enumerations appear as their raw string, as the store
/// keeps them. The object layer reads these when it adds an unmanaged object to a database.
public enum PersistedValue {
    /// No value: an optional property holding `nil`, an unset link, or an `auto` primary key not yet assigned.
    case null
    /// A `bool`.
    case bool(Bool)
    /// An integer of any width.
    case int(Int64)
    /// A `float`.
    case float(Float)
    /// A `double`.
    case double(Double)
    /// A `string`, or an enumeration's raw value.
    case string(String)
    /// A `data`.
    case data(Data)
    /// A `date`.
    case date(Date)
    /// A `uuid`.
    case uuid(UUID)
    /// A to-one link to another object, managed or not.
    case object(ObjectBase)
    /// The elements of a list, in order, or of a set.
    case list([PersistedValue])
    /// The entries of a map.
    case map([String: PersistedValue])
    /// A `decimal`.
    case decimal(Decimal)
    /// An `objectId`.
    case objectId(ObjectId)
}

extension PersistedValue {
    /// A primitive value (null, bool, integer, float, double, string) as the store holds it; `nil` for every other
    /// case, which `ValueConversion.storageValue` converts. Inlinable: the generated `writeValues(into:)` stores a
    /// primitive through it with no call (`UnmanagedRow.write(_:at:)`).
    @inlinable @inline(__always) var primitiveStorageValue: StorageValue? {
        switch self {
        case .null: return .null
        case .bool(let value): return .bool(value)
        case .int(let value): return .int(value)
        case .float(let value): return .float(value)
        case .double(let value): return .double(value)
        case .string(let value): return .string(value)
        default: return nil
        }
    }
}
