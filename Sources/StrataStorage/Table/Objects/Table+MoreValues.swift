#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Table {
    /// A decimal column's value (`nil` = null).
    public func decimal(_ key: ObjectKey, column: ColumnKey) throws -> Decimal? {
        guard let raw = try bytes(key, column) else { return nil }
        guard case .decimal(let number)? = raw.withUnsafeBytes({ ValueCodec.value(bytes: $0, kind: .decimal) }) else {
            throw StrataError.invalidArgument("column \(column) of table '\(name)' does not hold decimals")
        }
        return number
    }

    /// An ObjectId column's value (`nil` = null).
    public func objectId(_ key: ObjectKey, column: ColumnKey) throws -> ObjectId? {
        guard let raw = try bytes(key, column) else { return nil }
        guard case .objectId(let id)? = raw.withUnsafeBytes({ ValueCodec.value(bytes: $0, kind: .objectId) }) else {
            throw StrataError.invalidArgument("column \(column) of table '\(name)' does not hold ObjectIds")
        }
        return id
    }
}
