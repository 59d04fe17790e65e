import Foundation
import StrataStorage
import StrataTestSupport
import XCTest

/// `Table.setUnindexedValues`, the storage call migrations fill whole columns with.
final class UnindexedValuesTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var store: Store!
    private var write: WriteTransaction!
    private var catalog: Catalog!  // a table only borrows its catalog
    private var table: Table!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
        store = try Store.open(
            path: directory.url.appendingPathComponent("values.strata").path, options: StoreOptions(durability: .none))
        write = try store.beginWrite()
        catalog = try Catalog(writer: write)
        table = try catalog.createTable(named: "Thing")
    }

    override func tearDown() {
        table = nil
        catalog = nil
        write?.rollback()
        store?.close()
        directory = nil
    }

    func testValuesLandInEveryClusterAndLaterChangesWin() throws {
        let number = try table.addColumn(named: "number", type: .value(.int))
        let text = try table.addColumn(named: "text", type: .value(.string), nullable: true)
        var keys: [ObjectKey] = []
        for index in 0..<5_000 { keys.append(try table.insert([(number, .int(Int64(index)))])) }
        var changes = keys.reversed().map {
            Table.UnindexedValue(key: $0, column: text, value: .string("t\($0.rawValue)"))
        }
        changes.append(Table.UnindexedValue(key: keys[7], column: text, value: .null))
        changes.append(Table.UnindexedValue(key: keys[9], column: number, value: .int(-9)))
        try table.setUnindexedValues(changes)
        XCTAssertEqual(try table.string(keys[0], column: text), "t\(keys[0].rawValue)")
        XCTAssertEqual(try table.string(keys[4_999], column: text), "t\(keys[4_999].rawValue)")
        XCTAssertNil(try table.string(keys[7], column: text), "the later change to the same cell wins")
        XCTAssertEqual(try table.int(keys[9], column: number), -9)
        XCTAssertEqual(try table.int(keys[10], column: number), 10)
        XCTAssertEqual(try table.count(), 5_000)
    }

    func testIndexedAndLinkColumnsAreRefusedWithoutWriting() throws {
        let number = try table.addColumn(named: "number", type: .value(.int))
        let link = try table.addColumn(named: "next", type: .value(.link), target: table.key)
        try table.addIndex(on: [number])
        let key = try table.insert([(number, .int(1))])
        XCTAssertFalse(table.acceptsUnindexedValues(in: number))
        XCTAssertFalse(table.acceptsUnindexedValues(in: link))
        XCTAssertThrowsError(
            try table.setUnindexedValues([Table.UnindexedValue(key: key, column: number, value: .int(2))]))
        XCTAssertThrowsError(
            try table.setUnindexedValues([Table.UnindexedValue(key: key, column: link, value: .link(key))]))
        XCTAssertEqual(try table.int(key, column: number), 1)
    }

    func testWrongTypeAndMissingObjectAreRefused() throws {
        let number = try table.addColumn(named: "number", type: .value(.int))
        let key = try table.insert([(number, .int(1))])
        XCTAssertThrowsError(
            try table.setUnindexedValues([Table.UnindexedValue(key: key, column: number, value: .string("x"))]))
        XCTAssertEqual(try table.int(key, column: number), 1)
        XCTAssertThrowsError(
            try table.setUnindexedValues([Table.UnindexedValue(key: ObjectKey(999), column: number, value: .int(3))]))
    }
}
