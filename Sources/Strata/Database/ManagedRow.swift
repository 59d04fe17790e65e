import StrataStorage

/// The store reference behind one managed object: the database, the model and the object's key. Every generated
/// property reads and writes its column through it, straight from and to the store (the typed accessors are
/// ``ObjectRow``'s, over this row's reads and writes).
///
/// Failures are the database's: a failed read stops the program with a message naming the file, the model, the
/// object and the property, telling a deleted object (a programming error) from a damaged file (which it says to
/// check with `strata verify FILE`); a failed change dooms the write, which `write {}` then throws.
final class ManagedRow: ObjectRow {
    let database: Database
    /// The model, one of `database.schema`'s (every row is made with its database's own binding: a row for another
    /// database looks its model up there, `Database.model(like:)`), so the database this row holds keeps it alive
    /// and the row need not: not counted, as a results loop makes a row per object and releases it right after.
    unowned(unsafe) let model: ModelBinding
    /// The object's key: fixed for the row's life, except that a results loop may move a row that nothing but the
    /// loop holds any more to its next object (``reuse(for:table:stamp:)``). Not checked for exclusive access at
    /// run time, for the reason `table` gives.
    @exclusivity(unchecked) private(set) var key: ObjectKey
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
    /// The object's Swift observation tracking, made by its first read inside `withObservationTracking`.
    private var tracking: RowTracking?

    /// Whether the object was read inside observation tracking (its registrar and observations exist).
    var isTracked: Bool { tracking != nil }

    init(database: Database, model: ModelBinding, key: ObjectKey) {
        self.database = database
        self.model = model
        self.key = key
        tableStamp = 0
    }

    /// A row whose model's table `table` was read at the database's change stamp `stamp`.
    convenience init(database: Database, model: ModelBinding, key: ObjectKey, table: Table?, stamp: UInt64) {
        self.init(database: database, model: model, key: key, table: table.map(Unmanaged.passUnretained), stamp: stamp)
    }

    /// A row whose model's table `table` (held by the database's catalog while its stamp is `stamp`) was read at
    /// the database's change stamp `stamp`.
    init(database: Database, model: ModelBinding, key: ObjectKey, table: Unmanaged<Table>?, stamp: UInt64) {
        self.database = database
        self.model = model
        self.key = key
        self.table = table
        tableStamp = stamp
    }

    /// Moves the row to object `key` (whose model's table `table` was read at the database's change stamp
    /// `stamp`), as if it were a new row made for it: what a results loop does with the row of the object it
    /// handed out before when nothing else holds that row (``isReusable``), instead of allocating another.
    func reuse(for key: ObjectKey, table: Unmanaged<Table>?, stamp: UInt64) {
        self.key = key
        self.table = table
        tableStamp = stamp
    }

    /// Whether the row may move to another object: no observation tracking was made for it (its registrar
    /// names this row, and its observations hold it weakly). The caller also checks that it holds the only
    /// reference (`isKnownUniquelyReferenced`), so no object, list, observation or reference of any kind can see
    /// the move: strong references would make the row shared, and nothing in Strata refers to a row weakly
    /// or without retaining it other than through its tracking.
    var isReusable: Bool { tracking == nil }

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

    // MARK: Reading and writing columns

    var layout: ModelLayout { model }

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
    func read<T>(_ column: Int, _ body: (Table, ColumnKey) throws -> T?) -> T? {
        // One load and one branch, never taken until a read inside tracking armed the database; the probe is out
        // of line so that it adds no code (and no register pressure) to every property read.
        if database.observationArmed { trackIfObserved(column) }
        if database.frozenLock == nil, tableStamp == database.changeStamp, let table,
            database.confinement.isCurrentThreadAllowed
        {
            do {
                // The table lent for the read, without a retain: the database's catalog holds it (see `table`).
                return try table._withUnsafeGuaranteedRef { try body($0, columnKey(column)) }
            } catch {
                // Reported by the checked path, which reads again and tells a deleted object from damage.
            }
        }
        return checkedRead(column, body)
    }

    /// The key of the model's column `column`, read through the model lent without a retain (the database holds
    /// it, see `model`): `model.columns[column]` retained and released the array on every property read.
    @inline(__always)
    private func columnKey(_ column: Int) -> ColumnKey {
        Unmanaged.passUnretained(model)._withUnsafeGuaranteedRef { $0.columns[column] }
    }

