#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StrataStorage

/// The store reference behind one managed object: typed reads and writes of its columns.
///
/// Generated properties call one method pair per storage kind, so a read goes straight to the column without
/// boxing. The object layer implements it over the storage engine; migrations implement it over rows of an older
/// version (the generated views of older versions use the getters, and the setters when the version is the
/// target of a custom step). Both do so through ``ObjectRow``, whose extension below holds the typed methods.
/// Column numbers are those of the model's ``ModelDescription``.
///
/// Methods do not throw: like Realm's accessors, misuse (a deleted object, a wrong thread, a write outside a
/// transaction) is reported by the implementation with a message that names the mistake.
@_spi(StrataGenerated) public protocol ManagedObjectAccessor: AnyObject {
    // MARK: Int

    /// Reads an integer of any width (narrower widths are widened) from `column`.
    func int(at column: Int) -> Int64
    /// Writes an integer of any width (narrower widths are widened) to `column`.
    func setInt(_ value: Int64, at column: Int)
    /// Reads an optional int value from `column`; `nil` when the column holds none.
    func optionalInt(at column: Int) -> Int64?
    /// Writes an optional int value to `column`; `nil` clears it.
    func setOptionalInt(_ value: Int64?, at column: Int)

    // MARK: Bool

    /// Reads a `bool` from `column`.
    func bool(at column: Int) -> Bool
    /// Writes a `bool` to `column`.
    func setBool(_ value: Bool, at column: Int)
    /// Reads an optional bool value from `column`; `nil` when the column holds none.
    func optionalBool(at column: Int) -> Bool?
    /// Writes an optional bool value to `column`; `nil` clears it.
    func setOptionalBool(_ value: Bool?, at column: Int)

    // MARK: Float

    /// Reads a `float` from `column`.
    func float(at column: Int) -> Float
    /// Writes a `float` to `column`.
    func setFloat(_ value: Float, at column: Int)
    /// Reads an optional float value from `column`; `nil` when the column holds none.
    func optionalFloat(at column: Int) -> Float?
    /// Writes an optional float value to `column`; `nil` clears it.
    func setOptionalFloat(_ value: Float?, at column: Int)

    // MARK: Double

    /// Reads a `double` from `column`.
    func double(at column: Int) -> Double
    /// Writes a `double` to `column`.
    func setDouble(_ value: Double, at column: Int)
    /// Reads an optional double value from `column`; `nil` when the column holds none.
    func optionalDouble(at column: Int) -> Double?
    /// Writes an optional double value to `column`; `nil` clears it.
    func setOptionalDouble(_ value: Double?, at column: Int)

    // MARK: String

    /// Reads a `string` or an enumeration's raw value from `column`.
    func string(at column: Int) -> String
    /// Writes a `string` or an enumeration's raw value to `column`.
    func setString(_ value: String, at column: Int)
    /// Reads an optional string value from `column`; `nil` when the column holds none.
    func optionalString(at column: Int) -> String?
    /// Writes an optional string value to `column`; `nil` clears it.
    func setOptionalString(_ value: String?, at column: Int)

    // MARK: Data

    /// Reads a `data` from `column`.
    func data(at column: Int) -> Data
    /// Writes a `data` to `column`.
    func setData(_ value: Data, at column: Int)
    /// Reads an optional data value from `column`; `nil` when the column holds none.
    func optionalData(at column: Int) -> Data?
    /// Writes an optional data value to `column`; `nil` clears it.
    func setOptionalData(_ value: Data?, at column: Int)

    // MARK: Date

    /// Reads a `date` from `column`.
    func date(at column: Int) -> Date
    /// Writes a `date` to `column`.
    func setDate(_ value: Date, at column: Int)
    /// Reads an optional date value from `column`; `nil` when the column holds none.
    func optionalDate(at column: Int) -> Date?
    /// Writes an optional date value to `column`; `nil` clears it.
    func setOptionalDate(_ value: Date?, at column: Int)

    // MARK: UUID

    /// Reads a `uuid` from `column`.
    func uuid(at column: Int) -> UUID
    /// Writes a `uuid` to `column`.
    func setUUID(_ value: UUID, at column: Int)
    /// Reads an optional uuid value from `column`; `nil` when the column holds none.
    func optionalUUID(at column: Int) -> UUID?
    /// Writes an optional uuid value to `column`; `nil` clears it.
    func setOptionalUUID(_ value: UUID?, at column: Int)

