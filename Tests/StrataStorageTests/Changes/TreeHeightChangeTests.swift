import StrataStorage
import StrataTestSupport
import XCTest

/// Trees of different heights: the root splits (or the tree shrinks back) between the two snapshots.
final class TreeHeightChangeTests: XCTestCase {
    func testATreeThatGrowsALevelReportsExactlyWhatChanged() throws {
        let store = try Store.inMemory(options: StoreOptions(durability: .none))
        defer { store.close() }
        var writer = try store.beginWrite()
        var catalog = try Catalog(writer: writer)
        var table = try catalog.createTable(named: "Tall")
        let number = try table.addColumn(named: "number", type: .value(.int))
        // Appends fill clusters completely: 255 clusters of 1,024 objects, one short of a second tree level.
        var keys: [ObjectKey] = []
        for index in 0..<(255 * 1024) { keys.append(try table.insert([(number, .int(Int64(index)))])) }
        try catalog.flush()
        try writer.commit()
        let short = try Snapshot(store)

        writer = try store.beginWrite()
        catalog = try Catalog(writer: writer)
        table = try XCTUnwrap(catalog.table(named: "Tall"))
        var expected = TableChanges()
        for index in 0..<(4 * 1024) { expected.insertions.append(try table.insert([(number, .int(Int64(index)))])) }
        for position in [5, 70_000, 200_001] {
            try table.set(keys[position], column: number, to: .int(-1))
            expected.modifications[keys[position]] = [number]
        }
        for position in [1, 130_000, 261_000] {
            try table.delete(keys[position])
            expected.deletions.append(keys[position])
        }
        try catalog.flush()
        try writer.commit()
        let tall = try Snapshot(store)

        let grown = try XCTUnwrap(tall.catalog.table(named: "Tall"))
        let before = try XCTUnwrap(short.catalog.table(named: "Tall"))
        XCTAssertEqual(try grown.changes(since: before), expected)
        // And backwards, from the taller tree to the shorter one: the same changes, mirrored.
        let mirrored = TableChanges(insertions: expected.deletions, deletions: expected.insertions, modifications: expected.modifications)
        XCTAssertEqual(try before.changes(since: grown), mirrored)
    }
}
