import StrataStorage

/// The change of one query's results between the snapshot an observer last reported and a delivery's.
///
/// Two roads:
/// - **Incremental**, for a query over a whole table whose filters and sort read only the model's own columns
///   (no links, lists, linking objects, subqueries or distinct): only the objects the commits touched are
///   looked at. Each is checked against the predicate in both versions; its old
///   position is found by binary search under the sort in the old snapshot, its new one by binary search among
///   the untouched objects (which keep their relative order) in the new snapshot. Work: O(*k* log *n*) value
///   reads for *k* touched objects, plus one O(*n*) copy of the key array. A changed object a result links to
///   makes the objects that link to it (found through backlinks) modifications.
/// - **Re-evaluation**, for everything else: the query runs again on the new snapshot and the two key lists are
///   compared by key (``KeyDiff``), or as sequences for a list's results (which may repeat an object).
struct ResultsDiff {
    let query: ObjectQuery
    let model: ModelBinding
    let watched: WatchedProperties

    /// The new keys and what changed, from `oldKeys` (the results at `baseline`) to the delivery's version.
    ///
    /// - Parameter spare: An array whose storage the new keys may be written into (the keys of two deliveries
    ///   ago): reusing memory the process already touched spares the page faults of a fresh large array.
    func changes(
        from oldKeys: [ObjectKey], baseline: Database, delivery: Delivery, spare: inout [ObjectKey]
    ) throws -> (keys: [ObjectKey], changes: IndexChanges) {
        if isIncremental {
            let own = try delivery.changes(of: model.tableKey, since: baseline)
            let linkedChanged = try watched.linkedTablesChanged(delivery, since: baseline)
            if own.isEmpty && !linkedChanged { return (oldKeys, IndexChanges()) }
            let touched = own.insertions.count + own.deletions.count + own.modifications.count
            // Past a quarter of the results, running the query again is cheaper than k binary searches.
            if touched <= max(64, oldKeys.count / 4),
                var result = try incremental(
                    from: oldKeys, own: own, baseline: baseline, delivery: delivery, spare: &spare)
            {
                if linkedChanged {
                    try addLinkedModifications(to: &result, delivery: delivery, baseline: baseline)
                }
                return result
            }
        }
        return try reevaluated(from: oldKeys, baseline: baseline, delivery: delivery)
    }

    // MARK: - Which road

    /// Whether the query qualifies for the incremental road (see the type's description).
    var isIncremental: Bool {
        // A limit makes an object's entry depend on the others' (one leaving lets the next in): evaluated again.
        guard case .table = query.source, query.distinctPaths.isEmpty, query.limit == nil else { return false }
        // A sort by a link puts nil links last, which only the full evaluation orders (`ObjectQuery.sort`).
        guard query.sortKeys.allSatisfy({ readsOwnColumn($0.path) && !$0.path.endsOnObjects }) else { return false }
        return query.filters.allSatisfy(readsOwnColumns)
    }

    private func readsOwnColumn(_ path: BoundPath) -> Bool {
        guard let (pathModel, _) = path.rootColumn else { return false }
        return pathModel === model || pathModel.tableKey == model.tableKey
    }

    private func readsOwnColumns(_ predicate: BoundPredicate) -> Bool {
        predicate.fold(OwnColumnsCheck(diff: self))
    }

    /// Whether a predicate reads nothing but columns of the tested object (no link, list, aggregate or subquery).
    private struct OwnColumnsCheck: BoundPredicateVisitor {
        let diff: ResultsDiff

        func constant(_ value: Bool) -> Bool { true }
        func comparison(_ comparison: BoundComparison) -> Bool { reads(comparison.left) && reads(comparison.right) }
        func not(_ inner: FoldedTerm<Self>) -> Bool { inner.result() }
        func and(_ terms: FoldedTerms<Self>) -> Bool { terms.allSatisfy { $0.result() } }
        func or(_ terms: FoldedTerms<Self>) -> Bool { terms.allSatisfy { $0.result() } }

