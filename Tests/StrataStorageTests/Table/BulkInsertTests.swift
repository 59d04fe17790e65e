import StrataStorage
import StrataTestSupport
import XCTest

/// The bulk-insert paths: entries of non-unique indexes gathered and merged in sorted batches, and inserts that
/// take values in the caller's column order.
final class BulkInsertTests: XCTestCase {
    private var fixture: TableFixture!
    private var table: Table!
    private var id: ColumnKey!
    private var nameColumn: ColumnKey!
    private var age: ColumnKey!

    override func setUpWithError() throws {
        fixture = try TableFixture()
        table = try fixture.catalog.createTable(named: "Employee")
        id = try table.addColumn(named: "id", type: .value(.int))
        nameColumn = try table.addColumn(named: "name", type: .value(.string))
        age = try table.addColumn(named: "age", type: .value(.int), nullable: true)
        try table.setPrimaryKey(id)
    }

    /// Names in no order at all relative to the keys, as "name-1", "name-10", "name-100" sort.
    private func label(_ number: Int) -> String { "name-\(number)" }

    func testIndexMatchesObjectsInsertedInOneWriteWithValuesOutOfOrder() throws {
        let index = try table.addIndex(on: [nameColumn])
        for number in 0..<20_000 {
            try table.insert([(id, .int(Int64(number))), (nameColumn, .string(label(number)))])
        }
        try fixture.commit()
        let stored = try XCTUnwrap(fixture.catalog.table(named: "Employee"))
        for number in [0, 1, 9, 10, 99, 1000, 12_345, 19_999] {
            XCTAssertEqual(try stored.lookup(index, equal: [.string(label(number))]), [ObjectKey(Int64(number))])
        }
        let prefixed = try stored.lookup(index, prefix: "name-19")
        XCTAssertEqual(prefixed.count, 1 + 10 + 100 + 1000, "name-19, name-19x, name-19xx, name-19xxx")
        XCTAssertEqual(try stored.lookup(index, prefix: "name-").count, 20_000)
        try fixture.catalog.verify()
    }

    func testLookupInsideTheWriteSeesObjectsJustInserted() throws {
        let index = try table.addIndex(on: [nameColumn])
        for number in 0..<500 {
            try table.insert([(id, .int(Int64(number))), (nameColumn, .string(label(number % 50)))])
        }
        XCTAssertEqual(try table.lookup(index, equal: [.string(label(7))]).count, 10, "before any commit")
        try table.insert([(id, .int(500)), (nameColumn, .string(label(7)))])
        XCTAssertEqual(try table.lookup(index, equal: [.string(label(7))]).count, 11, "an insert after a lookup")
        try fixture.commit()
        try fixture.catalog.verify()
    }

    func testSecondBatchInterleavesWithCommittedEntries() throws {
        let index = try table.addIndex(on: [age])
        for number in stride(from: 0, to: 6000, by: 2) {
            try table.insert([(id, .int(Int64(number))), (age, .int(Int64(number)))])
        }
        try fixture.commit()
        var stored = try XCTUnwrap(fixture.catalog.table(named: "Employee"))
        for number in stride(from: 5999, through: 1, by: -2) {
            let value: StorageValue = number % 7 == 0 ? .null : .int(Int64(number))
            try stored.insert([(id, .int(Int64(number))), (age, value)])
        }
        try fixture.commit()
        stored = try XCTUnwrap(fixture.catalog.table(named: "Employee"))
        let valued: [Int] = (0..<6000).filter { $0 % 2 == 0 || $0 % 7 != 0 }
        let expected = valued.map { ObjectKey(Int64($0)) }
        XCTAssertEqual(try stored.lookup(index, from: .int(0), to: .int(6000)), expected, "index order is value order")
        XCTAssertEqual(try stored.lookup(index, equal: [.null]).count, 6000 - valued.count)
        try fixture.catalog.verify()
    }

