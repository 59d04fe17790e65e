/// An integer primary key whose every value is its object's key needs no index of its own: the cluster tree,
/// ordered by object key, already orders the objects by that value. Such an index is *implied*: it has no nodes
/// (its root stays 0, see docs/FILE-FORMAT.md, "An index"), inserts and removals skip it, and its entries
/// (`01`, the value, the object key: the same 8 bytes twice) are read off the clusters when asked for.
///
/// It saves the 17-byte entry per object the index would store (a fifth of a million-object file) and a
/// descent per insert and per lookup. The table keeps the rule "object key = value" (`Table.insert` picks the key
/// from the value); anything that would break it first `materialize`s the index into a stored one.
extension SortedIndex {
    /// The largest value an implied index holds: the table's next object key is one more, so it must fit.
    static let largestImpliedValue = Int64.max - 1

    /// Visits the implied entries ≥ `lower` in order until `body` returns `false`.
    func forEachImpliedEntry(
        of clusters: ClusterTree, from lower: [UInt8], _ body: (UnsafeRawBufferPointer) throws -> Bool
    ) throws {
        // Every implied entry starts with `01` (no nulls): a bound starting higher is past them all, one starting
        // lower (or empty) is before them all.
        var startKey: Int64?
        if let tag = lower.first, tag >= 1 {
            if tag > 1 { return }
            var sortable: UInt64 = 0
            for offset in 1..<9 { sortable = sortable << 8 | UInt64(offset < lower.count ? lower[offset] : 0) }
            startKey = Int64(bitPattern: sortable ^ 0x8000_0000_0000_0000)
        }
        var entry = [UInt8](repeating: 0, count: 17)
        entry[0] = 1
        var stopped = false
        // Returns whether to go on.
        func emit(_ key: Int64) throws -> Bool {
            withUnsafeBytes(of: (UInt64(bitPattern: key) ^ 0x8000_0000_0000_0000).bigEndian) { bytes in
                for offset in 0..<8 {
                    entry[1 + offset] = bytes[offset]
                    entry[9 + offset] = bytes[offset]
                }
            }
            if ByteOrder.compare(entry, lower) < 0 { return true }
            let goOn = try entry.withUnsafeBytes { try body($0) }
            if !goOn { stopped = true }
            return goOn
        }
        try clusters.forEachLeaf(from: startKey.map(ByteOrder.key)) { location in
            switch location {
            case .loaded(let cluster):
                let first = startKey.map { cluster.position(of: $0).row } ?? 0
                for row in first..<cluster.keys.count where !(try emit(cluster.keys[row])) { return false }
            case .stored(let ref):
                let view = try ClusterView(try clusters.reader.read(ref), ref: ref)
                var row = 0
                if let startKey {
                    var high = view.rowCount
                    while row < high {
                        let middle = (row + high) / 2
                        if view.key(at: middle) < startKey { row = middle + 1 } else { high = middle }
                    }
                }
                while row < view.rowCount {
                    if !(try emit(view.key(at: row))) { return false }
                    row += 1
                }
            }
            return !stopped
        }
    }

    /// Turns an implied index into a stored one holding the same entries, before a change that would make an
    /// object's key differ from its value.
    func materialize(in writer: NodeWriter) throws {
        guard let clusters = impliedBy else { return }
        impliedBy = nil
        do {
            try forEachImpliedEntry(of: clusters, from: []) { entry in
                let bytes = Array(entry)
                try nodes.update(bytes) { $0.insert(bytes) }
                if nodes.loadedLeaves > Catalog.loadedLeafLimit { _ = try nodes.flush(in: writer) }
                return true
            }
        } catch {
            try? destroy(in: writer)
            impliedBy = clusters
            throw error
        }
    }
}
