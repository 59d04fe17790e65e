#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StrataStorage

/// The typed reads the generated getters of a managed object call (`managedInt(at:)`, `managedOptionalString(at:)`
/// and the rest, one per ``ManagedObjectAccessor`` read): each calls the object's database row through
/// ``ObjectBase/databaseRow``, which holds it without counting, and any other row (a migration's, a snapshot's)
/// through ``ObjectBase/managedAccessor``.
///
/// Calling the accessor straight from the getter (`if let accessor = managedAccessor { accessor.int(at: 0) }`, as
/// code generated before these existed still does, and still may) retains and releases it around every read: a
/// final method with a guaranteed reference reads with no reference counting. Only a managed object's getters call
/// them (the generated code checks `managedAccessor != nil` first).
extension ObjectBase {
    /// Calls `read` on the object's database row without retaining it, or `other` on its other kind of row.
    @inline(__always)
    private func withRow<Value>(
        _ read: (ManagedRow) -> Value, else other: (any ManagedObjectAccessor) -> Value
    ) -> Value {
        if let databaseRow { return databaseRow._withUnsafeGuaranteedRef(read) }
        // Generated getters call these for managed objects only: a missing accessor is a misuse of the SPI.
        guard let managedAccessor else { preconditionFailure("A typed read of an unmanaged \(type(of: self))") }
        return other(managedAccessor)
    }

    /// Reads an `int` from `column` of a managed object (``ManagedObjectAccessor/int(at:)``).
    @_spi(StrataGenerated) public final func managedInt(at column: Int) -> Int64 {
        withRow({ $0.int(at: column) }, else: { $0.int(at: column) })
    }

    /// Reads an optional int value from `column` of a managed object (``ManagedObjectAccessor/optionalInt(at:)``).
    @_spi(StrataGenerated) public final func managedOptionalInt(at column: Int) -> Int64? {
        withRow({ $0.optionalInt(at: column) }, else: { $0.optionalInt(at: column) })
    }

    /// Reads a `bool` from `column` of a managed object (``ManagedObjectAccessor/bool(at:)``).
    @_spi(StrataGenerated) public final func managedBool(at column: Int) -> Bool {
        withRow({ $0.bool(at: column) }, else: { $0.bool(at: column) })
    }

    /// Reads an optional bool value from `column` of a managed object (``ManagedObjectAccessor/optionalBool(at:)``).
    @_spi(StrataGenerated) public final func managedOptionalBool(at column: Int) -> Bool? {
        withRow({ $0.optionalBool(at: column) }, else: { $0.optionalBool(at: column) })
    }

    /// Reads a `float` from `column` of a managed object (``ManagedObjectAccessor/float(at:)``).
    @_spi(StrataGenerated) public final func managedFloat(at column: Int) -> Float {
        withRow({ $0.float(at: column) }, else: { $0.float(at: column) })
    }

    /// Reads an optional float value from `column` of a managed object (``ManagedObjectAccessor/optionalFloat(at:)``).
    @_spi(StrataGenerated) public final func managedOptionalFloat(at column: Int) -> Float? {
        withRow({ $0.optionalFloat(at: column) }, else: { $0.optionalFloat(at: column) })
    }

    /// Reads a `double` from `column` of a managed object (``ManagedObjectAccessor/double(at:)``).
    @_spi(StrataGenerated) public final func managedDouble(at column: Int) -> Double {
        withRow({ $0.double(at: column) }, else: { $0.double(at: column) })
    }

    /// Reads an optional double value from `column` of a managed object
    /// (``ManagedObjectAccessor/optionalDouble(at:)``).
    @_spi(StrataGenerated) public final func managedOptionalDouble(at column: Int) -> Double? {
        withRow({ $0.optionalDouble(at: column) }, else: { $0.optionalDouble(at: column) })
    }

