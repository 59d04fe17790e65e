import StrataStorage

/// Where a query's objects come from, before any filter. Two sources are equal when they read the same objects
/// (a model binding counts by its table).
enum QuerySource: Hashable {
    /// Every object of the model's table, in key order.
    case table
    /// The objects of one object's list of links, in list order.
    case list(owner: ModelBinding, key: ObjectKey, column: Int)
    /// The objects whose link or list (`column` of `source`) points to one object of `target`; with `hop`, an
    /// inverse declared through a list (`Book.borrowers: { linkingObjects: Person.loans }`): the objects whose
    /// link or list points to an object of the hop's model that links to the target.
    case linkingObjects(target: ModelBinding, key: ObjectKey, source: ModelBinding, column: Int, hop: LinkHop?)

    static func == (left: QuerySource, right: QuerySource) -> Bool {
        switch (left, right) {
        case (.table, .table): return true
        case (.list(let owner, let key, let column), .list(let otherOwner, let otherKey, let otherColumn)):
            return key == otherKey && column == otherColumn && owner.tableKey == otherOwner.tableKey
        case (.linkingObjects(let target, let key, let source, let column, let hop),
              .linkingObjects(let otherTarget, let otherKey, let otherSource, let otherColumn, let otherHop)):
            return key == otherKey && column == otherColumn && target.tableKey == otherTarget.tableKey
                && source.tableKey == otherSource.tableKey && hop == otherHop
        default: return false
        }
    }

    func hash(into hasher: inout Hasher) {
        switch self {
        case .table:
            hasher.combine(0)
        case .list(let owner, let key, let column):
            hasher.combine(1)
            hasher.combine(owner.tableKey)
            hasher.combine(key)
            hasher.combine(column)
        case .linkingObjects(let target, let key, let source, let column, let hop):
            hasher.combine(2)
            hasher.combine(target.tableKey)
            hasher.combine(key)
            hasher.combine(source.tableKey)
            hasher.combine(column)
            hasher.combine(hop)
        }
    }
}

/// The middle link of an inverse declared through a list: column `column` of `model` (`Loan.book` for
/// `Book.borrowers: { linkingObjects: Person.loans }`). Two hops are equal when they name the same table's column.
struct LinkHop: Hashable {
    let model: ModelBinding
    let column: Int

    static func == (left: LinkHop, right: LinkHop) -> Bool {
        left.column == right.column && left.model.tableKey == right.model.tableKey
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(model.tableKey)
        hasher.combine(column)
    }
}

/// One object being sorted: where it was before the sort (for ties), its key and its sort values.
struct SortRow {
    var position: Int
    var key: ObjectKey
    var values: [QueryScalar?]
}

/// One resolved sort key.
struct SortKey: Hashable {
    var path: BoundPath
    var ascending: Bool
    /// How strings compare (binary unless the descriptor asked for another collation).
    var collation: SortCollation = .binary

    /// `value` as this key compares it: a string replaced by its collation's sort key.
    func collated(_ value: QueryScalar?) -> QueryScalar? {
        guard collation != .binary, case .string(let text)? = value else { return value }
        return .string(collation.sortKey(text))
    }

    /// Orders two objects' sort values (``ObjectEvaluator/sortValue(of:from:)``) ascending: a nil link (`nil`)
    /// after every value, then ``QueryScalar/sortOrder(_:_:)``.
    static func order(_ left: QueryScalar?, _ right: QueryScalar?) -> Int {
        switch (left, right) {
        case (nil, nil): return 0
        case (nil, _): return 1
        case (_, nil): return -1
        case (let left?, let right?): return QueryScalar.sortOrder(left, right)
        }
    }
}