    func testUpdatesAndDeletesAfterPendingInsertsKeepTheIndexExact() throws {
        let index = try table.addIndex(on: [age])
        for number in 0..<3000 { try table.insert([(id, .int(Int64(number))), (age, .int(Int64(number % 30)))]) }
        try table.set(ObjectKey(5), column: age, to: .int(99))
        try table.delete(ObjectKey(35))
        for number in 3000..<3100 { try table.insert([(id, .int(Int64(number))), (age, .int(5))]) }
        XCTAssertEqual(try table.lookup(index, equal: [.int(99)]), [ObjectKey(5)])
        XCTAssertEqual(try table.lookup(index, equal: [.int(5)]).count, 100 - 2 + 100)
        try fixture.commit()
        try fixture.catalog.verify()
    }

    func testRolledBackInsertsLeaveNoIndexEntries() throws {
        let index = try table.addIndex(on: [nameColumn])
        try table.insert([(id, .int(1)), (nameColumn, .string("kept"))])
        try fixture.commit()
        let again = try XCTUnwrap(fixture.catalog.table(named: "Employee"))
        for number in 2..<1000 { try again.insert([(id, .int(Int64(number))), (nameColumn, .string("dropped"))]) }
        try fixture.rollback()
        let stored = try XCTUnwrap(fixture.catalog.table(named: "Employee"))
        XCTAssertEqual(try stored.lookup(index, equal: [.string("dropped")]), [])
        XCTAssertEqual(try stored.lookup(index, equal: [.string("kept")]), [ObjectKey(1)])
        try fixture.catalog.verify()
    }

    func testValuesInTheCallersColumnOrderLandInTheirColumns() throws {
        let order: [ColumnKey] = [age, nameColumn, id]
        for number in 0..<1500 {
            try table.insert([.int(Int64(number % 90)), .string(label(number)), .int(Int64(number))], into: order)
        }
        try fixture.commit()
        let stored = try XCTUnwrap(fixture.catalog.table(named: "Employee"))
        XCTAssertEqual(try stored.count(), 1500)
        XCTAssertEqual(try stored.string(ObjectKey(1234), column: nameColumn), "name-1234")
        XCTAssertEqual(try stored.int(ObjectKey(1234), column: age), 1234 % 90)
        XCTAssertEqual(try stored.find(primaryKey: .int(777)), ObjectKey(777))
        try fixture.catalog.verify()
    }

    /// The column order `insert(_:into:)` keeps from one insert to the next is the last caller's: inserts that change
    /// the order (the whole row, a reordered subset, a column added to the table) each land in their own columns.
    func testInsertsThatChangeTheColumnOrderLandInTheirColumns() throws {
        for number in 0..<300 {
            switch number % 3 {
            case 0: try table.insert([.int(Int64(number)), .string(label(number)), .int(1)], into: [id, nameColumn, age])
            case 1: try table.insert([.string(label(number)), .int(Int64(number))], into: [nameColumn, id])
            default: try table.insert([.int(2), .int(Int64(number)), .string(label(number))], into: [age, id, nameColumn])
            }
        }
        let note = try table.addColumn(named: "note", type: .value(.string), nullable: true)
        try table.insert([.int(300), .string(label(300)), .int(3)], into: [id, nameColumn, age])
        try table.insert([.string("noted"), .int(301), .string(label(301))], into: [note, id, nameColumn])
        try fixture.commit()
        let stored = try XCTUnwrap(fixture.catalog.table(named: "Employee"))
        XCTAssertEqual(try stored.count(), 302)
        for number in 0..<302 {
            let key = try XCTUnwrap(try stored.find(primaryKey: .int(Int64(number))), "\(number)")
            XCTAssertEqual(try stored.string(key, column: nameColumn), label(number), "\(number)")
            let expectedAge: Int? = number == 301 ? nil : number == 300 ? 3 : [1, nil, 2][number % 3]
            XCTAssertEqual(try stored.int(key, column: age), expectedAge.map(Int64.init), "\(number)")
        }
        XCTAssertEqual(try stored.string(try XCTUnwrap(try stored.find(primaryKey: .int(301))), column: note), "noted")
        XCTAssertNil(try stored.string(try XCTUnwrap(try stored.find(primaryKey: .int(300))), column: note))
        try fixture.catalog.verify()
    }