    // MARK: Decimal

    /// Reads a `decimal` from `column`.
    func decimal(at column: Int) -> Decimal
    /// Writes a `decimal` to `column`.
    func setDecimal(_ value: Decimal, at column: Int)
    /// Reads an optional decimal value from `column`; `nil` when the column holds none.
    func optionalDecimal(at column: Int) -> Decimal?
    /// Writes an optional decimal value to `column`; `nil` clears it.
    func setOptionalDecimal(_ value: Decimal?, at column: Int)

    // MARK: ObjectId

    /// Reads an `objectId` from `column`.
    func objectId(at column: Int) -> ObjectId
    /// Writes an `objectId` to `column`.
    func setObjectId(_ value: ObjectId, at column: Int)
    /// Reads an optional objectId value from `column`; `nil` when the column holds none.
    func optionalObjectId(at column: Int) -> ObjectId?
    /// Writes an optional objectId value to `column`; `nil` clears it.
    func setOptionalObjectId(_ value: ObjectId?, at column: Int)

    // MARK: Any

    /// Reads an `any` (mixed) value from `column`: `.none` for null, `.object` for a link to an object of any model.
    func anyValue(at column: Int) -> AnyValue
    /// Writes an `any` value to `column` (an unmanaged object is added to the database).
    func setAnyValue(_ value: AnyValue, at column: Int)

    // MARK: Links

    /// The object a to-one link in `column` points to, as an instance of `type`, or `nil`.
    func link<Target: ObjectBase>(at column: Int, as type: Target.Type) -> Target?
    /// Points the to-one link in `column` at `target` (adding it to the database if it is unmanaged), or clears it.
    func setLink(_ target: ObjectBase?, at column: Int)
    /// The store reference of the object a to-one link in `column` points to: how the views of an older
    /// version follow links during a migration.
    func linkedAccessor(at column: Int) -> (any ManagedObjectAccessor)?

    // MARK: Lists and linking objects

    /// The list in `column`, live: changes to it write the store.
    func list<Element: ListElement>(at column: Int, of type: Element.Type) -> List<Element>
    /// Replaces the contents of the list in `column` with the elements of `elements`.
    func setList<Element: ListElement>(_ elements: List<Element>, at column: Int)
    /// The store references of the objects a list of links in `column` holds, in order: how the views of an
    /// older version follow lists during a migration.
    func linkedAccessors(at column: Int) -> [any ManagedObjectAccessor]
    /// The objects of `type` whose link or list `property` points to this object, live.
    func linkingObjects<Source: Object>(_ type: Source.Type, through property: String) -> LinkingObjects<Source>

    // MARK: Sets and maps

    /// The set in `column`, live: changes to it write the store.
    func mutableSet<Element: ListElement>(at column: Int, of type: Element.Type) -> MutableSet<Element>
    /// Replaces the contents of the set in `column` with the elements of `elements`.
    func setMutableSet<Element: ListElement>(_ elements: MutableSet<Element>, at column: Int)
    /// The map in `column`, live: changes to it write the store.
    func map<Value: ListElement>(at column: Int, of type: Value.Type) -> Map<String, Value>
    /// Replaces the contents of the map in `column` with the entries of `entries`.
    func setMap<Value: ListElement>(_ entries: Map<String, Value>, at column: Int)
    /// The store references of the objects a map of links in `column` holds, by key (`nil` for a nil value): how
    /// the views of an older version follow maps during a migration.
    func linkedAccessorMap(at column: Int) -> [String: (any ManagedObjectAccessor)?]
}

// MARK: - The typed accessors of every row

/// The typed accessors, written once over ``ObjectRow``'s read and write for every kind of row (a database's
/// objects, a migration's). A column that holds no value reads as the kind's zero, as does a failed read a
/// migration carries on from; a new value kind adds its pair here, its column in the storage engine, and its
/// case in the code generator's `AccessorCall`.
///
/// Each read's closure captures the row's key (`[key]`), not the row: a closure that read `key` through `self`
/// made every property read of a managed object retain and release its row around the storage engine's read
/// (the read's checked path, which the closure also goes to, kept the copy alive on the fast path too).
extension ObjectRow {
    func int(at column: Int) -> Int64 { optionalInt(at: column) ?? 0 }
    func setInt(_ value: Int64, at column: Int) { write(column) { .int(value) } }
    func optionalInt(at column: Int) -> Int64? { read(column) { [key] in try $0.int(key, column: $1) } }
    func setOptionalInt(_ value: Int64?, at column: Int) { write(column) { value.map { .int($0) } ?? .null } }

