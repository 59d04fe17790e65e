import StrataStorage
import StrataTestSupport
import XCTest

/// A pinned committed version of a store and its catalog, for change-detection tests.
final class Snapshot {
    let transaction: ReadTransaction
    let catalog: Catalog
    private var rowsCache: [TableKey: [ObjectKey: [ColumnKey: StorageValue]]] = [:]

    init(_ store: Store) throws {
        transaction = try store.beginRead()
        catalog = try Catalog(reader: transaction)
    }

    deinit { transaction.end() }

    /// Every object of `table` with every column's value, read one value at a time (the brute force the
    /// comparison is checked against).
    func rows(of table: TableKey) throws -> [ObjectKey: [ColumnKey: StorageValue]] {
        if let cached = rowsCache[table] { return cached }
        var rows: [ObjectKey: [ColumnKey: StorageValue]] = [:]
        if let found = catalog.table(table) {
            for key in try found.keys() {
                var values: [ColumnKey: StorageValue] = [:]
                for column in found.columns { values[column.key] = try found.value(key, column: column.key) }
                rows[key] = values
            }
        }
        rowsCache[table] = rows
        return rows
    }

    /// The changes to `table` from `older` to this snapshot, found by comparing every row of both.
    func bruteForceChanges(of table: TableKey, since older: Snapshot) throws -> TableChanges {
        let before = try older.rows(of: table)
        let after = try rows(of: table)
        var changes = TableChanges()
        changes.insertions = after.keys.filter { before[$0] == nil }.sorted()
        changes.deletions = before.keys.filter { after[$0] == nil }.sorted()
        for (key, values) in after {
            guard let old = before[key] else { continue }
            let differing = values.filter { column, value in old[column].map { $0 != value } ?? false }.map(\.key)
            if !differing.isEmpty { changes.modifications[key] = Set(differing) }
        }
        return changes
    }
}

/// A `NodeReader` that counts the nodes read through it.
final class CountingReader: NodeReader {
    let base: NodeReader
    private(set) var reads = 0

    init(_ base: NodeReader) { self.base = base }

    var root: NodeRef { base.root }

    func read(_ ref: NodeRef) throws -> UnsafeRawBufferPointer {
        reads += 1
        return try base.read(ref)
    }

    /// Starts counting again from zero.
    func reset() { reads = 0 }
}