/// What a `Results` selects: a source, then filters (all must hold), ordering and distinctness (applied in that
/// order).
///
/// Two equal queries select the same objects in the same order (see `ResultsIdentity`, which shares one
/// computed change between observers of equal queries).
struct ObjectQuery: Hashable {
    var source: QuerySource = .table
    /// The filters, all of which must hold: built from ``loneEquality`` when the query has one (each read builds
    /// the predicate again; the equality path of ``evaluate(in:model:)`` reads none). Setting them drops it.
    var filters: [BoundPredicate] {
        get {
            if let loneEquality { return [loneEquality.predicate] }
            return givenFilters
        }
        set {
            givenFilters = newValue
            loneEquality = nil
        }
    }
    /// The filters given as bound predicates (see ``filters``).
    private var givenFilters: [BoundPredicate] = []
    /// The query's one filter when it is a lone `stringProperty == %@` from a cached shape, kept unbuilt (see
    /// ``LoneEquality``); then ``givenFilters`` is empty.
    private(set) var loneEquality: LoneEquality?
    var sortKeys: [SortKey] = []
    var distinctPaths: [BoundPath] = []
    /// At most this many objects, taken after filters, distinct and sort (`Results.prefix(_:)`); `nil` for all.
    var limit: Int?
    /// The first error of a `sorted`/`distinct` call that named a key path the model does not have: evaluating
    /// the query throws it (see `Results.keyPathError`).
    var failure: StrataError? {
        get { failureBox?.error }
        set { failureBox = newValue.map(FailureBox.error) }
    }
    /// ``failure``, boxed: nearly every query has none, and a query is copied into each `Results` made from it,
    /// so an error kept inline (several strings wide) would be copied and destroyed with every `filter`.
    var failureBox: FailureBox?
    /// The cached plan of the query's one filter, when it came from a predicate string whose shape is cached
    /// (set by `Results.filter`, cleared by any other filter; see ``CachedPlan``).
    var planSlot = PlanSlot.none

    /// A query of every object of `source`.
    init(source: QuerySource = .table) {
        self.source = source
    }

    /// How many filters the query has, without building a ``loneEquality``'s predicate.
    var filterCount: Int { loneEquality == nil ? givenFilters.count : 1 }

    /// Makes `equality` the query's one filter, kept unbuilt; the query must have no filter yet.
    mutating func setLoneEquality(_ equality: LoneEquality) {
        precondition(filterCount == 0, "Strata: a lone equality must be a query's only filter")
        loneEquality = equality
    }

    static func == (left: ObjectQuery, right: ObjectQuery) -> Bool {
        left.source == right.source && left.filters == right.filters && left.sortKeys == right.sortKeys
            && left.distinctPaths == right.distinctPaths && left.limit == right.limit
            && left.failureBox == right.failureBox
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(source)
        hasher.combine(filters)
        hasher.combine(sortKeys)
        hasher.combine(distinctPaths)
        hasher.combine(limit)
        hasher.combine(failureBox)
    }

    /// A key-path error in a box of its own (see ``failure``).
    indirect enum FailureBox: Hashable {
        case error(StrataError)

        var error: StrataError {
            switch self {
            case .error(let error): return error
            }
        }
    }

    /// The filters as one predicate, or `nil` when there are none.
    var predicate: BoundPredicate? {
        if let loneEquality { return loneEquality.predicate }
        switch givenFilters.count {
        case 0: return nil
        case 1: return givenFilters[0]
        default: return .and(givenFilters)
        }
    }

    /// The keys the query selects, in order.
    func evaluate(in database: any QueryTables, model: ModelBinding) throws -> [ObjectKey] {
        if let keys = try equalityKeys(in: database, model: model) { return keys }
        if let failure { throw failure }
        if let keys = try keysFromIndexEnd(in: database, model: model) { return keys }
        // Made only when an object is read one by one: a lookup the index answers alone reads none.
        var evaluator: ObjectEvaluator?
        // Unsorted and without distinct, a limit stops the filtering after that many objects.
        let stop = sortKeys.isEmpty && distinctPaths.isEmpty ? limit : nil
        var keys = try filteredKeys(in: database, model: model, evaluator: &evaluator, atMost: stop)
        guard !distinctPaths.isEmpty || !sortKeys.isEmpty else { return keys }
        let reader = evaluator ?? ObjectEvaluator(database: database)
        if !distinctPaths.isEmpty { keys = try distinct(keys, reader, atMost: sortKeys.isEmpty ? limit : nil) }
        if !sortKeys.isEmpty { keys = try sort(keys, reader, limit: limit) }
        return keys
    }

