import Foundation
import StrataStorage

/// The store reference behind one managed object: the database, the model and the object's key. Every generated
/// property reads and writes its column through it, straight from and to the store.
final class ManagedRow: ManagedObjectAccessor {
    let database: Database
    let model: ModelBinding
    let key: ObjectKey
    /// The model's table as the database read it last, and the database's ``Database/changeStamp`` then: the
    /// stamp changes whenever the database moves to another catalog (a refresh, a write's start or end), so an
    /// unchanged stamp means the table is still the one to read. Reading several properties of an object, or
    /// objects handed out by one results loop (which passes its table in), then skip the database's lookup.
    ///
    /// Not retained, so that an object kept after a refresh does not keep the old version's table (and the
    /// version it pins) alive. `Unmanaged` rather than `unowned`: it is only used while the stamp is unchanged,
    /// when the database's catalog still holds the table, so the reference counting `unowned` does on every read
    /// (and a strong copy's retain and release) would buy nothing. Not checked for exclusive access at run time:
    /// the row is used by its database's thread only, and these are read and assigned whole.
    @exclusivity(unchecked) private var table: Unmanaged<Table>?
    @exclusivity(unchecked) private var tableStamp: UInt64

    init(database: Database, model: ModelBinding, key: ObjectKey) {
        self.database = database
        self.model = model
        self.key = key
        tableStamp = 0
    }

    /// A row whose model's table `table` was read at the database's change stamp `stamp`.
    init(database: Database, model: ModelBinding, key: ObjectKey, table: Table?, stamp: UInt64) {
        self.database = database
        self.model = model
        self.key = key
        self.table = table.map(Unmanaged.passUnretained)
        tableStamp = stamp
    }

    /// The model's table in the version the database reads now.
    private func currentTable() throws -> Table {
        let stamp = database.changeStamp
        // The stamp first: the unowned table may only be loaded while its catalog is the database's.
        if tableStamp == stamp, let table { return table.takeUnretainedValue() }
        let current = try database.table(for: model)
        table = Unmanaged.passUnretained(current)
        tableStamp = stamp
        return current
    }

    /// Whether the object was deleted (or its write cancelled).
    var isInvalidated: Bool {
        database.withAccess("reading \(model.name).isInvalidated") {
            (try? database.table(for: model).contains(key)) != true
        }
    }

    private func propertyName(_ column: Int) -> String {
        column < model.description.properties.count ? model.description.properties[column].name : "#\(column)"
    }

    // MARK: Reading and writing columns

    /// Reads column `column` with `body`, stopping with a message if the object was deleted.
    ///
    /// The read itself finds the object (one descent of the table's tree); only when it fails is the object's
    /// existence checked, to tell a deleted object (a programming error) from a damaged file.
    ///
    /// The common case (a database that is not frozen, used on its own thread, whose table this row read at the
    /// current stamp) reads straight away: every property read of every object passes here, and going through
    /// ``Database/withAccess(_:_:)`` and ``currentTable()`` costs closure contexts and reference counting that
    /// are a fifth of a string read. Anything else, and any failure, takes the checked path below, which
    /// reports misuse and damage with their messages.
    @inline(__always)
    private func read<T>(_ column: Int, _ body: (Table, ColumnKey) throws -> T) -> T {
        if database.frozenLock == nil, tableStamp == database.changeStamp, let table,
            database.confinement.isCurrentThreadAllowed
        {
            do {
                // The table lent for the read, without a retain: the database's catalog holds it (see `table`).
                return try table._withUnsafeGuaranteedRef { try body($0, model.columns[column]) }
            } catch {
                // Reported by the checked path, which reads again and tells a deleted object from damage.
            }
        }
        return checkedRead(column, body)
    }

