#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Compares one table's cluster tree in two snapshots, with work proportional to what changed.
///
/// The store is copy-on-write and a pinned version's pages are never reused, so a node reachable from both
/// versions under the same reference holds the same bytes in both. The comparison walks both trees in key order,
/// skipping every subtree the two share, opening a node only where the references differ. Inside two clusters
/// holding the same keys it compares each column's encoded block as a whole and looks at rows only in blocks
/// that differ; where the keys differ it merges the rows by key.
struct TableComparison {
    private var older: SnapshotCursor
    private var newer: SnapshotCursor
    private let columns: [ColumnKey]
    private var changes = TableChanges()

    /// Prepares the comparison of `older` (an earlier snapshot of the same table) with `newer`, over the columns
    /// both have.
    init(older: Table, newer: Table) throws {
        let olderColumns = Set(older.context.keys)
        columns = newer.context.keys.filter { olderColumns.contains($0) }
        self.older = try SnapshotCursor(table: older, columns: columns)
        self.newer = try SnapshotCursor(table: newer, columns: columns)
    }

    /// Runs the comparison.
    mutating func run() throws -> TableChanges {
        while true {
            guard let a = older.front else {
                try newer.drain { changes.insertions.append($0) }
                break
            }
            guard let b = newer.front else {
                try older.drain { changes.deletions.append($0) }
                break
            }
            switch (a, b) {
            case (.subtree(let refA, let levelA, let lowA), .subtree(let refB, let levelB, let lowB)):
                if refA == refB && levelA == levelB {
                    older.dropFront()
                    newer.dropFront()
                } else if lowA != lowB {
                    // The subtree starting lower may hold keys the other side keeps elsewhere: open it.
                    if lowA < lowB { try older.openFront() } else { try newer.openFront() }
                } else if levelA != levelB {
                    if levelA > levelB { try older.openFront() } else { try newer.openFront() }
                } else {
                    try older.openFront()
                    try newer.openFront()
                }
            case (.rows(let rows), .subtree(_, _, let low)):
                // Every key the newer side has left is at least `low`: a smaller key is gone.
                if rows.key < low {
                    changes.deletions.append(ObjectKey(rows.key))
                    older.advanceRow()
                } else {
                    try newer.openFront()
                }
            case (.subtree(_, _, let low), .rows(let rows)):
                if rows.key < low {
                    changes.insertions.append(ObjectKey(rows.key))
                    newer.advanceRow()
                } else {
                    try older.openFront()
                }
            case (.rows(let rowsA), .rows(let rowsB)):
                if rowsA.row == 0, rowsB.row == 0, SnapshotBytes.equal(rowsA.view.keys.bytes, rowsB.view.keys.bytes) {
                    try compareClusters(rowsA, rowsB)
                    older.dropFront()
                    newer.dropFront()
                } else if rowsA.key < rowsB.key {
                    changes.deletions.append(ObjectKey(rowsA.key))
                    older.advanceRow()
                } else if rowsA.key > rowsB.key {
                    changes.insertions.append(ObjectKey(rowsB.key))
                    newer.advanceRow()
                } else {
                    for index in columns.indices
                    where !(try sameValue(rowsA.blocks[index], rowsA.row, rowsB.blocks[index], rowsB.row)) {
                        changes.modifications[ObjectKey(rowsA.key), default: []].insert(columns[index])
                    }
                    older.advanceRow()
                    newer.advanceRow()
                }
            }
        }
        return changes
    }

    /// Two clusters with the same keys: columns whose blocks are byte for byte equal hold the same values (a
    /// block is position-independent, and long values in equal blocks are the same shared nodes).
    private mutating func compareClusters(_ a: ClusterRows, _ b: ClusterRows) throws {
        for index in columns.indices where !SnapshotBytes.equal(a.blocks[index].bytes, b.blocks[index].bytes) {
            for row in 0..<a.view.rowCount where !(try sameValue(a.blocks[index], row, b.blocks[index], row)) {
                changes.modifications[ObjectKey(a.view.key(at: row)), default: []].insert(columns[index])
            }
        }
    }

    /// Whether row `rowA` of the older block holds the same value as row `rowB` of the newer one.
    private func sameValue(_ a: ColumnBlock, _ rowA: Int, _ b: ColumnBlock, _ rowB: Int) throws -> Bool {
        let nullA = a.isNull(rowA)
        let nullB = b.isNull(rowB)
        if nullA || nullB { return nullA == nullB }
        switch (a.kind, b.kind) {
        case (.fixed16, .fixed16), (.variable, .variable):
            switch (try a.blob(rowA), try b.blob(rowB)) {
            case (.inline(let left), .inline(let right)):
                return SnapshotBytes.equal(left, right)
            case (.external(let left, let leftLength), .external(let right, let rightLength))
            where left == right && leftLength == rightLength:
                return true
            case (let left, let right):
                return SnapshotBytes.equal(try left.bytes(reading: older.reader), try right.bytes(reading: newer.reader))
            }
        case (.fixed16, _), (.variable, _), (_, .fixed16), (_, .variable):
            return false
        default:
            return a.word(rowA) == b.word(rowB)
        }
    }
}

/// Byte comparison of node contents.
enum SnapshotBytes {
    /// Whether two byte ranges hold the same bytes.
    static func equal(_ left: UnsafeRawBufferPointer, _ right: UnsafeRawBufferPointer) -> Bool {
        guard left.count == right.count else { return false }
        guard left.count > 0, let leftBase = left.baseAddress, let rightBase = right.baseAddress else { return true }
        return leftBase == rightBase || memcmp(leftBase, rightBase, left.count) == 0
    }
}