    /// How many objects the query selects, without building the list of keys when a scan can count rows.
    func count(in database: any QueryTables, model: ModelBinding) throws -> Int {
        if let failure { throw failure }
        if let limit {
            // Read from one end of an index (the newest matches of a word): as many as evaluating gives.
            if let keys = try keysFromIndexEnd(in: database, model: model) { return keys.count }
            // The order does not change how many there are: the unsorted keys, which stop at the limit.
            var unsorted = self
            unsorted.sortKeys = []
            return Swift.min(limit, try unsorted.evaluate(in: database, model: model).count)
        }
        let evaluator = ObjectEvaluator(database: database)
        if case .table = source, distinctPaths.isEmpty, predicate == nil {
            return try evaluator.table(model).count()
        }
        guard case .table = source, distinctPaths.isEmpty, let predicate else {
            return try evaluate(in: database, model: model).count
        }
        let table = try evaluator.table(model)
        // A lookup that decides alone is planned as one whatever it matches: counted by the index where it can.
        if let (choice, rest) = bestIndex(for: predicate, model: model, table: table), rest == nil,
            let counted = try choice.matchCount(in: table)
        {
            return counted
        }
        let scan: ColumnScan
        switch try plan(predicate, table: table, model: model) {
        case .index(_, let keys, nil): return keys.count
        case .index(_, let keys, let rest?): return try keys.filter { try evaluator.matches(rest, key: $0) }.count
        case .scan(let compiled, _): scan = compiled
        }
        var total = 0
        try table.forEachCluster { cluster in
            total += try scan.rows(of: cluster, evaluator: evaluator).setCount
            return true
        }
        return total
    }

    // MARK: - Planning

    /// How a table query runs.
    enum Plan {
        /// An index lookup's keys (in key order), and what is left to check on each.
        case index(IndexChoice, keys: [ObjectKey], rest: BoundPredicate?)
        /// A column scan; `rejected` says which index lookup was tried and why the scan won.
        case scan(ColumnScan, rejected: String?)
    }

    /// An index lookup when one applies and narrows the table enough; otherwise a column scan.
    ///
    /// Checking the other terms on an index's candidates costs a key lookup per object and term, roughly a
    /// hundred times a column scan's cost per row; so when those terms can run on columns and the lookup returns
    /// more than 1/64 of the table (and more than 32 objects), as a bool, a wide range or a short prefix does, the
    /// scan wins. An equality or prefix lookup stops reading the index as soon as it passes that limit.
    func plan(_ predicate: BoundPredicate, table: Table, model: ModelBinding) throws -> Plan {
        // The scan is compiled only when it may run: a lookup in a loop plans on every call.
        guard let (index, rest) = bestIndex(for: predicate, model: model, table: table) else {
            return .scan(ColumnScan(predicate), rejected: nil)
        }
        guard let rest, ColumnScan(rest).isColumnOnly else {
            return .index(index, keys: try index.keys(in: table), rest: rest)
        }
        let total = try table.count()
        let limit = Swift.max(total / 64, 32)
        guard let keys = try index.keys(in: table, atMost: limit) else {
            let reason = "\(index.text(in: predicate, model: model)): it matches more than \(limit) of \(total) objects"
            return .scan(ColumnScan(predicate), rejected: reason)
        }
        return .index(index, keys: keys, rest: rest)
    }

    /// The keys of a query that is one `property == value` on the model's table, rebound from a cached shape
    /// whose plan looks it up in an index (``PlanSlot/equalTo``): that lookup's keys, with no predicate read and
    /// nothing else planned, the path of a `filter("name == %@", name)` in a loop. `nil` for any other query, and
    /// when the plan has no index for the table's indexes as they are (it is then planned in full, which
    /// remembers the plan for the next call).
    private func equalityKeys(in database: any QueryTables, model: ModelBinding) throws -> [ObjectKey]? {
        try equalityLookup(in: database, model: model)?.keys.array
    }

    /// ``equalityKeys(in:model:)`` with the first key inline (``FoundKeys``), and the table it read: what a loop
    /// over the results starts from, with no array for a lookup that finds one object. `nil` as
    /// ``equalityKeys(in:model:)`` gives it.
    func equalityLookup(in database: any QueryTables, model: ModelBinding) throws -> (keys: FoundKeys, table: Table)? {
        guard let value = planSlot.equalTo, let plan = planSlot.plan, filterCount == 1, case .table = source,
            sortKeys.isEmpty, distinctPaths.isEmpty, limit == nil, failureBox == nil
        else { return nil }
        let table = try database.table(for: model)
        guard let index = plan.equalityIndex(table: table) else { return nil }
        let found = try table.lookupFound(index.key, equalTo: value)
        // Several objects: in ascending key order, each once, as `IndexChoice.keys(in:)` returns them.
        guard found.count > 1 else { return (found, table) }
        return (FoundKeys(IndexChoice.sortedWithoutRepeats(found.array)), table)
    }

