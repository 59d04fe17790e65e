import StrataStorage

/// Builds the snapshots of a result's objects in the table's cluster order (``SnapshotRowCursor``), then hands
/// them back in the result's own order.
///
/// The keys are visited in ascending order (a result of the whole table, or a filter, already is; a sorted one is
/// ordered by key first), so each cluster is read once, its columns resolved once, and every wanted row found from
/// the one before it. A result much sparser than its table (fewer objects than a thirty-second of the table, or
/// a handful) would read clusters for nothing: its objects are read one by one, as a managed object reads them.
struct SnapshotWalk<Snapshot> {
    let database: Database
    let model: ModelBinding
    let table: Table
    /// The snapshot of the object the cursor is on (the generated `Model.snapshot(cursor:)`).
    let fromCursor: (SnapshotRowCursor) -> Snapshot
    /// The snapshot of one object read by key (the generated `Model.snapshot(row:)`), for sparse results.
    let fromRow: (ManagedRow) -> Snapshot

    /// The snapshots of the objects `keys` names, in that order. Call inside the database's access.
    func snapshots(of keys: [ObjectKey]) throws -> [Snapshot] {
        guard !keys.isEmpty else { return [] }
        let stamp = database.changeStamp
        let total = try table.count()
        guard keys.count >= 16, keys.count * 32 >= total else {
            return keys.map { fromRow(ManagedRow(database: database, model: model, key: $0, table: table, stamp: stamp)) }
        }
        var isAscending = true
        for index in keys.indices.dropFirst() where keys[index - 1].rawValue >= keys[index].rawValue {
            isAscending = false
            break
        }
        if isAscending { return try walk(keys) }
        // Visit in key order, then put each snapshot back at its position.
        let order = keys.indices.sorted { keys[$0].rawValue < keys[$1].rawValue }
        let visited = try walk(order.map { keys[$0] })
        var placed = [Snapshot?](repeating: nil, count: keys.count)
        for (position, snapshot) in zip(order, visited) { placed[position] = snapshot }
        return placed.map { $0! }
    }

    /// The snapshots of `keys`, which ascend (equal keys side by side), walking the clusters once.
    private func walk(_ keys: [ObjectKey]) throws -> [Snapshot] {
        let cursor = SnapshotRowCursor(database: database, model: model, table: table)
        var snapshots: [Snapshot] = []
        snapshots.reserveCapacity(keys.count)
        var next = 0
        try table.forEachCluster { cluster in
            let count = cluster.count
            guard count > 0 else { return true }
            let clusterKeys = cluster.keys
            let last = clusterKeys[count - 1]
            guard keys[next].rawValue <= last else { return true }
            try cursor.load(cluster)
            var row = 0
            while next < keys.count, keys[next].rawValue <= last {
                let wanted = keys[next].rawValue
                row = Self.row(of: wanted, in: clusterKeys, count: count, from: row)
                guard row < count, clusterKeys[row] == wanted else {
                    // Not stored (deleted meanwhile): the row read reports it with the database's message.
                    snapshots.append(fromRow(ManagedRow(database: database, model: model, key: keys[next])))
                    next += 1
                    continue
                }
                cursor.move(to: row, key: keys[next])
                snapshots.append(fromCursor(cursor))
                next += 1
            }
            return next < keys.count
        }
        while next < keys.count {
            snapshots.append(fromRow(ManagedRow(database: database, model: model, key: keys[next])))
            next += 1
        }
        return snapshots
    }

    /// The first row at or after `start` whose key is not below `wanted` (`count` when none is).
    ///
    /// Keys rise by at least one a row, so `wanted` lies at most `wanted - key(start)` rows on: the next object of
    /// a result with none deleted between is the row that distance away, found with one key read; otherwise a
    /// binary search runs between those bounds.
    private static func row(of wanted: Int64, in keys: IntColumnView, count: Int, from start: Int) -> Int {
        guard start < count else { return count }
        let first = keys[start]
        if first >= wanted { return start }
        let distance = UInt64(bitPattern: wanted &- first)
        var upper = count
        if distance < UInt64(count - start) {
            let guess = start + Int(distance)
            if keys[guess] == wanted { return guess }
            upper = guess + 1
        }
        var lower = start + 1
        while lower < upper {
            let middle = lower + (upper - lower) / 2
            if keys[middle] < wanted { lower = middle + 1 } else { upper = middle }
        }
        return lower
    }
}
