#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StrataStorage

/// One row at a time of a model's table, read in place from the cluster that holds it: what
/// ``Results/snapshots()`` hands each generated `Model.snapshot(cursor:)`, so that taking a million snapshots
/// makes no managed object and no row handle per object and looks no column up per property read.
///
/// The cursor walks the table's clusters in key order (``SnapshotWalk``). On each cluster it resolves, once, a
/// typed view of every column the views cover (integers, dates, booleans, floats, doubles, strings, data); a read
/// of such a column is then an index into the view at the cursor's row. Other columns (UUIDs, decimals,
/// `ObjectId`s, mixed values, collections, links) are read by key from the table, as a managed object reads them,
/// and converted the same way, so a snapshot from the cursor equals the object's `snapshot()`.
///
/// A cursor is used inside one database access (its thread, or a frozen database's lock) and never escapes it.
/// A read that fails (a damaged file) stops the program with the database's message, as a property read does.
@_spi(StrataGenerated) public final class SnapshotRowCursor {
    let database: Database
    let model: ModelBinding
    let table: Table
    /// The object the cursor is on.
    private(set) var key = ObjectKey(0)
    /// Its row in the current cluster.
    private var row = 0
    /// The views of the current cluster, by model column (`nil` where the column's kind has no view of that kind).
    private var ints: [IntColumnView?]
    private var doubles: [DoubleColumnView?]
    private var bools: [BoolColumnView?]
    private var bytes: [StringColumnView?]
    /// The store's kind of each model column (`nil` for a collection or backlinks column).
    private let kinds: [ValueKind?]

    init(database: Database, model: ModelBinding, table: Table) {
        self.database = database
        self.model = model
        self.table = table
        kinds = model.columns.map { column in
            if case .value(let kind)? = table.column(column)?.type { return kind }
            return nil
        }
        ints = Array(repeating: nil, count: kinds.count)
        doubles = Array(repeating: nil, count: kinds.count)
        bools = Array(repeating: nil, count: kinds.count)
        bytes = Array(repeating: nil, count: kinds.count)
    }

    /// Resolves the views of `cluster`, whose rows the cursor reads next.
    func load(_ cluster: ScannedCluster) throws {
        for (column, kind) in kinds.enumerated() {
            let key = model.columns[column]
            switch kind {
            case .int?, .timestamp?: ints[column] = try cluster.intColumn(key)
            case .float?, .double?: doubles[column] = try cluster.doubleColumn(key)
            case .bool?: bools[column] = try cluster.boolColumn(key)
            case .string?, .binary?: bytes[column] = try cluster.stringColumn(key)
            default: continue
            }
        }
    }

    /// Puts the cursor on `row` of the loaded cluster, which holds object `key`.
    func move(to row: Int, key: ObjectKey) {
        self.row = row
        self.key = key
    }

    // MARK: Failures

    /// What messages call column `column`: `Model.property`.
    private func describe(_ column: Int) -> String { "\(model.name).\(model.propertyName(column))" }

    /// Stops the program: a read of `column` failed (a damaged file).
    private func failed(_ error: Error, _ column: Int) -> Never {
        database.fatal(error, while: "reading \(describe(column)) of \(model.name) object \(key.rawValue) for a snapshot")
    }

    /// Stops the program: the file's column `column` is not of the kind the generated code reads.
    private func mismatch(_ column: Int, _ wanted: String) -> Never {
        database.fatal(
            StrataError.schemaMismatch(
                path: database.store.path, detail: "\(describe(column)) is not \(wanted) in the file"),
            while: "reading \(describe(column)) of \(model.name) object \(key.rawValue) for a snapshot")
    }

    /// Reads column `column` by key from the table (the columns the views do not cover).
    private func stored<T>(_ column: Int, _ body: (Table, ObjectKey, ColumnKey) throws -> T) -> T {
        do {
            return try body(table, key, model.columns[column])
        } catch {
            failed(error, column)
        }
    }

    // MARK: Values in views