    /// The most selective index lookup for `predicate` (these filters), with what is left to check: from the
    /// cached plan of the one filter when it has one (no column resolved, no index looked for), else planned in
    /// full.
    private func bestIndex(
        for predicate: BoundPredicate, model: ModelBinding, table: Table
    ) -> (IndexChoice, BoundPredicate?)? {
        if filterCount == 1, let plan = planSlot.plan { return plan.best(for: predicate, model: model, table: table) }
        return IndexChoice.best(for: predicate, model: model, table: table)
    }

    // MARK: - Filtering

    /// The keys the source and filters select (the first `atMost` of them when given); `evaluator` is made (once)
    /// when an object must be read one by one.
    private func filteredKeys(
        in database: any QueryTables, model: ModelBinding, evaluator made: inout ObjectEvaluator?, atMost: Int?
    ) throws -> [ObjectKey] {
        func evaluator() -> ObjectEvaluator {
            if let made { return made }
            let evaluator = ObjectEvaluator(database: database)
            made = evaluator
            return evaluator
        }
        let limit = atMost ?? .max
        switch source {
        case .table:
            let table = try database.table(for: model)
            guard let predicate else {
                guard atMost != nil else { return try table.keys() }
                var keys: [ObjectKey] = []
                try table.forEachKey { key in
                    guard keys.count < limit else { return false }
                    keys.append(key)
                    return true
                }
                return keys
            }
            let scan: ColumnScan
            switch try plan(predicate, table: table, model: model) {
            // The keys as they are when the limit takes them all (no copy of a lookup's one key).
            case .index(_, let keys, nil): return keys.count <= limit ? keys : Array(keys.prefix(limit))
            case .index(_, let keys, let rest?):
                return try Self.matching(keys, rest, evaluator(), atMost: limit)
            case .scan(let compiled, _): scan = compiled
            }
            return try Self.scannedKeys(table, scan, evaluator(), atMost: limit)
        case .list, .linkingObjects:
            let evaluator = evaluator()
            let keys = try sourceKeys(evaluator)
            guard let predicate else { return Array(keys.prefix(limit)) }
            return try Self.matching(keys, predicate, evaluator, atMost: limit)
        }
    }

    /// The keys of `table`'s objects that `scan` selects (the first `limit` of them), scanning cluster by cluster.
    private static func scannedKeys(
        _ table: Table, _ scan: ColumnScan, _ evaluator: ObjectEvaluator, atMost limit: Int
    ) throws -> [ObjectKey] {
        var keys: [ObjectKey] = []
        try table.forEachCluster { cluster in
            let rows = try scan.rows(of: cluster, evaluator: evaluator)
            rows.forEachSetRow { keys.append(cluster.key(at: $0)) }
            return keys.count < limit
        }
        if keys.count > limit { keys.removeLast(keys.count - limit) }
        return keys
    }

    /// How a results loop over this query starts in `database` now: with an ``IncrementalScan`` when the query is
    /// a filter of the model's table that a column scan answers alone (no sort, distinct, limit or per-object
    /// check) and the database reads a read transaction (not a write's changing tables, not a frozen copy shared
    /// between threads); with the keys, planned and evaluated once, when the query is a filter of the table
    /// otherwise; `nil` for any other query (``evaluate(in:model:)`` then answers).
    func iterationStart(in database: Database, model: ModelBinding) throws -> IterationStart? {
        guard case .table = source, sortKeys.isEmpty, distinctPaths.isEmpty, limit == nil, failureBox == nil,
            database.writeCatalog == nil, database.frozenLock == nil, let predicate
        else { return nil }
        let catalog = try database.catalog()
        let table = try database.table(for: model)
        let evaluator = ObjectEvaluator(database: database)
        switch try plan(predicate, table: table, model: model) {
        case .index(_, let keys, nil): return .keys(keys)
        case .index(_, let keys, let rest?): return .keys(try Self.matching(keys, rest, evaluator, atMost: .max))
        case .scan(let scan, _):
            guard scan.isColumnOnly else { return .keys(try Self.scannedKeys(table, scan, evaluator, atMost: .max)) }
            try scan.prepare(evaluator)
            return .scan(IncrementalScan(catalog: catalog, table: table, scan: scan, evaluator: evaluator))
        }
    }