    func testValuesForEveryColumnInStorageOrderAreTheRow() throws {
        let order: [ColumnKey] = [id, nameColumn, age]
        XCTAssertEqual(table.columns.map(\.key), order, "the fixture's storage order")
        for number in 0..<700 { try table.insert([.int(Int64(number)), .string(label(number)), .null], into: order) }
        XCTAssertThrowsError(try table.insert([.int(700), .int(7), .null], into: order)) { error in
            XCTAssertTrue("\(error)".contains("'name'"), "names the column: \(error)")
        }
        try fixture.commit()
        let stored = try XCTUnwrap(fixture.catalog.table(named: "Employee"))
        XCTAssertEqual(try stored.count(), 700)
        XCTAssertEqual(try stored.string(ObjectKey(699), column: nameColumn), "name-699")
        XCTAssertNil(try stored.int(ObjectKey(699), column: age))
        try fixture.catalog.verify()
    }

    func testPairsForEveryColumnInStorageOrderAreCheckedAndStored() throws {
        try table.insert([(id, .int(1)), (nameColumn, .string("in order")), (age, .int(40))])
        try table.insert([(age, .int(41)), (id, .int(2)), (nameColumn, .string("shuffled"))])
        XCTAssertThrowsError(try table.insert([(id, .int(3)), (nameColumn, .int(3)), (age, .null)])) { error in
            XCTAssertTrue("\(error)".contains("'name'"), "names the column: \(error)")
        }
        XCTAssertEqual(try table.count(), 2)
        XCTAssertEqual(try table.string(ObjectKey(1), column: nameColumn), "in order")
        XCTAssertEqual(try table.int(ObjectKey(1), column: age), 40)
        XCTAssertEqual(try table.int(ObjectKey(2), column: age), 41)
        try fixture.commit()
        try fixture.catalog.verify()
    }

    func testStringsOfEveryShapeReadBackBeforeAndAfterCommit() throws {
        let texts = ["", "a", "zero\u{0}inside", "ünïcödé ✓", String(repeating: "long ", count: 400), "name-123456"]
        for (number, text) in texts.enumerated() {
            try table.insert([(id, .int(Int64(number))), (nameColumn, .string(text))])
        }
        try table.set(ObjectKey(1), column: nameColumn, to: .string(String(repeating: "x", count: 2000)))
        for (number, text) in texts.enumerated() where number != 1 {
            XCTAssertEqual(try table.string(ObjectKey(Int64(number)), column: nameColumn), text, "in the write")
        }
        try fixture.commit()
        let stored = try XCTUnwrap(fixture.catalog.table(named: "Employee"))
        for (number, text) in texts.enumerated() where number != 1 {
            XCTAssertEqual(try stored.string(ObjectKey(Int64(number)), column: nameColumn), text, "committed")
        }
        XCTAssertEqual(try stored.string(ObjectKey(1), column: nameColumn), String(repeating: "x", count: 2000))
        try fixture.catalog.verify()
    }

    func testInsertInColumnOrderRefusesBadInputWithoutChangingTheTable() throws {
        try table.insert([.int(1), .string("one")], into: [id, nameColumn])
        XCTAssertThrowsError(try table.insert([.int(2)], into: [id, nameColumn])) { error in
            XCTAssertTrue("\(error)".contains("2 columns"), "\(error)")
        }
        XCTAssertThrowsError(try table.insert([.int(2), .int(3)], into: [id, nameColumn])) { error in
            XCTAssertTrue("\(error)".contains("'name'"), "names the column: \(error)")
        }
        XCTAssertThrowsError(try table.insert([.int(2)], into: [ColumnKey(rawValue: 999)])) { error in
            XCTAssertTrue("\(error)".contains("no column"), "\(error)")
        }
        XCTAssertThrowsError(try table.insert([.int(1), .string("again")], into: [id, nameColumn])) { error in
            guard case StrataError.duplicatePrimaryKey = error else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(try table.count(), 1)
        try fixture.commit()
        try fixture.catalog.verify()
    }
}