    /// Reads an optional int value from `column`; `nil` when the column holds none.
    public func optionalInt(at column: Int) -> Int64? {
        guard let view = ints[column] else { mismatch(column, "an integer") }
        return view.nulls.isNull(row) ? nil : view[row]
    }

    /// Reads an integer (narrower widths are widened) from `column`; `0` when it holds none.
    public func int(at column: Int) -> Int64 { optionalInt(at: column) ?? 0 }

    /// Reads an optional bool value from `column`; `nil` when the column holds none.
    public func optionalBool(at column: Int) -> Bool? {
        guard let view = bools[column] else { mismatch(column, "a bool") }
        return view.nulls.isNull(row) ? nil : view[row]
    }

    /// Reads a `bool` from `column`; `false` when it holds none.
    public func bool(at column: Int) -> Bool { optionalBool(at: column) ?? false }

    /// Reads an optional double value from `column`; `nil` when the column holds none.
    public func optionalDouble(at column: Int) -> Double? {
        guard let view = doubles[column] else { mismatch(column, "a double") }
        return view.nulls.isNull(row) ? nil : view[row]
    }

    /// Reads a `double` from `column`; `0` when it holds none.
    public func double(at column: Int) -> Double { optionalDouble(at: column) ?? 0 }

    /// Reads an optional float value from `column`; `nil` when the column holds none.
    public func optionalFloat(at column: Int) -> Float? { optionalDouble(at: column).map { Float($0) } }

    /// Reads a `float` from `column`; `0` when it holds none.
    public func float(at column: Int) -> Float { optionalFloat(at: column) ?? 0 }

    /// Reads an optional date value from `column`; `nil` when the column holds none.
    public func optionalDate(at column: Int) -> Date? { optionalInt(at: column).map(ValueConversion.date) }

    /// Reads a `date` from `column`; the store's zero date when it holds none.
    public func date(at column: Int) -> Date { optionalDate(at: column) ?? ValueConversion.date(0) }

    /// Reads an optional string value (or an enumeration's raw value) from `column`; `nil` when it holds none.
    public func optionalString(at column: Int) -> String? {
        guard let view = bytes[column] else { mismatch(column, "a string") }
        if view.nulls.isNull(row) { return nil }
        do {
            let raw = try view.bytes(row)
            guard let text = StoredText.decode(raw) else {
                failed(
                    StrataError.corruptFile(
                        path: database.store.path, location: "table '\(table.name)', object \(key), column "
                            + "'\(model.propertyName(column))'", detail: "a string is not valid UTF-8"),
                    column)
            }
            return text
        } catch {
            failed(error, column)
        }
    }

    /// Reads a `string` (or an enumeration's raw value) from `column`; `""` when it holds none.
    public func string(at column: Int) -> String { optionalString(at: column) ?? "" }

    /// Reads an optional data value from `column`; `nil` when the column holds none.
    public func optionalData(at column: Int) -> Data? {
        guard let view = bytes[column] else { mismatch(column, "data") }
        if view.nulls.isNull(row) { return nil }
        do {
            return Data(try view.bytes(row))
        } catch {
            failed(error, column)
        }
    }

    /// Reads a `data` from `column`; empty when it holds none.
    public func data(at column: Int) -> Data { optionalData(at: column) ?? Data() }

    // MARK: Values read by key

    /// Reads an optional uuid value from `column`; `nil` when the column holds none.
    public func optionalUUID(at column: Int) -> UUID? { stored(column) { try $0.uuid($1, column: $2) } }

    /// Reads a `uuid` from `column`; the zero UUID when it holds none.
    public func uuid(at column: Int) -> UUID { optionalUUID(at: column) ?? ManagedRow.zeroUUID }

    /// Reads an optional decimal value from `column`; `nil` when the column holds none.
    public func optionalDecimal(at column: Int) -> Decimal? { stored(column) { try $0.decimal($1, column: $2) } }

