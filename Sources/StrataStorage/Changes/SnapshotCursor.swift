/// One snapshot's side of a table comparison: what is left to visit of its cluster tree, in key order.
///
/// The pending items are subtrees not yet opened and the rows of opened clusters. A subtree is opened only when
/// the other side does not hold the very same node, so everything both versions share is skipped unread.
struct SnapshotCursor {
    /// Something still to visit, with a lower bound on every key it and the items after it hold.
    enum Item {
        /// A stored node: a branch at `level` ≥ 1, or a cluster at level 0.
        case subtree(NodeRef, level: Int, low: Int64)
        /// The rows of an opened cluster from `ClusterRows.row` on.
        case rows(ClusterRows)
    }

    let reader: NodeReader
    /// The compared columns, in the order `ClusterRows.blocks` holds them.
    let columns: [ColumnKey]
    /// Where each compared column is in this snapshot's storage order (the directory hint of its block).
    let positions: [Int]
    let what: String
    /// The items in reverse key order: the last is the front.
    private var stack: [Item] = []

    init(table: Table, columns: [ColumnKey]) throws {
        reader = table.reader
        self.columns = columns
        positions = columns.map { column in table.context.keys.firstIndex(of: column) ?? 0 }
        what = "clusters of table '\(table.name)'"
        let root = table.tree.storedRoot
        guard !root.isNone else { return }
        let view = try BranchView(try reader.read(root), ref: root)
        try push(childrenOf: view, low: .min)
    }

    /// The item to compare next, `nil` once everything was visited.
    var front: Item? { stack.last }

    /// Drops the front item (a subtree the other side shares).
    mutating func dropFront() { stack.removeLast() }

    /// Moves past the front row, dropping its cluster after the last one.
    mutating func advanceRow() {
        guard case .rows(var rows) = stack.removeLast() else { return }
        rows.row += 1
        if rows.row < rows.view.rowCount { stack.append(.rows(rows)) }
    }

    /// Replaces the front subtree by its children (a branch) or its rows (a cluster).
    mutating func openFront() throws {
        guard case .subtree(let ref, let level, let low) = stack.removeLast() else { return }
        let raw = try reader.read(ref)
        if level == 0 {
            let view = try ClusterView(raw, ref: ref)
            guard view.rowCount > 0 else { return }
            var blocks: [ColumnBlock] = []
            blocks.reserveCapacity(columns.count)
            for (column, position) in zip(columns, positions) {
                guard let block = try view.block(column, hint: position) else {
                    throw NodeDamage.error(ref, what, "has no block for column \(column)")
                }
                blocks.append(block)
            }
            stack.append(.rows(ClusterRows(view: view, blocks: blocks, row: 0)))
            return
        }
        let view = try BranchView(raw, ref: ref)
        guard view.level == level else {
            throw NodeDamage.error(ref, what, "is at level \(view.level) where level \(level) belongs")
        }
        try push(childrenOf: view, low: low)
    }

    /// Puts a branch's children in front, each with the lower bound of its keys.
    private mutating func push(childrenOf view: BranchView, low: Int64) throws {
        let level = view.level
        // Separator i (i > 0) bounds child i's keys from below, or lookups would miss them; child 0's separator
        // may lag behind, so it inherits the parent's bound.
        var children: [Item] = []
        children.reserveCapacity(view.count)
        for index in 0..<view.count {
            var bound = low
            if index > 0 {
                let separator = try view.key(index)
                if separator.count == 8 { bound = max(low, ByteOrder.int64(fromKey: separator)) }
            }
            children.append(.subtree(try view.child(index), level: level - 1, low: bound))
        }
        stack.append(contentsOf: children.reversed())
    }

    /// Visits every key left, in ascending order (what one side holds once the other is exhausted).
    mutating func drain(_ body: (ObjectKey) -> Void) throws {
        while let item = front {
            switch item {
            case .subtree: try openFront()
            case .rows(let rows):
                for row in rows.row..<rows.view.rowCount { body(ObjectKey(rows.view.key(at: row))) }
                stack.removeLast()
            }
        }
    }
}

/// The rows of one opened cluster, from `row` on, with the blocks of the compared columns.
struct ClusterRows {
    let view: ClusterView
    let blocks: [ColumnBlock]
    var row: Int

    /// The key of the current row.
    var key: Int64 { view.key(at: row) }
}
