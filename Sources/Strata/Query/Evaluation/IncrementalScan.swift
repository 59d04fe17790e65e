import StrataStorage

/// A column scan of a model's table that a results loop runs a cluster at a time, as it hands out objects:
/// the objects a cluster's scan selects are read while that cluster is still in the processor's caches (and the
/// table's read cache, ``Table/forEachCluster(from:_:)``), where a scan of the whole table first would have
/// pushed it out of them before the loop read the first object.
///
/// Made only for a read transaction's table and a scan that reads no object one by one
/// (``ColumnScan/isColumnOnly``): it holds the catalog it reads, so the version the loop started in stays
/// readable, and the keys it finds are those an evaluation at the loop's start gives, whatever the database does
/// meanwhile (a refresh, a write begun inside the loop).
final class IncrementalScan {
    /// The catalog `table` belongs to, held so that its version stays readable for the whole loop (a table refers
    /// to its catalog without owning it).
    private let catalog: Catalog
    /// The model's table in that version.
    let table: Table
    private let scan: ColumnScan
    /// Passed to the scan, which reads no object with it (``ColumnScan/isColumnOnly``); the linked objects a
    /// comparison through a link matches were found through it when the loop began (``ColumnScan/prepare(_:)``).
    private let evaluator: ObjectEvaluator
    // The state below is not checked for exclusive access at run time: a loop reads `keys` for every object it
    // hands out and the scan appends to it for every match, and the checks (a thread-local access set) cost a
    // few percent of a loop that reads two properties. A scan belongs to one iteration, used by the thread the
    // loop runs on, and nothing holds these `inout` across a call.

    /// Every key found so far, in key order.
    @exclusivity(unchecked) private(set) var keys: [ObjectKey] = []
    /// The first key not scanned yet; `nil` once the scan reached the table's end.
    @exclusivity(unchecked) private var resume: ObjectKey?
    /// The node of the cluster the last matches were found in, the position in ``keys`` of its first match, and
    /// the row of each of its matches: what ``noteRow(ofKeyAt:)`` tells the table. The node rather than the
    /// ``ScannedCluster``, whose copy for each object (its view, and its table retained) cost more than the
    /// search for the row it saves.
    @exclusivity(unchecked) private var cluster = NodeRef.none
    @exclusivity(unchecked) private var clusterStart = 0
    @exclusivity(unchecked) private var rows: [Int] = []

    /// A scan of `table` (of `catalog`) with `scan`, which must be column-only.
    init(catalog: Catalog, table: Table, scan: ColumnScan, evaluator: ObjectEvaluator) {
        precondition(scan.isColumnOnly, "Strata: an incremental scan reads no object one by one")
        self.catalog = catalog
        self.table = table
        self.scan = scan
        self.evaluator = evaluator
        resume = ObjectKey(.min)
    }

    /// Whether the whole table was scanned (``keys`` holds every match).
    var isComplete: Bool { resume == nil }

    /// Scans on from where the last call stopped until a cluster holds a match (whose keys are appended to
    /// ``keys``) or the table ends; returns whether any key was added.
    func scanMore() throws -> Bool {
        guard let start = resume else { return false }
        let before = keys.count
        var next: ObjectKey?
        try table.forEachCluster(from: start) { cluster in
            let rows = try scan.rows(of: cluster, evaluator: evaluator)
            guard rows.setCount > 0 else { return true }
            self.cluster = cluster.node
            clusterStart = keys.count
            self.rows.removeAll(keepingCapacity: true)
            rows.forEachSetRow {
                keys.append(cluster.key(at: $0))
                self.rows.append($0)
            }
            // The cluster's last key + 1, unless it is the largest key there can be (then nothing follows).
            let last = cluster.key(at: cluster.count - 1).rawValue
            next = last == .max ? nil : ObjectKey(last + 1)
            return false
        }
        // Stopped at a cluster with matches: resume after it; ran to the end: done.
        resume = keys.count > before ? next : nil
        return keys.count > before
    }

    /// Tells the table where the object of `keys[position]` is, when the scan found it in the cluster it visited
    /// last (``Table/noteRow(_:at:inCluster:)``, which ignores it once reads went to another cluster): the loop
    /// hands the object out next, and its first property read then finds its row without reading keys.
    @inline(__always)
    func noteRow(ofKeyAt position: Int) {
        guard position >= clusterStart, !cluster.isNone else { return }
        table.noteRow(keys[position], at: rows[position - clusterStart], inCluster: cluster)
    }
}
