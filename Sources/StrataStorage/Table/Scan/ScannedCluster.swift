/// One cluster of a table as a scan sees it: its object keys and typed, in-place views of its columns.
///
/// Views stay valid for the transaction that produced them. Obtain clusters with `Table.forEachCluster`.
public struct ScannedCluster {
    let view: ClusterView
    let table: Table
    /// The number of objects in the cluster.
    public var count: Int { view.rowCount }
    /// The object keys, ascending.
    public var keys: IntColumnView { IntColumnView(view.keys) }

    /// The object key of `row`.
    public func key(at row: Int) -> ObjectKey { ObjectKey(view.key(at: row)) }

    /// The cluster's node (what ``Table/noteRow(_:at:inCluster:)`` names it by).
    package var node: NodeRef { view.ref }

    private func block(_ column: ColumnKey, _ kinds: [BlockEncoding], _ wanted: String) throws -> ColumnBlock {
        let index = try table.position(of: column)
        let block = try table.storedBlock(view, index)
        guard kinds.contains(block.kind) else {
            throw StrataError.invalidArgument("column '\(table.columns[index].name)' of table '\(table.name)' is not \(wanted)")
        }
        return block
    }

    /// An int, timestamp or link column.
    public func intColumn(_ column: ColumnKey) throws -> IntColumnView { IntColumnView(try block(column, [.packedInt], "an integer column")) }

    /// A bool column.
    public func boolColumn(_ column: ColumnKey) throws -> BoolColumnView { BoolColumnView(try block(column, [.bits], "a bool column")) }

    /// A float or double column.
    public func doubleColumn(_ column: ColumnKey) throws -> DoubleColumnView {
        DoubleColumnView(try block(column, [.float32, .float64], "a float or double column"))
    }

    /// A string or binary column.
    public func stringColumn(_ column: ColumnKey) throws -> StringColumnView {
        let block = try block(column, [.variable], "a string or binary column")
        guard case .value = table.column(column)?.type else {
            throw StrataError.invalidArgument("column \(column) of table '\(table.name)' is a list, not a string column")
        }
        return StringColumnView(block, reader: table.reader)
    }

    /// A set column, each object's set read in place.
    public func setColumn(_ column: ColumnKey) throws -> SetColumnView {
        let block = try block(column, [.variable], "a set column")
        guard case .set(let kind) = table.column(column)?.type else {
            throw StrataError.invalidArgument("column \(column) of table '\(table.name)' is not a set column")
        }
        return SetColumnView(block, reader: table.reader, kind: kind)
    }

    /// A list, set or map column, each object's element count read in place.
    public func collectionColumn(_ column: ColumnKey) throws -> CollectionColumnView {
        let block = try block(column, [.variable], "a list, set or map column")
        switch table.column(column)?.type {
        case .list, .set, .map: return CollectionColumnView(block, reader: table.reader)
        default:
            throw StrataError.invalidArgument(
                "column \(column) of table '\(table.name)' is not a list, set or map column")
        }
    }
}

extension Table {
    /// Visits the clusters in key order until `body` returns `false`, each as typed column views, so conditions
    /// run as tight loops per cluster. In a write transaction, pending changes are written out first so the
    /// views see them.
    ///
    /// With `start`, the visit begins at the first cluster holding a key at or after it (clusters whose keys all
    /// lie before it are skipped): a scan that stopped after a cluster resumes from that cluster's last key + 1.
    /// In a read transaction each visited cluster becomes the one reads by key look in first (and the blocks
    /// the scan decodes are kept for them), so reading the objects a cluster's scan selected finds their rows
    /// without descending the tree again.
    public func forEachCluster(from start: ObjectKey? = nil, _ body: (ScannedCluster) throws -> Bool) throws {
        if let writer, tree.isLoaded { _ = try tree.flush(in: writer) }
        let startBytes = start.map { key in ByteOrder.withKey(key.rawValue) { Array($0) } }
        try tree.forEachLeaf(from: startBytes) { location in
            guard case .stored(let ref) = location else { return true }
            let view = try ClusterView(try reader.read(ref), ref: ref)
            if let start, view.rowCount == 0 || view.key(at: view.rowCount - 1) < start.rawValue { return true }
            noteScanned(view)
            return try body(ScannedCluster(view: view, table: self))
        }
    }
}
