import StrataStorage

/// Lazy, live query results: the objects of one model that a query selects, in its order.
///
/// Nothing is read until you ask for a count or an element; the keys are then computed once and kept until the
/// database changes (a commit, a refresh, any change inside a write), so results always reflect the version the
/// database reads, including the current write's own changes. `count` and `isEmpty` on a filtered table scan
/// count rows cluster by cluster without building the list of keys.
///
/// `count`, iteration, subscripts and the aggregates cannot throw: on a damaged file they stop the program with a
/// message naming the file and `strata verify FILE`. ``fetch()``, ``fetchCount()``, ``fetchFirst()`` and the
/// `fetch` aggregates answer the same but throw the damage as a `StrataError`.
///
/// ```swift
/// let adults = try db.objects(Member.self).filter("age >= %@", 18).sorted(byKeyPath: "fullName")
/// adults.count; adults.first; adults[3]; adults.explain
/// ```
public struct Results<Element: Object> {
    let database: Database
    let model: ModelBinding
    let query: ObjectQuery
    let cache = KeyCache()

    init(database: Database, model: ModelBinding, query: ObjectQuery) {
        self.database = database
        self.model = model
        self.query = query
    }

    /// The keys the query selects now, computed at most once per database change.
    var keys: [ObjectKey] {
        // An unknown sort or distinct key path (`keyPathError`): no objects, rather than a stop.
        if query.failure != nil { return [] }
        return database.withAccess("reading Results<\(Element.self)>") { keysWithAccess() }
    }

    /// ``keys`` for a caller that already holds the database's access (`Database.withAccess`): an iteration
    /// checks the confinement once for the keys and its table together.
    func keysWithAccess() -> [ObjectKey] {
        cache.keys(of: query, in: database, model: model, reading: Element.self)
    }

    /// Whether the results belong to a frozen snapshot.
    public var isFrozen: Bool { database.isFrozen }

    /// How the query runs: the index it looks up or the columns it scans (and what it checks object by object),
    /// then distinct and sort. For example `index Person.email == "a"` or
    /// `scan Person (age > 50 AND hired == true)`.
    public var explain: String {
        database.withAccess("explaining Results<\(Element.self)>") {
            do {
                return try query.explain(in: database, model: model)
            } catch {
                return "cannot plan the query: \(error)"
            }
        }
    }

    /// The same database and model with another query, taken over (`consuming`): `filter`, `sorted` and the
    /// rest hand it their own copy, which a borrowed parameter copied once more (every field of the query
    /// retained, then released with the caller's copy).
    func with(_ query: consuming ObjectQuery) -> Results<Element> {
        Results(database: database, model: model, query: query)
    }
}

extension Results: RandomAccessCollection {
    /// Always `0`.
    public var startIndex: Int { 0 }

    /// The number of objects.
    ///
    /// - Complexity: O(1) once evaluated; the first access after a change evaluates the query.
    public var endIndex: Int {
        if ObservationProbe.isTracking(database.observationProbe) { track(\.observedElements) }
        return keys.count
    }

    /// The number of objects; counted by a column scan (no keys, no objects) when the keys are not cached yet.
    public var count: Int {
        if ObservationProbe.isTracking(database.observationProbe) { track(\.count) }
        if query.failure != nil { return 0 }
        return database.withAccess("counting Results<\(Element.self)>") {
            if let cached = cache.cachedKeys(stamp: database.changeStamp) { return cached.count }
            do {
                return try query.count(in: database, model: model)
            } catch {
                database.fatal(error, while: "counting Results<\(Element.self)>")
            }
        }
    }

    /// Whether the query selects no object.
    public var isEmpty: Bool { count == 0 }

    /// The object at `index`, which must be in `0..<count`.
    public subscript(index: Int) -> Element {
        let keys = keys
        precondition(index >= 0 && index < keys.count, "Results index \(index) is out of range (count \(keys.count))")
        guard let object = database.object(of: model, key: keys[index]) as? Element else {
            preconditionFailure("Strata: Results<\(Element.self)> holds objects of \(model.name)")
        }
        return object
    }
}