    /// ``read(_:_:)`` with every check: the thread (or the frozen lock), the table's version, and on failure
    /// whether the object was deleted.
    private func checkedRead<T>(_ column: Int, _ body: (Table, ColumnKey) throws -> T) -> T {
        database.withAccess("reading \(model.name).\(propertyName(column))") {
            do {
                return try body(try currentTable(), model.columns[column])
            } catch {
                if let table = try? database.table(for: model), (try? table.contains(key)) == false {
                    preconditionFailure(
                        "Strata: reading \(model.name).\(propertyName(column)) of an object that was deleted or "
                            + "whose write was cancelled; check isInvalidated first")
                }
                database.fatal(error, while: "reading \(model.name).\(propertyName(column))")
            }
        }
    }

    /// Writes `value` to column `column` in the current write transaction.
    private func write(_ column: Int, _ value: StorageValue) {
        database.requireWrite("set \(model.name).\(propertyName(column))")
        database.perform {
            let table = try database.table(for: model)
            if column == model.primaryKeyColumn, try table.value(key, column: model.columns[column]) != value {
                throw StrataError.invalidArgument(
                    "the primary key \(model.name).\(propertyName(column)) cannot change once the object is stored; "
                        + "create a new object and delete this one instead")
            }
            try table.set(key, column: model.columns[column], to: value)
        }
    }

    func int(at column: Int) -> Int64 { read(column) { try $0.int(key, column: $1) ?? 0 } }
    func setInt(_ value: Int64, at column: Int) { write(column, .int(value)) }
    func optionalInt(at column: Int) -> Int64? { read(column) { try $0.int(key, column: $1) } }
    func setOptionalInt(_ value: Int64?, at column: Int) { write(column, value.map { .int($0) } ?? .null) }

    func bool(at column: Int) -> Bool { read(column) { try $0.bool(key, column: $1) ?? false } }
    func setBool(_ value: Bool, at column: Int) { write(column, .bool(value)) }
    func optionalBool(at column: Int) -> Bool? { read(column) { try $0.bool(key, column: $1) } }
    func setOptionalBool(_ value: Bool?, at column: Int) { write(column, value.map { .bool($0) } ?? .null) }

    func float(at column: Int) -> Float { read(column) { try $0.float(key, column: $1) ?? 0 } }
    func setFloat(_ value: Float, at column: Int) { write(column, .float(value)) }
    func optionalFloat(at column: Int) -> Float? { read(column) { try $0.float(key, column: $1) } }
    func setOptionalFloat(_ value: Float?, at column: Int) { write(column, value.map { .float($0) } ?? .null) }

    func double(at column: Int) -> Double { read(column) { try $0.double(key, column: $1) ?? 0 } }
    func setDouble(_ value: Double, at column: Int) { write(column, .double(value)) }
    func optionalDouble(at column: Int) -> Double? { read(column) { try $0.double(key, column: $1) } }
    func setOptionalDouble(_ value: Double?, at column: Int) { write(column, value.map { .double($0) } ?? .null) }

    func string(at column: Int) -> String { read(column) { try $0.string(key, column: $1) ?? "" } }
    func setString(_ value: String, at column: Int) { write(column, .string(value)) }
    func optionalString(at column: Int) -> String? { read(column) { try $0.string(key, column: $1) } }
    func setOptionalString(_ value: String?, at column: Int) { write(column, value.map { .string($0) } ?? .null) }

    func data(at column: Int) -> Data { read(column) { Data(try $0.binary(key, column: $1) ?? []) } }
    func setData(_ value: Data, at column: Int) { write(column, .binary(Array(value))) }
    func optionalData(at column: Int) -> Data? { read(column) { try $0.binary(key, column: $1).map { Data($0) } } }
    func setOptionalData(_ value: Data?, at column: Int) { write(column, value.map { .binary(Array($0)) } ?? .null) }