    /// How a results loop starts (``iterationStart(in:model:)``).
    enum IterationStart {
        /// Every key, in order.
        case keys([ObjectKey])
        /// A scan to run as the loop goes.
        case scan(IncrementalScan)
    }

    /// The first `limit` of `keys` whose objects satisfy `predicate`, in order.
    private static func matching(
        _ keys: [ObjectKey], _ predicate: BoundPredicate, _ evaluator: ObjectEvaluator, atMost limit: Int
    ) throws -> [ObjectKey] {
        var found: [ObjectKey] = []
        for key in keys {
            if found.count >= limit { break }
            if try evaluator.matches(predicate, key: key) { found.append(key) }
        }
        return found
    }

    /// The objects of a list or linking-objects source, before filters (none when the owner was deleted).
    private func sourceKeys(_ evaluator: ObjectEvaluator) throws -> [ObjectKey] {
        switch source {
        case .table: return []
        case .list(let owner, let key, let column):
            let table = try evaluator.table(owner)
            guard try table.contains(key) else { return [] }
            // A list of links, or a set of them (which reads as its elements in set order).
            guard case .list(let values) = try table.value(key, column: owner.columns[column]) else { return [] }
            return values.compactMap { value in
                if case .link(let linked) = value { return linked }
                return nil
            }
        case .linkingObjects(let target, let key, let source, let column, let hop):
            let table = try evaluator.table(target)
            guard try table.contains(key) else { return [] }
            guard let hop else {
                var seen = Set<ObjectKey>()
                return try table.backlinks(of: key, from: source.tableKey, column: source.columns[column])
                    .filter { seen.insert($0).inserted }
            }
            // Through the hop: its objects that link to the target, then the sources that link to those, each
            // source once, in the order first reached (as reading the linking objects gives them).
            let middle = try evaluator.table(hop.model)
            var seenMiddle = Set<ObjectKey>()
            var seen = Set<ObjectKey>()
            var found: [ObjectKey] = []
            for link in try table.backlinks(of: key, from: hop.model.tableKey, column: hop.model.columns[hop.column])
            where seenMiddle.insert(link).inserted {
                guard try middle.contains(link) else { continue }
                for origin in try middle.backlinks(of: link, from: source.tableKey, column: source.columns[column])
                where seen.insert(origin).inserted {
                    found.append(origin)
                }
            }
            return found
        }
    }

    // MARK: - Distinct and sort

    /// The first object of each distinct combination of the paths' values, in the current order (the first
    /// `limit` such objects when given).
    private func distinct(_ keys: [ObjectKey], _ evaluator: ObjectEvaluator, atMost limit: Int?) throws -> [ObjectKey] {
        var seen = Set<[QueryScalar]>()
        var found: [ObjectKey] = []
        for key in keys {
            if let limit, found.count >= limit { break }
            let values = try distinctPaths.map { try evaluator.values(of: $0, from: .object(key)).first ?? .null }
            if seen.insert(values).inserted { found.append(key) }
        }
        return found
    }

    /// `keys` ordered by the sort keys; ties keep their order (the sort is stable). With `limit`, only the first
    /// `limit` of that order, kept in a bounded heap as the keys go by: O(n log limit), the rest is never sorted.
    private func sort(_ keys: [ObjectKey], _ evaluator: ObjectEvaluator, limit: Int?) throws -> [ObjectKey] {
        if try sortsByObjectKey(evaluator) {
            return Self.sortedByKey(keys, ascending: sortKeys[0].ascending, limit: limit)
        }
        let ascending = sortKeys.map(\.ascending)
        let before = { (left: SortRow, right: SortRow) -> Bool in
            for (index, isAscending) in ascending.enumerated() {
                let order = SortKey.order(left.values[index], right.values[index])
                if order != 0 { return isAscending ? order < 0 : order > 0 }
            }
            return left.position < right.position
        }
        let row = { (position: Int, key: ObjectKey) throws -> SortRow in
            SortRow(
                position: position, key: key,
                values: try sortKeys.map { $0.collated(try evaluator.sortValue(of: $0.path, from: key)) })
        }
        guard let limit, limit < keys.count else {
            return try keys.enumerated().map { try row($0, $1) }.sorted(by: before).map(\.key)
        }
        var best = BoundedHeap<SortRow>(capacity: limit, before: before)
        for (position, key) in keys.enumerated() { best.offer(try row(position, key)) }
        return best.sorted().map(\.key)
    }

