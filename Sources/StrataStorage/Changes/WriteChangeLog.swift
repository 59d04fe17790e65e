/// The objects a write transaction inserts, changes and deletes, kept as it makes them (``Catalog/changeLog``):
/// what the sync outbox records at commit without comparing the write's tables with the version it began from.
///
/// Each table's entries say, per object touched, whether it existed when the write began and, for one that did,
/// the values its changed columns had then (all of its columns once it was deleted). ``changes(of:)`` turns them
/// into the same ``TableChanges`` that `Table.changes(since:)` computes between the two versions: an object
/// inserted and deleted again is no change, a value set back to what it was is none either. Backlink columns
/// count, as they do there; the tables' structure (columns added or removed) does not.
///
/// Keeping it costs one dictionary entry per object touched, and one read of a column's old value the first time
/// the write changes that column of an object that existed before; a write without a log (``Catalog/changeLog``
/// `nil`, the default) pays one test per change.
package final class WriteChangeLog {
    /// What the log knows of one object.
    package struct Entry: Sendable {
        /// Whether the object existed when the write began (its first change in the write was not its insert).
        package var existedBefore: Bool
        /// The values its changed columns had when the write began (empty for an object that did not exist then).
        package var old: [ColumnKey: StorageValue] = [:]
        /// Whether `old` holds every column (the object was deleted in the write).
        package var wholeRow = false
    }

    /// The entries of each table touched, by table and object.
    package private(set) var tables: [TableKey: [ObjectKey: Entry]] = [:]

    /// An empty log.
    package init() {}

    /// Whether the write has changed no object so far.
    package var isEmpty: Bool { tables.isEmpty }

    // MARK: Recording (called by the table layer)

    /// Notes that `key` was inserted into `table`: it did not exist just before.
    func inserted(_ key: ObjectKey, into table: TableKey) {
        if tables[table]?[key] != nil { return }
        tables[table, default: [:]][key] = Entry(existedBefore: false)
    }

    /// Notes, before it happens, that column `column` of object `key` of `table` is about to change: keeps its
    /// current value the first time, when the object existed before the write.
    func willChange(_ key: ObjectKey, column: ColumnKey, of table: Table) throws {
        if let entry = tables[table.key]?[key] {
            guard entry.existedBefore, !entry.wholeRow, entry.old[column] == nil else { return }
        }
        let value = try table.value(key, column: column)
        tables[table.key, default: [:]][key, default: Entry(existedBefore: true)].old[column] = value
    }

    /// Notes, before it happens, that object `key` of `table` is about to be deleted: keeps its current values of
    /// the columns not kept yet, when the object existed before the write.
    func willDelete(_ key: ObjectKey, of table: Table) throws {
        var entry = tables[table.key]?[key] ?? Entry(existedBefore: true)
        if entry.existedBefore, !entry.wholeRow {
            for spec in table.columns where entry.old[spec.key] == nil {
                entry.old[spec.key] = try table.value(key, column: spec.key)
            }
            entry.wholeRow = true
        }
        tables[table.key, default: [:]][key] = entry
    }

    // MARK: Reading

    /// What the write changed in `table` (this log's write's table), as `Table.changes(since:)` would compare it
    /// with the version the write began from.
    package func changes(of table: Table) throws -> TableChanges {
        guard let entries = tables[table.key] else { return TableChanges() }
        var changes = TableChanges()
        let present = Set(table.columns.map(\.key))
        for (key, entry) in entries.sorted(by: { $0.key < $1.key }) {
            let exists = try table.contains(key)
            switch (entry.existedBefore, exists) {
            case (false, true): changes.insertions.append(key)
            case (true, false): changes.deletions.append(key)
            case (true, true):
                var columns: Set<ColumnKey> = []
                for (column, value) in entry.old where present.contains(column) {
                    if try table.value(key, column: column) != value { columns.insert(column) }
                }
                if !columns.isEmpty { changes.modifications[key] = columns }
            case (false, false): continue
            }
        }
        return changes
    }

    /// The value column `column` of object `key` of `table` had when the write began, or `nil` when the object
    /// did not exist then.
    package func valueBefore(_ key: ObjectKey, column: ColumnKey, of table: Table) throws -> StorageValue? {
        guard let entry = tables[table.key]?[key] else {
            return try table.contains(key) ? try table.value(key, column: column) : nil
        }
        guard entry.existedBefore else { return nil }
        if let old = entry.old[column] { return old }
        return try table.value(key, column: column)
    }

    /// Whether object `key` of `table` existed when the write began.
    package func existedBefore(_ key: ObjectKey, of table: Table) throws -> Bool {
        if let entry = tables[table.key]?[key] { return entry.existedBefore }
        return try table.contains(key)
    }
}