    func date(at column: Int) -> Date {
        read(column) { ValueConversion.date(try $0.timestamp(key, column: $1) ?? 0) }
    }
    func setDate(_ value: Date, at column: Int) { write(column, .timestamp(ValueConversion.timestamp(value))) }
    func optionalDate(at column: Int) -> Date? {
        read(column) { try $0.timestamp(key, column: $1).map(ValueConversion.date) }
    }
    func setOptionalDate(_ value: Date?, at column: Int) {
        write(column, value.map { .timestamp(ValueConversion.timestamp($0)) } ?? .null)
    }

    func uuid(at column: Int) -> UUID { read(column) { try $0.uuid(key, column: $1) ?? ManagedRow.zeroUUID } }
    func setUUID(_ value: UUID, at column: Int) { write(column, .uuid(value)) }
    func optionalUUID(at column: Int) -> UUID? { read(column) { try $0.uuid(key, column: $1) } }
    func setOptionalUUID(_ value: UUID?, at column: Int) { write(column, value.map { .uuid($0) } ?? .null) }

    /// The UUID a non-optional uuid column reads as when it holds none (never written by Strata itself).
    static let zeroUUID = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))

    // MARK: Links

    func link<Target: Object>(at column: Int, as type: Target.Type) -> Target? {
        guard let target = model.linkTargets[column] else { return nil }
        let linked: ObjectKey? = read(column) { try $0.link(key, column: $1) }
        return linked.map { database.object(of: target, key: $0) as? Target } ?? nil
    }

    func setLink(_ target: Object?, at column: Int) {
        database.requireWrite("set \(model.name).\(propertyName(column))")
        guard let target else { return write(column, .null) }
        guard let linked = database.perform({ try database.keyForLink(to: target) }) else { return }
        write(column, .link(linked))
    }

    func linkedAccessor(at column: Int) -> (any ManagedObjectAccessor)? {
        guard let target = model.linkTargets[column] else { return nil }
        let linked: ObjectKey? = read(column) { try $0.link(key, column: $1) }
        return linked.map { ManagedRow(database: database, model: target, key: $0) }
    }

    // MARK: Lists and linking objects

    func list<Element: ListElement>(at column: Int, of type: Element.Type) -> List<Element> {
        List(managedBy: ManagedListStorage<Element>(row: self, column: column))
    }

    func setList<Element: ListElement>(_ elements: List<Element>, at column: Int) {
        let values = Array(elements)  // copied first: `elements` may be this very list
        let storage = ManagedListStorage<Element>(row: self, column: column)
        storage.removeAll()
        for value in values { storage.insert(value, at: storage.count) }
    }

    func linkedAccessors(at column: Int) -> [any ManagedObjectAccessor] {
        guard let target = model.linkTargets[column] else { return [] }
        let values: [StorageValue] = read(column) { try $0.list(key, column: $1) }
        return values.compactMap { value in
            guard case .link(let linked) = value else { return nil }
            return ManagedRow(database: database, model: target, key: linked)
        }
    }

    func linkingObjects<Source: Object>(_ type: Source.Type, through property: String) -> LinkingObjects<Source> {
        guard let source = database.schema.model(for: type), let column = source.column(named: property) else {
            return LinkingObjects(fromType: type, property: property)
        }
        // A direct inverse (Loan.book → Book), or one through a list (Person.loans → Loan.book → Book).
        var intermediate: (model: ModelBinding, column: Int)?
        if let middle = source.linkTargets[column], middle !== model {
            let declared = model.description.linkingObjects.first {
                $0.type == .linkingObjects(model: source.name, property: property)
            }
            let path = declared.flatMap {
                database.configuration.schema.history.current.linkingObjectsKeyPath(of: $0, in: model.name)
            }
            if let path, path.count == 2, let hop = middle.column(named: path[1]) {
                intermediate = (middle, hop)
            }
        }
        return LinkingObjects(
            property: property,
            managedBy: ManagedLinkingObjects<Source>(
                target: self, source: source, sourceColumn: column, intermediate: intermediate))
    }
}