        private func reads(_ operand: BoundOperand) -> Bool {
            switch operand {
            case .value, .list: return true
            case .path(let path): return diff.readsOwnColumn(path)
            case .aggregate, .subqueryCount: return false
            }
        }
    }

    // MARK: - Re-evaluation

    private func reevaluated(
        from oldKeys: [ObjectKey], baseline: Database, delivery: Delivery
    ) throws -> (keys: [ObjectKey], changes: IndexChanges) {
        let newKeys = try query.evaluate(in: delivery.snapshot, model: model)
        let own = try delivery.changes(of: model.tableKey, since: baseline)
        let isModified = { (key: ObjectKey) throws -> Bool in
            try watched.isModified(key, own: own, delivery: delivery, since: baseline)
        }
        let changes: IndexChanges
        if case .list = query.source {
            changes = try SequenceDiff.changes(from: oldKeys, to: newKeys) { try isModified(newKeys[$0]) }
        } else {
            changes = try KeyDiff.changes(from: oldKeys, to: newKeys, isModified: isModified)
        }
        return (newKeys, changes)
    }

    // MARK: - Incremental

    /// One object the commits touched.
    private struct Touched {
        var key: ObjectKey
        var oldIndex: Int?
        var isIn: Bool
        var newValues: [QueryScalar] = []
        var newIndex = -1
        var stablePosition = -1
    }

    /// The incremental road; `nil` when the old keys do not match the old snapshot (then re-evaluate).
    private func incremental(
        from oldKeys: [ObjectKey], own: TableChanges, baseline: Database, delivery: Delivery,
        spare: inout [ObjectKey]
    ) throws -> (keys: [ObjectKey], changes: IndexChanges)? {
        let old = ObjectEvaluator(database: baseline)
        let new = ObjectEvaluator(database: delivery.snapshot)
        let predicate = query.predicate
        let inserted = Set(own.insertions)
        let deleted = Set(own.deletions)
        var touched: [Touched] = []
        let touchedKeys = own.insertions + own.deletions + own.modifications.keys.sorted()
        let cache = UntouchedValues(touched: Set(touchedKeys))
        for key in touchedKeys {
            let wasIn = try !inserted.contains(key) && (predicate.map { try old.matches($0, key: key) } ?? true)
            let isIn = try !deleted.contains(key) && (predicate.map { try new.matches($0, key: key) } ?? true)
            var entry = Touched(key: key, oldIndex: nil, isIn: isIn)
            if wasIn {
                let values = try sortValues(key, old)
                let index = try lowerBound(in: oldKeys, values: values, key: key, evaluator: old, cache: cache)
                guard index < oldKeys.count, oldKeys[index] == key else { return nil }
                entry.oldIndex = index
            }
            if isIn { entry.newValues = try sortValues(key, new) }
            if wasIn || isIn { touched.append(entry) }
        }
        // The untouched objects keep their (unchanged) order: a view of the old keys without the touched ones.
        let removed = touched.compactMap(\.oldIndex).sorted()
        let stable = UntouchedKeys(keys: oldKeys, removed: removed)
        // Where each object now in the results goes among them.
        for index in touched.indices where touched[index].isIn {
            touched[index].stablePosition = try lowerBound(
                in: stable, values: touched[index].newValues, key: touched[index].key, evaluator: new, cache: cache)
        }
        let arriving = touched.indices.filter { touched[$0].isIn }.sorted { left, right in
            let a = touched[left]
            let b = touched[right]
            if a.stablePosition != b.stablePosition { return a.stablePosition < b.stablePosition }
            return precedes(a.newValues, a.key, b.newValues, b.key)
        }
        var merge = stable.merger(into: &spare, capacity: stable.count + arriving.count)
        for (rank, index) in arriving.enumerated() {
            merge.copy(upTo: touched[index].stablePosition)
            touched[index].newIndex = touched[index].stablePosition + rank
            merge.keys.append(touched[index].key)
        }
        merge.copy(upTo: stable.count)
        let newKeys = merge.keys
        return (newKeys, try indexChanges(touched, removed: removed, own: own, baseline: baseline, delivery: delivery))
    }

