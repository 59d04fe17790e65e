import StrataStorage
import StrataTestSupport
import XCTest

/// Change detection reads nodes in proportion to the change, not to the table (counted reads, never time).
final class ChangeCostTests: XCTestCase {
    private var store: Store!
    private var table: TableKey!
    private var number: ColumnKey!
    private var label: ColumnKey!
    private var keys: [ObjectKey] = []

    override func setUpWithError() throws {
        store = try Store.inMemory(options: StoreOptions(durability: .none))
        let writer = try store.beginWrite()
        let catalog = try Catalog(writer: writer)
        let created = try catalog.createTable(named: "Big")
        number = try created.addColumn(named: "number", type: .value(.int))
        label = try created.addColumn(named: "name", type: .value(.string))
        for index in 0..<100_000 { keys.append(try created.insert([(number, .int(Int64(index))), (label, .string("row \(index)"))])) }
        table = created.key
        try catalog.flush()
        try writer.commit()
    }

    override func tearDown() {
        store.close()
        store = nil
    }

    /// Commits `body`'s changes to the big table.
    private func commit(_ body: (Table) throws -> Void) throws {
        let writer = try store.beginWrite()
        let catalog = try Catalog(writer: writer)
        try body(try XCTUnwrap(catalog.table(table)))
        try catalog.flush()
        try writer.commit()
    }

    /// Pins the newest version behind a read counter (the catalog owns the tables it hands out: keep it).
    private func countedSnapshot() throws -> (ReadTransaction, CountingReader, Catalog) {
        let transaction = try store.beginRead()
        let reader = CountingReader(transaction)
        return (transaction, reader, try Catalog(reader: reader))
    }

    /// Runs `change`, then compares the snapshots before and after; returns the changes and the nodes read.
    private func measure(_ change: (Table) throws -> Void) throws -> (TableChanges, Int) {
        let (olderTransaction, olderReader, older) = try countedSnapshot()
        defer { olderTransaction.end() }
        try commit(change)
        let (newerTransaction, newerReader, newer) = try countedSnapshot()
        defer { newerTransaction.end() }
        olderReader.reset()
        newerReader.reset()
        let changes = try XCTUnwrap(newer.table(table)).changes(since: older.table(table))
        return (changes, olderReader.reads + newerReader.reads)
    }

    func testOneUpdatedRowInAHundredThousandReadsAFewNodes() throws {
        let target = keys[54_321]
        let (changes, reads) = try measure { try $0.set(target, column: number, to: .int(-1)) }
        XCTAssertEqual(changes, TableChanges(modifications: [target: [number]]))
        // Each side reads the path to the one cluster that differs: the root branch, one inner branch, the cluster
        // (100,000 rows make a few hundred 16 KiB clusters at most, under 128-way branches: at most three levels).
        XCTAssertLessThanOrEqual(reads, 2 * 3, "nodes read for a one-row change")
    }

    func testOneInsertionAndOneDeletionReadAFewNodes() throws {
        let doomed = keys[777]
        var inserted: ObjectKey?
        let (changes, reads) = try measure { big in
            try big.delete(doomed)
            inserted = try big.insert([(number, .int(7)), (label, .string("new"))])
        }
        XCTAssertEqual(changes, TableChanges(insertions: [try XCTUnwrap(inserted)], deletions: [doomed]))
        // Each side: the root, then the inner branch and the cluster of each of the two changes.
        XCTAssertLessThanOrEqual(reads, 2 * 5, "nodes read for one insertion and one deletion")
    }

    func testAnUnchangedTableReadsNothing() throws {
        let (olderTransaction, olderReader, older) = try countedSnapshot()
        defer { olderTransaction.end() }
        let writer = try store.beginWrite()
        let catalog = try Catalog(writer: writer)
        try catalog.setMetadata([1], forKey: "touch")
        try catalog.flush()
        try writer.commit()
        let (newerTransaction, newerReader, newer) = try countedSnapshot()
        defer { newerTransaction.end() }
        olderReader.reset()
        newerReader.reset()
        XCTAssertTrue(try XCTUnwrap(newer.table(table)).changes(since: older.table(table)).isEmpty)
        XCTAssertEqual(olderReader.reads + newerReader.reads, 0)
    }
}