    /// Reads a `decimal` from `column`; `0` when it holds none.
    public func decimal(at column: Int) -> Decimal { optionalDecimal(at: column) ?? 0 }

    /// Reads an optional objectId value from `column`; `nil` when the column holds none.
    public func optionalObjectId(at column: Int) -> ObjectId? { stored(column) { try $0.objectId($1, column: $2) } }

    /// Reads an `objectId` from `column`; the zero `ObjectId` when it holds none.
    public func objectId(at column: Int) -> ObjectId { optionalObjectId(at: column) ?? .zero }

    /// Reads an `any` value from `column`: `.none` for null, `.object` for a link to an object of any model.
    public func anyValue(at column: Int) -> AnyValue { mixedValue(stored(column) { try $0.value($1, column: $2) }) }

    /// A stored mixed value as the value it holds (a link as its managed object), as a managed object reads it.
    private func mixedValue(_ stored: StorageValue) -> AnyValue {
        if case .typedLink(let tableKey, let key) = stored {
            guard let target = database.schema.model(forTable: tableKey),
                let object = database.object(of: target, key: key) as? Object
            else { return .none }
            return .object(object)
        }
        return AnyValue.fromPersistedValue(ValueConversion.persistedValue(stored)) ?? .none
    }

    // MARK: Collections

    /// The elements of the list or set in `column`, in their stored order, as values (not a live collection).
    public func elements<Element: ListElement>(at column: Int, of type: Element.Type) -> [Element] {
        let values: [StorageValue] = stored(column) { table, key, columnKey in
            if case .set? = table.column(columnKey)?.type { return try table.setElements(key, column: columnKey) }
            return try table.list(key, column: columnKey)
        }
        return values.map { element($0, column: column, as: Element.self) }
    }

    /// The entries of the map in `column`, as values (not a live map).
    public func entries<Value: ListElement>(at column: Int, of type: Value.Type) -> [String: Value] {
        let stored = stored(column) { try $0.mapEntries($1, column: $2) }
        return stored.mapValues { element($0, column: column, as: Value.self) }
    }

    /// One stored element of a collection of `column` as the element type the generated code reads.
    private func element<Element: ListElement>(_ value: StorageValue, column: Int, as type: Element.Type) -> Element {
        let persisted: PersistedValue
        if case .typedLink = value {
            persisted = mixedValue(value).persistedValue
        } else {
            persisted = ValueConversion.persistedValue(value)
        }
        guard let element = Element.fromPersistedValue(persisted) else {
            mismatch(column, "a collection of \(Element.self) (it holds \(value))")
        }
        return element
    }

    // MARK: Links

    /// The store reference of the object the to-one link in `column` points to, or `nil`.
    public func linkedAccessor(at column: Int) -> (any ManagedObjectAccessor)? {
        guard let linked = stored(column, { try $0.link($1, column: $2) }) else { return nil }
        return linkedRow(column, key: linked)
    }

    /// The store references of the objects the list or set of links in `column` holds, in order.
    public func linkedAccessors(at column: Int) -> [any ManagedObjectAccessor] {
        guard case .list(let values) = stored(column, { try $0.value($1, column: $2) }) else { return [] }
        return values.compactMap { value in
            guard case .link(let linked) = value else { return nil }
            return linkedRow(column, key: linked)
        }
    }

    /// The store references of the objects the map of links in `column` holds, by key (`nil` for a nil value).
    public func linkedAccessorMap(at column: Int) -> [String: (any ManagedObjectAccessor)?] {
        guard case .map(let entries) = stored(column, { try $0.value($1, column: $2) }) else { return [:] }
        return entries.mapValues { value -> (any ManagedObjectAccessor)? in
            guard case .link(let linked) = value else { return nil }
            return linkedRow(column, key: linked)
        }
    }

    /// The row of object `key` of the model `column` links to.
    private func linkedRow(_ column: Int, key: ObjectKey) -> ManagedRow? {
        model.linkTargets[column].map { ManagedRow(database: database, model: $0, key: key) }
    }
}