    /// Deletions, insertions and modifications of the touched objects; an object in both versions stays (a
    /// modification at most) when it sits among the same untouched neighbours and keeps its order with the
    /// other touched objects there, otherwise it moved.
    private func indexChanges(
        _ touched: [Touched], removed: [Int], own: TableChanges, baseline: Database, delivery: Delivery
    ) throws -> IndexChanges {
        var changes = IndexChanges()
        var candidates: [Int: [Int]] = [:]  // gap → touched indices in both versions, by new index
        for (index, entry) in touched.enumerated() {
            switch (entry.oldIndex, entry.isIn) {
            case (let oldIndex?, false):
                changes.deletions.append(oldIndex)
            case (nil, true):
                changes.insertions.append(entry.newIndex)
            case (let oldIndex?, true):
                let gapBefore = oldIndex - lowerBound(removed, oldIndex)
                if gapBefore == entry.stablePosition {
                    candidates[gapBefore, default: []].append(index)
                } else {
                    changes.deletions.append(oldIndex)
                    changes.insertions.append(entry.newIndex)
                }
            case (nil, false):
                break
            }
        }
        for (_, group) in candidates {
            let ordered = group.sorted { touched[$0].newIndex < touched[$1].newIndex }
            let staying = LongestIncreasingRun.members(of: ordered.map { touched[$0].oldIndex ?? 0 })
            for (offset, index) in ordered.enumerated() {
                let entry = touched[index]
                if staying[offset] {
                    if try watched.isModified(entry.key, own: own, delivery: delivery, since: baseline) {
                        changes.modifications.append(entry.newIndex)
                    }
                } else {
                    changes.deletions.append(entry.oldIndex ?? 0)
                    changes.insertions.append(entry.newIndex)
                }
            }
        }
        return changes.sorted()
    }

    /// Reports as modified the objects in the results whose followed link points to an object that changed a
    /// watched property (a filter over own columns cannot change membership or order for that): found through
    /// the store's backlinks and a binary search in the new keys, so the work follows the linked changes.
    private func addLinkedModifications(
        to result: inout (keys: [ObjectKey], changes: IndexChanges), delivery: Delivery, baseline: Database
    ) throws {
        let new = ObjectEvaluator(database: delivery.snapshot)
        let inserted = Set(result.changes.insertions)
        var modified = Set(result.changes.modifications)
        for link in watched.links {
            let targetTable = try delivery.snapshot.table(for: link.target)
            for target in try WatchedProperties.changedTargets(of: link, delivery, since: baseline).sorted() {
                let owners = try targetTable.backlinks(of: target, from: model.tableKey, column: model.columns[link.column])
                for owner in Set(owners) {
                    let index = try lowerBound(in: result.keys, values: try sortValues(owner, new), key: owner, evaluator: new)
                    guard index < result.keys.count, result.keys[index] == owner, !inserted.contains(index) else { continue }
                    modified.insert(index)
                }
            }
        }
        result.changes.modifications = modified.sorted()
    }

    // MARK: - Ordering

    /// Sort values of untouched objects, which are the same in both snapshots: the binary searches of one delivery
    /// visit the same midpoints (all start at the middle), so each is read once.
    final class UntouchedValues {
        private var values: [ObjectKey: [QueryScalar]] = [:]
        private let touched: Set<ObjectKey>

        init(touched: Set<ObjectKey>) {
            self.touched = touched
        }

        func values(_ key: ObjectKey, _ read: () throws -> [QueryScalar]) rethrows -> [QueryScalar] {
            if touched.contains(key) { return try read() }
            if let known = values[key] { return known }
            let read = try read()
            values[key] = read
            return read
        }
    }