    /// Reads a `string` from `column` of a managed object (``ManagedObjectAccessor/string(at:)``).
    @_spi(StrataGenerated) public final func managedString(at column: Int) -> String {
        withRow({ $0.string(at: column) }, else: { $0.string(at: column) })
    }

    /// Reads an optional string value from `column` of a managed object
    /// (``ManagedObjectAccessor/optionalString(at:)``).
    @_spi(StrataGenerated) public final func managedOptionalString(at column: Int) -> String? {
        withRow({ $0.optionalString(at: column) }, else: { $0.optionalString(at: column) })
    }

    /// Reads a `data` from `column` of a managed object (``ManagedObjectAccessor/data(at:)``).
    @_spi(StrataGenerated) public final func managedData(at column: Int) -> Data {
        withRow({ $0.data(at: column) }, else: { $0.data(at: column) })
    }

    /// Reads an optional data value from `column` of a managed object (``ManagedObjectAccessor/optionalData(at:)``).
    @_spi(StrataGenerated) public final func managedOptionalData(at column: Int) -> Data? {
        withRow({ $0.optionalData(at: column) }, else: { $0.optionalData(at: column) })
    }

    /// Reads a `date` from `column` of a managed object (``ManagedObjectAccessor/date(at:)``).
    @_spi(StrataGenerated) public final func managedDate(at column: Int) -> Date {
        withRow({ $0.date(at: column) }, else: { $0.date(at: column) })
    }

    /// Reads an optional date value from `column` of a managed object (``ManagedObjectAccessor/optionalDate(at:)``).
    @_spi(StrataGenerated) public final func managedOptionalDate(at column: Int) -> Date? {
        withRow({ $0.optionalDate(at: column) }, else: { $0.optionalDate(at: column) })
    }

    /// Reads an `uuid` from `column` of a managed object (``ManagedObjectAccessor/uuid(at:)``).
    @_spi(StrataGenerated) public final func managedUUID(at column: Int) -> UUID {
        withRow({ $0.uuid(at: column) }, else: { $0.uuid(at: column) })
    }

    /// Reads an optional uuid value from `column` of a managed object (``ManagedObjectAccessor/optionalUUID(at:)``).
    @_spi(StrataGenerated) public final func managedOptionalUUID(at column: Int) -> UUID? {
        withRow({ $0.optionalUUID(at: column) }, else: { $0.optionalUUID(at: column) })
    }

    /// Reads a `decimal` from `column` of a managed object (``ManagedObjectAccessor/decimal(at:)``).
    @_spi(StrataGenerated) public final func managedDecimal(at column: Int) -> Decimal {
        withRow({ $0.decimal(at: column) }, else: { $0.decimal(at: column) })
    }

    /// Reads an optional decimal value from `column` of a managed object
    /// (``ManagedObjectAccessor/optionalDecimal(at:)``).
    @_spi(StrataGenerated) public final func managedOptionalDecimal(at column: Int) -> Decimal? {
        withRow({ $0.optionalDecimal(at: column) }, else: { $0.optionalDecimal(at: column) })
    }

    /// Reads an `objectId` from `column` of a managed object (``ManagedObjectAccessor/objectId(at:)``).
    @_spi(StrataGenerated) public final func managedObjectId(at column: Int) -> ObjectId {
        withRow({ $0.objectId(at: column) }, else: { $0.objectId(at: column) })
    }

    /// Reads an optional objectId value from `column` of a managed object
    /// (``ManagedObjectAccessor/optionalObjectId(at:)``).
    @_spi(StrataGenerated) public final func managedOptionalObjectId(at column: Int) -> ObjectId? {
        withRow({ $0.optionalObjectId(at: column) }, else: { $0.optionalObjectId(at: column) })
    }

    /// Reads an `any` value from `column` of a managed object (``ManagedObjectAccessor/anyValue(at:)``).
    @_spi(StrataGenerated) public final func managedAnyValue(at column: Int) -> AnyValue {
        withRow({ $0.anyValue(at: column) }, else: { $0.anyValue(at: column) })
    }
}