/// The keys of one `Results`, kept until the database changes. A class so that copies of a `Results` share it.
final class KeyCache {
    private var stamp: UInt64?
    private var cached: [ObjectKey] = []
    /// The results' Swift observation tracking, made by their first read inside `withObservationTracking`.
    var tracking: ResultsTracking?

    /// The keys `query` selects in `database` now, computed at most once per change stamp; a failure stops the
    /// program naming `Results<element>`. Call inside ``Database/withAccess(_:_:)``.
    ///
    /// Not generic (unlike the `Results` it serves): a `for` loop over results from another module runs the
    /// generic code unspecialized, and every closure or tuple of `Results<Element>` there looks its type's
    /// metadata up at run time, once per loop.
    func keys(of query: ObjectQuery, in database: Database, model: ModelBinding, reading element: Any.Type) -> [ObjectKey] {
        if query.failureBox != nil { return [] }
        let current = database.changeStamp
        if stamp == current { return cached }
        do {
            cached = try query.evaluate(in: database, model: model)
        } catch {
            database.fatal(error, while: "evaluating Results<\(element)>")
        }
        stamp = current
        return cached
    }

    /// What an iteration of results starts from, under one confinement check: ``keys(of:in:model:reading:)``
    /// and, when there are any, the model's table; or, for keys not cached at the current stamp of a query that a
    /// column scan answers alone, an ``IncrementalScan`` the loop runs as it goes (``scanMore(_:in:stamp:reading:)``),
    /// with its table.
    ///
    /// Results of a lone `property == %@` whose keys are not cached at the current stamp are looked up straight
    /// away (``ObjectQuery/equalityLookup(in:model:)``), with the first key inline and the table the lookup read,
    /// and not kept: a `filter("name == %@", name)` in a loop is iterated once, and an index lookup is what a
    /// second iteration would cost.
    func iteration(
        of query: ObjectQuery, in database: Database, model: ModelBinding, reading element: Any.Type
    ) -> (keys: FoundKeys, scan: IncrementalScan?, table: Table?) {
        database.confinement.check("reading Results<\(element)>")
        guard let frozenLock = database.frozenLock else { return keysAndTable() }
        frozenLock.lock()
        defer { frozenLock.unlock() }
        return keysAndTable()

        func keysAndTable() -> (keys: FoundKeys, scan: IncrementalScan?, table: Table?) {
            let current = database.changeStamp
            if stamp != current, query.failureBox == nil {
                do {
                    if query.planSlot.equalTo != nil, let (keys, table) = try query.equalityLookup(in: database, model: model) {
                        return (keys, nil, table)
                    }
                    switch try query.iterationStart(in: database, model: model) {
                    case .scan(let scan)?: return (FoundKeys(), scan, scan.table)
                    case .keys(let keys)?:
                        cached = keys
                        stamp = current
                    case nil: break
                    }
                } catch {
                    database.fatal(error, while: "evaluating Results<\(element)>")
                }
            }
            let keys = keys(of: query, in: database, model: model, reading: element)
            return (FoundKeys(keys), nil, keys.isEmpty ? nil : try? database.table(for: model))
        }
    }

    /// Runs `scan` (started at change stamp `started`) on to its next matches; `false` once it has none left, when
    /// its keys (every match) are kept as the results' keys if the database is still at `started`. A failure
    /// stops the program, as evaluating the keys at once does.
    func scanMore(_ scan: IncrementalScan, in database: Database, stamp started: UInt64, reading element: Any.Type) -> Bool {
        database.confinement.check("reading Results<\(element)>")
        do {
            if try scan.scanMore() { return true }
        } catch {
            database.fatal(error, while: "evaluating Results<\(element)>")
        }
        if scan.isComplete, database.changeStamp == started {
            cached = scan.keys
            stamp = started
        }
        return false
    }

    /// Takes keys computed elsewhere (a notification's change set) as those of `current`.
    func seed(_ keys: [ObjectKey], stamp current: UInt64) {
        cached = keys
        stamp = current
    }

    /// The keys if they were computed for `current`, else `nil`.
    func cachedKeys(stamp current: UInt64) -> [ObjectKey]? {
        stamp == current ? cached : nil
    }
}
