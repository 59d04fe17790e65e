extension Table {
    /// What changed from `older` (this same table read in an older snapshot; `nil` = the table did not exist
    /// then) to this one.
    ///
    /// Work is proportional to the change, not to the table: subtrees both snapshots share are skipped without
    /// being read (see `TableComparison`). Columns present in only one of the two snapshots (added or removed by
    /// a migration between them) are not compared; index trees are not compared either (they follow the table).
    ///
    /// Both tables must stay readable for the call (their transactions open), and neither may hold unflushed
    /// changes: call `Catalog.flush()` first when this table belongs to a write transaction.
    ///
    /// - Throws: `invalidArgument` when `older` is another table; `transactionMisuse` when either table has
    ///   unflushed changes; `corruptFile` when a node read is damaged.
    package func changes(since older: Table?) throws -> TableChanges {
        try requireStored()
        guard let older else {
            return TableChanges(insertions: try keys())
        }
        guard older.key == key else {
            throw StrataError.invalidArgument(
                "cannot compare table '\(name)' (\(key)) with table '\(older.name)' (\(older.key)); pass the same table read in an older snapshot")
        }
        try older.requireStored()
        // The same root node in both versions is the same tree (copy-on-write; a pinned version's pages stay).
        if older.tree.storedRoot == tree.storedRoot { return TableChanges() }
        var comparison = try TableComparison(older: older, newer: self)
        return try comparison.run()
    }

    /// Throws unless every cluster of the table is in stored nodes (nothing decoded and pending).
    private func requireStored() throws {
        guard !tree.isLoaded else {
            throw StrataError.transactionMisuse(
                "table '\(name)' has changes not yet written to nodes; call `flush()` on its catalog before comparing snapshots")
        }
    }
}