    /// ``read(_:_:)`` with every check: the thread (or the frozen lock), the table's version, and on failure
    /// whether the object was deleted.
    private func checkedRead<T>(_ column: Int, _ body: (Table, ColumnKey) throws -> T?) -> T? {
        database.withAccess("reading \(describe(column))") {
            do {
                return try body(try currentTable(), model.columns[column])
            } catch {
                // Damage the store found (a checksum, a broken node) is damage, whatever the tree then says about
                // the object; only a plain "no such object" from an intact read is a deleted object.
                if !Database.isDamage(error), let table = try? database.table(for: model),
                    (try? table.contains(key)) == false
                {
                    // fatalError, not preconditionFailure: the message must survive release builds.
                    fatalError(
                        "Strata: reading \(describe(column)) of \(model.name) object \(key.rawValue) in "
                            + "'\(database.store.path)', which the file does not hold: the object was deleted or its "
                            + "write was cancelled (check isInvalidated first). If it was not, the file is damaged: "
                            + "run `strata verify \(database.store.path)`")
                }
                database.fatal(error, while: "reading \(describe(column)) of \(model.name) object \(key.rawValue)")
            }
        }
    }

    /// In a database armed for observation, asks whether this read runs inside Swift's observation tracking and
    /// records it if so: the cold half of every property read, out of line.
    @inline(never)
    private func trackIfObserved(_ column: Int) {
        if ObservationProbe.isTracking(database.observationProbe) { track(column) }
    }

    /// Records a read of `column` inside Swift's observation tracking (see ``RowTracking``).
    @inline(never)
    private func track(_ column: Int) {
        database.confinement.check("reading \(describe(column))")
        let tracking = self.tracking ?? RowTracking()
        self.tracking = tracking
        tracking.access(self, column: column)
    }

    /// Reads the list in column `column` with `body`, stopping with a message on a failure.
    func readList<T>(_ column: Int, _ body: (Table, ColumnKey) throws -> T?) -> T? {
        if database.observationArmed { trackIfObserved(column) }
        return database.withAccess("reading the list \(describe(column))") {
            do {
                return try body(try database.table(for: model), model.columns[column])
            } catch {
                database.fatal(
                    error, while: "reading the list \(describe(column)) of \(model.name) object \(key.rawValue)")
            }
        }
    }

    /// The database's change stamp, which moves with every change, refresh and write: a list read at an unchanged
    /// stamp still holds what was read.
    var listStamp: UInt64? { database.changeStamp }

    /// Writes `value` to column `column` in the current write transaction; a failure dooms the write.
    func write(_ column: Int, _ value: () throws -> StorageValue) {
        database.requireWrite("set \(describe(column))")
        database.perform {
            let value = try value()
            let table = try database.table(for: model)
            if column == model.primaryKeyColumn, try table.value(key, column: model.columns[column]) != value {
                throw StrataError.invalidArgument(
                    "the primary key \(describe(column)) cannot change once the object is stored; "
                        + "create a new object and delete this one instead")
            }
            try table.set(key, column: model.columns[column], to: value)
        }
    }

    /// Changes the list in column `column` in the current write transaction; a failure dooms the write.
    func changeList(_ column: Int, _ body: (Table, ColumnKey) throws -> Void) {
        database.requireWrite("change the list \(describe(column))")
        database.perform { try body(try database.table(for: model), model.columns[column]) }
    }

    /// The key of `object`, added to the database first when it is unmanaged.
    func linkKey(to object: ObjectBase, column: Int) throws -> ObjectKey {
        try database.keyForLink(to: object)
    }

    func linkedRow(_ column: Int, key: ObjectKey) -> ManagedRow? {
        model.linkTargets[column].map { ManagedRow(database: database, model: $0, key: key) }
    }

    func linkedClass(_ column: Int) -> ObjectBase.Type? { model.linkTargets[column]?.type }

    func mixedLink(to object: Object, column: Int) throws -> StorageValue {
        let key = try database.keyForLink(to: object)
        return .typedLink(try database.model(of: object).tableKey, key)
    }

    func mixedObject(table: TableKey, key: ObjectKey) -> Object? {
        database.schema.model(forTable: table).flatMap { database.object(of: $0, key: key) as? Object }
    }

    func unstorable(_ detail: String) -> Error { StrataError.invalidArgument(detail) }

    /// Stops the program: the file does not hold what its schema says.
    func reportMismatch(_ detail: String, in column: Int) {
        database.fatal(
            StrataError.schemaMismatch(path: database.store.path, detail: detail),
            while: "reading \(describe(column)) of \(model.name) object \(key.rawValue)")
    }

    // MARK: Linking objects

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

/// The store behind a managed object's `List`: one list column of one object of a database.
typealias ManagedListStorage<Element: ListElement> = RowList<ManagedRow, Element>

/// The store behind a managed object's `MutableSet`: one set column of one object of a database.
typealias ManagedSetStorage<Element: ListElement> = RowSet<ManagedRow, Element>

/// The store behind a managed object's `Map`: one map column of one object of a database.
typealias ManagedMapStorage<Value: ListElement> = RowMap<ManagedRow, Value>
