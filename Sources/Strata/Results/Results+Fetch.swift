import StrataStorage

/// The throwing reads of ``Results``: the same answers as `count`, iteration, `first` and the aggregates, but a
/// damaged file (or any other storage failure) is thrown as a `StrataError` instead of stopping the program.
///
/// The non-throwing reads (`count`, `for object in results`, `results[i]`, `min`/`max`/`sum`/`average`) are the
/// Realm-shaped API: they cannot report a failure, so on a damaged file they stop the program with a message
/// naming the file, what was read and `strata verify FILE`. Code that must survive a damaged file reads through
/// these instead (or runs ``Database/verify()`` right after opening).
///
/// ```swift
/// let adults = try db.objects(Member.self).filter("age >= 18")
/// let members = try adults.fetch()          // every object, each of its clusters read and checked
/// let total: Int = try adults.fetchSum(ofProperty: "age")
/// ```
extension Results {
    /// The objects the query selects now, in order, as an array.
    ///
    /// Evaluates the query and reads the cluster of every selected object (the pages its inline properties are
    /// read from), so damage there is thrown here rather than found by a later property read. Long values (big
    /// strings and data kept in their own nodes) are read when their property is.
    ///
    /// - Throws: `StrataError.corruptFile` naming the file and the damaged node; any other storage error.
    /// - Complexity: O(*n*) for the query, plus O(*k* log *n*) to check the *k* selected objects.
    public func fetch() throws -> [Element] {
        try database.withAccess("fetching Results<\(Element.self)>") {
            let keys = try evaluatedKeys()
            let table = try database.storageRead { try database.table(for: model) }
            let stamp = database.changeStamp
            var objects: [Element] = []
            objects.reserveCapacity(keys.count)
            for key in keys { objects.append(try checkedObject(key, in: table, stamp: stamp)) }
            return objects
        }
    }

    /// The number of objects the query selects now, read the throwing way.
    ///
    /// Unlike `count` (which counts a whole table from its tree's root), this evaluates the query and reads the
    /// cluster of every object it counts (as ``fetch()`` does, without making the objects), so a damaged one is
    /// thrown here.
    ///
    /// - Throws: `StrataError.corruptFile` naming the file and the damaged node; any other storage error.
    public func fetchCount() throws -> Int {
        try database.withAccess("counting Results<\(Element.self)>") {
            let keys = try evaluatedKeys()
            let table = try database.storageRead { try database.table(for: model) }
            for key in keys { try checkPresent(key, in: table) }
            return keys.count
        }
    }

    /// The first object the query selects now, or `nil`, read the throwing way (see ``fetch()``).
    public func fetchFirst() throws -> Element? {
        try database.withAccess("reading the first of Results<\(Element.self)>") {
            guard let key = try evaluatedKeys().first else { return nil }
            let table = try database.storageRead { try database.table(for: model) }
            return try checkedObject(key, in: table, stamp: database.changeStamp)
        }
    }

    /// ``min(ofProperty:)``, throwing a storage failure instead of stopping the program.
    ///
    /// A property that is not a number or a date (or goes through a list) is a programming error and stops the
    /// program, as in ``min(ofProperty:)``.
    public func fetchMin<T: AggregatableValue>(ofProperty property: String) throws -> T? {
        try checkedAggregate(.min, property).map(T.init(aggregate:))
    }

    /// ``max(ofProperty:)``, throwing a storage failure instead of stopping the program.
    public func fetchMax<T: AggregatableValue>(ofProperty property: String) throws -> T? {
        try checkedAggregate(.max, property).map(T.init(aggregate:))
    }

    /// ``sum(ofProperty:)``, throwing a storage failure instead of stopping the program.
    public func fetchSum<T: AggregatableValue>(ofProperty property: String) throws -> T {
        T(aggregate: try checkedAggregate(.sum, property) ?? .int(0))
    }

    /// ``average(ofProperty:)``, throwing a storage failure instead of stopping the program.
    public func fetchAverage(ofProperty property: String) throws -> Double? {
        try checkedAggregate(.avg, property)?.number
    }

    /// The object `key` of `table` (read at `stamp`), after reading its cluster (see ``checkPresent(_:in:)``).
    private func checkedObject(_ key: ObjectKey, in table: Table, stamp: UInt64) throws -> Element {
        try checkPresent(key, in: table)
        let row = ManagedRow(database: database, model: model, key: key, table: table, stamp: stamp)
        guard let object = model.type.init(managedBy: row) as? Element else {
            preconditionFailure("Strata: Results<\(Element.self)> holds objects of \(model.name)")
        }
        return object
    }

    /// Reads the cluster of object `key` of `table`; a key the query selected that the table does not hold is
    /// damage too (an index or a list pointing at nothing).
    private func checkPresent(_ key: ObjectKey, in table: Table) throws {
        guard try database.storageRead({ try table.contains(key) }) else {
            throw StrataError.corruptFile(
                path: database.store.path, location: "table '\(model.name)'",
                detail: "the query selected object \(key.rawValue), which the table does not hold")
        }
    }

    /// The keys the query selects now, computed at most once per database change; a failure is thrown (naming the
    /// file) and leaves the cache as it was. Call inside ``Database/withAccess(_:_:)``.
    func evaluatedKeys() throws -> [ObjectKey] {
        let stamp = database.changeStamp
        if let cached = cache.cachedKeys(stamp: stamp) { return cached }
        let keys = try database.storageRead { try query.evaluate(in: database, model: model) }
        cache.seed(keys, stamp: stamp)
        return keys
    }
}