    func bool(at column: Int) -> Bool { optionalBool(at: column) ?? false }
    func setBool(_ value: Bool, at column: Int) { write(column) { .bool(value) } }
    func optionalBool(at column: Int) -> Bool? { read(column) { [key] in try $0.bool(key, column: $1) } }
    func setOptionalBool(_ value: Bool?, at column: Int) { write(column) { value.map { .bool($0) } ?? .null } }

    func float(at column: Int) -> Float { optionalFloat(at: column) ?? 0 }
    func setFloat(_ value: Float, at column: Int) { write(column) { .float(value) } }
    func optionalFloat(at column: Int) -> Float? { read(column) { [key] in try $0.float(key, column: $1) } }
    func setOptionalFloat(_ value: Float?, at column: Int) { write(column) { value.map { .float($0) } ?? .null } }

    func double(at column: Int) -> Double { optionalDouble(at: column) ?? 0 }
    func setDouble(_ value: Double, at column: Int) { write(column) { .double(value) } }
    func optionalDouble(at column: Int) -> Double? { read(column) { [key] in try $0.double(key, column: $1) } }
    func setOptionalDouble(_ value: Double?, at column: Int) { write(column) { value.map { .double($0) } ?? .null } }

    func string(at column: Int) -> String { optionalString(at: column) ?? "" }
    func setString(_ value: String, at column: Int) { write(column) { .string(value) } }
    func optionalString(at column: Int) -> String? { read(column) { [key] in try $0.string(key, column: $1) } }
    func setOptionalString(_ value: String?, at column: Int) { write(column) { value.map { .string($0) } ?? .null } }

    func data(at column: Int) -> Data { optionalData(at: column) ?? Data() }
    func setData(_ value: Data, at column: Int) { write(column) { .binary(Array(value)) } }
    func optionalData(at column: Int) -> Data? {
        read(column) { [key] in try $0.binary(key, column: $1).map { Data($0) } }
    }
    func setOptionalData(_ value: Data?, at column: Int) {
        write(column) { value.map { .binary(Array($0)) } ?? .null }
    }

    func date(at column: Int) -> Date { optionalDate(at: column) ?? ValueConversion.date(0) }
    func setDate(_ value: Date, at column: Int) { write(column) { .timestamp(ValueConversion.timestamp(value)) } }
    func optionalDate(at column: Int) -> Date? {
        read(column) { [key] in try $0.timestamp(key, column: $1).map(ValueConversion.date) }
    }
    func setOptionalDate(_ value: Date?, at column: Int) {
        write(column) { value.map { .timestamp(ValueConversion.timestamp($0)) } ?? .null }
    }

    func uuid(at column: Int) -> UUID { optionalUUID(at: column) ?? Self.zeroUUID }
    func setUUID(_ value: UUID, at column: Int) { write(column) { .uuid(value) } }
    func optionalUUID(at column: Int) -> UUID? { read(column) { [key] in try $0.uuid(key, column: $1) } }
    func setOptionalUUID(_ value: UUID?, at column: Int) { write(column) { value.map { .uuid($0) } ?? .null } }

    /// The UUID a non-optional uuid column reads as when it holds none (never written by Strata itself).
    static var zeroUUID: UUID { UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)) }

    func decimal(at column: Int) -> Decimal { optionalDecimal(at: column) ?? 0 }
    func setDecimal(_ value: Decimal, at column: Int) { write(column) { .decimal(value) } }
    func optionalDecimal(at column: Int) -> Decimal? { read(column) { [key] in try $0.decimal(key, column: $1) } }
    func setOptionalDecimal(_ value: Decimal?, at column: Int) { write(column) { value.map { .decimal($0) } ?? .null } }

    func objectId(at column: Int) -> ObjectId { optionalObjectId(at: column) ?? .zero }
    func setObjectId(_ value: ObjectId, at column: Int) { write(column) { .objectId(value) } }
    func optionalObjectId(at column: Int) -> ObjectId? { read(column) { [key] in try $0.objectId(key, column: $1) } }
    func setOptionalObjectId(_ value: ObjectId?, at column: Int) {
        write(column) { value.map { .objectId($0) } ?? .null }
    }
}