    /// The keys of a limited query sorted by an integer primary key the object keys are, when its filter is an
    /// index lookup that decides alone and that can read its first or last keys from one end of the index (a
    /// full-text word: `sorted(byKeyPath: "id", ascending: false).prefix(10)` reads the word's last posting
    /// blocks, not all of them); `nil` otherwise.
    private func keysFromIndexEnd(in database: any QueryTables, model: ModelBinding) throws -> [ObjectKey]? {
        guard let limit, sortKeys.count == 1, distinctPaths.isEmpty, case .table = source, let predicate else {
            return nil
        }
        guard try sortsByObjectKey(ObjectEvaluator(database: database)) else { return nil }
        let table = try database.table(for: model)
        guard let (choice, rest) = bestIndex(for: predicate, model: model, table: table), rest == nil else {
            return nil
        }
        return try choice.keys(in: table, first: limit, descending: !sortKeys[0].ascending)
    }

    /// Whether the one sort key is an integer primary key whose values are the objects' keys (the table keeps
    /// its primary key as the object keys, `Table.keysAreValues(of:)`): the keys then order the objects with no
    /// value read, which is what makes the newest matches of a full-text query (`id` descending, `prefix(n)`) cost
    /// no more than the index lookup.
    private func sortsByObjectKey(_ evaluator: ObjectEvaluator) throws -> Bool {
        guard sortKeys.count == 1, sortKeys[0].path.root == .object, sortKeys[0].path.steps.count == 1,
            case .property(let model, let column) = sortKeys[0].path.steps[0]
        else { return false }
        return try evaluator.table(model).keysAreValues(of: model.columns[column])
    }

    /// Distinct `keys` in key order (descending unless `ascending`), the first `limit` of it when given.
    private static func sortedByKey(_ keys: [ObjectKey], ascending: Bool, limit: Int?) -> [ObjectKey] {
        var ordered = keys
        // An index lookup gives its keys in ascending order already.
        if zip(ordered, ordered.dropFirst()).contains(where: { $0 >= $1 }) { ordered.sort() }
        let count = Swift.min(limit ?? ordered.count, ordered.count)
        return ascending ? Array(ordered.prefix(count)) : Array(ordered.suffix(count).reversed())
    }

    // MARK: - Explain

    /// How the query runs: the index or scan it uses, then distinct and sort.
    func explain(in database: any QueryTables, model: ModelBinding) throws -> String {
        if let failure { return "cannot run the query: \(failure)" }
        var parts: [String] = []
        switch source {
        case .table:
            if let predicate {
                let table = try database.table(for: model)
                switch try plan(predicate, table: table, model: model) {
                case .index(let index, _, let rest):
                    parts.append(index.text(in: predicate, model: model))
                    if let rest { parts.append("then per object (\(rest.text))") }
                case .scan(let scan, let rejected):
                    parts.append("scan \(model.name) (\(scan.text))")
                    if let rejected { parts.append("not \(rejected)") }
                }
            } else {
                parts.append("all \(model.name)")
            }
        case .list(let owner, let key, let column):
            parts.append("list \(owner.name).\(owner.description.properties[column].name) of \(key)")
            if let predicate { parts.append("per object (\(predicate.text))") }
        case .linkingObjects(let target, let key, let source, let column, let hop):
            let through = hop.map { " → \($0.model.name).\($0.model.description.properties[$0.column].name)" } ?? ""
            parts.append("linking objects \(source.name).\(source.description.properties[column].name)\(through) → "
                + "\(target.name) \(key)")
            if let predicate { parts.append("per object (\(predicate.text))") }
        }
        if !distinctPaths.isEmpty { parts.append("distinct by " + distinctPaths.map(\.text).joined(separator: ", ")) }
        if !sortKeys.isEmpty {
            parts.append("sorted by " + sortKeys.map { $0.path.text + ($0.ascending ? "" : " DESC") }.joined(separator: ", "))
        }
        if let limit { parts.append(sortKeys.isEmpty ? "first \(limit)" : "top \(limit) by a bounded heap") }
        return parts.joined(separator: ", ")
    }
}
