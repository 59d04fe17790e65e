extension Catalog {
    /// The keys of the tables whose contents differ from `older` (the catalog of an older snapshot): their
    /// cluster trees' root nodes differ, or the table exists in only one of the two. In ascending key order.
    ///
    /// Costs one comparison per table, no node reads: copy-on-write gives every changed tree a new root node. A
    /// table of a write transaction with changes not yet flushed counts as changed.
    package func changedTables(since older: Catalog) -> [TableKey] {
        var changed: [TableKey] = []
        for table in tables {
            guard let before = older.table(table.key) else {
                changed.append(table.key)
                continue
            }
            if table.tree.isLoaded || before.tree.isLoaded || table.tree.storedRoot != before.tree.storedRoot {
                changed.append(table.key)
            }
        }
        for table in older.tables where self.table(table.key) == nil { changed.append(table.key) }
        return changed.sorted { $0.rawValue < $1.rawValue }
    }
}