    private func sortValues(_ key: ObjectKey, _ evaluator: ObjectEvaluator) throws -> [QueryScalar] {
        try query.sortKeys.map { $0.collated(try evaluator.values(of: $0.path, from: .object(key)).first ?? .null) ?? .null }
    }

    /// Whether (values, key) sorts before (otherValues, otherKey): the sort keys, then the object key (the
    /// table's order, which the stable sort keeps for ties).
    private func precedes(_ values: [QueryScalar], _ key: ObjectKey, _ otherValues: [QueryScalar], _ otherKey: ObjectKey) -> Bool {
        for (index, sortKey) in query.sortKeys.enumerated() {
            let order = QueryScalar.sortOrder(values[index], otherValues[index])
            if order != 0 { return sortKey.ascending ? order < 0 : order > 0 }
        }
        return key < otherKey
    }

    /// The first position in `keys` (ordered as the query orders) whose object does not sort before (values, key).
    private func lowerBound<Keys: RandomAccessCollection>(
        in keys: Keys, values: [QueryScalar], key: ObjectKey, evaluator: ObjectEvaluator, cache: UntouchedValues? = nil
    ) throws -> Int where Keys.Element == ObjectKey, Keys.Index == Int {
        var low = 0
        var high = keys.count
        while low < high {
            let middle = (low + high) / 2
            let other = keys[keys.startIndex + middle]
            let otherValues = query.sortKeys.isEmpty
                ? [] : try cache?.values(other, { try sortValues(other, evaluator) }) ?? sortValues(other, evaluator)
            if precedes(otherValues, other, values, key) { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The number of elements of the ascending `values` below `value`.
    private func lowerBound(_ values: [Int], _ value: Int) -> Int {
        var low = 0
        var high = values.count
        while low < high {
            let middle = (low + high) / 2
            if values[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low
    }
}

/// The old keys without the touched ones, read in place: a few removed positions over a large array, so neither
/// the binary searches nor the merge copy the array more than once.
private struct UntouchedKeys: RandomAccessCollection {
    let keys: [ObjectKey]
    /// Ascending positions in `keys` that are left out.
    let removed: [Int]

    var startIndex: Int { 0 }
    var endIndex: Int { keys.count - removed.count }

    /// The `position`-th untouched key. O(removed) — a handful of touched objects.
    subscript(position: Int) -> ObjectKey {
        var index = position
        for skipped in removed {
            if skipped <= index { index += 1 } else { break }
        }
        return keys[index]
    }

    /// Builds the new keys: untouched keys copied in runs, touched ones appended in between.
    struct Merger {
        let source: UntouchedKeys
        var keys: [ObjectKey] = []
        private var next = 0  // next position in source.keys
        private var skipped = 0  // removed positions passed
        private var copied = 0  // untouched keys copied

        init(source: UntouchedKeys, into buffer: inout [ObjectKey], capacity: Int) {
            self.source = source
            // Take the buffer's storage (kept when nothing else holds it), emptied.
            swap(&keys, &buffer)
            keys.removeAll(keepingCapacity: true)
            keys.reserveCapacity(capacity)
        }

        /// Appends untouched keys until `count` of them have been copied.
        mutating func copy(upTo count: Int) {
            while copied < count {
                while skipped < source.removed.count, source.removed[skipped] == next {
                    next += 1
                    skipped += 1
                }
                let runEnd = skipped < source.removed.count ? source.removed[skipped] : source.keys.count
                let take = Swift.min(count - copied, runEnd - next)
                keys.append(contentsOf: source.keys[next..<(next + take)])
                next += take
                copied += take
            }
        }
    }

    func merger(into buffer: inout [ObjectKey], capacity: Int) -> Merger {
        Merger(source: self, into: &buffer, capacity: capacity)
    }
}
