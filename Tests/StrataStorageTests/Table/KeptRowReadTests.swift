@testable import StrataStorage
import StrataTestSupport
import XCTest

/// A read transaction's typed reads and `contains` find their row through `Table.keptRow(of:)`, which makes the
/// key's cluster the one kept for the next read and answers with the row alone (no `RowLocation` holding a copy of
/// the cluster's view). Reads of every kind, mixed in random order over many clusters, must give what the write
/// transaction that made the objects gives, and a key no object has must read as absent everywhere.
final class KeptRowReadTests: XCTestCase {
    func testMixedReadsInAReadTransactionAnswerAsTheWriterDoes() throws {
        let fixture = try TableFixture()
        let table = try fixture.catalog.createTable(named: "Item")
        let number = try table.addColumn(named: "number", type: .value(.int), nullable: false)
        let price = try table.addColumn(named: "price", type: .value(.double), nullable: true)
        let label = try table.addColumn(named: "label", type: .value(.string), nullable: true)
        var keys: [ObjectKey] = []
        for value in 0..<20_000 {
            keys.append(
                try table.insert([
                    (number, .int(Int64(value))),
                    (price, value % 7 == 0 ? .null : .double(Double(value) / 4)),
                    (label, value % 5 == 0 ? .null : .string("item \(value)")),
                ]))
        }
        try fixture.commit()
        // Every thirteenth object deleted: gaps inside clusters as well as at their ends.
        let writer = try XCTUnwrap(fixture.catalog.table(named: "Item"))
        var deleted: Set<Int64> = []
        for key in keys where key.rawValue % 13 == 0 {
            try writer.delete(key)
            deleted.insert(key.rawValue)
        }
        try fixture.commit()
        let truth = try XCTUnwrap(fixture.catalog.table(named: "Item"))
        // A table refers to its catalog without owning it: the read catalog is kept for the whole test.
        let readCatalog = try fixture.reader()
        defer { withExtendedLifetime(readCatalog) {} }
        let reader = try XCTUnwrap(readCatalog.table(named: "Item"))
        var clusters = 0
        try reader.forEachCluster { _ in
            clusters += 1
            return true
        }
        XCTAssertGreaterThan(clusters, 10, "the table spans many clusters")

        let lowest = keys.first!.rawValue
        let highest = keys.last!.rawValue
        var generator = SeededGenerator(seed: 19)
        for step in 0..<40_000 {
            let key = ObjectKey(Int64.random(in: lowest - 3...highest + 3, using: &generator))
            let exists = try truth.contains(key)
            XCTAssertEqual(exists, !deleted.contains(key.rawValue) && key.rawValue >= lowest && key.rawValue <= highest)
            let note = "step \(step), key \(key)"
            switch Int.random(in: 0..<4, using: &generator) {
            case 0:
                XCTAssertEqual(try reader.contains(key), exists, note)
            case 1:
                if exists {
                    XCTAssertEqual(try reader.int(key, column: number), try truth.int(key, column: number), note)
                } else {
                    XCTAssertThrowsError(try reader.int(key, column: number), note)
                }
            case 2:
                if exists {
                    XCTAssertEqual(try reader.double(key, column: price), try truth.double(key, column: price), note)
                } else {
                    XCTAssertThrowsError(try reader.double(key, column: price), note)
                }
            default:
                if exists {
                    XCTAssertEqual(try reader.string(key, column: label), try truth.string(key, column: label), note)
                } else {
                    XCTAssertThrowsError(try reader.string(key, column: label), note)
                }
            }
        }
    }

    func testAMissAfterAReadLeavesTheKeptClusterRight() throws {
        let fixture = try TableFixture()
        let table = try fixture.catalog.createTable(named: "Item")
        let number = try table.addColumn(named: "number", type: .value(.int), nullable: false)
        var keys: [ObjectKey] = []
        for value in 0..<5_000 { keys.append(try table.insert([(number, .int(Int64(value)))])) }
        try fixture.commit()
        let writer = try XCTUnwrap(fixture.catalog.table(named: "Item"))
        try writer.delete(keys[2_500])
        try fixture.commit()
        let readCatalog = try fixture.reader()
        defer { withExtendedLifetime(readCatalog) {} }
        let reader = try XCTUnwrap(readCatalog.table(named: "Item"))
        // A read, a miss in the same cluster, a miss outside the table, then reads around both.
        XCTAssertEqual(try reader.int(keys[2_499], column: number), 2_499)
        XCTAssertFalse(try reader.contains(keys[2_500]))
        XCTAssertFalse(try reader.contains(ObjectKey(keys.last!.rawValue + 1)))
        XCTAssertThrowsError(try reader.int(keys[2_500], column: number))
        XCTAssertEqual(try reader.int(keys[2_501], column: number), 2_501)
        XCTAssertTrue(try reader.contains(keys[0]))
        XCTAssertEqual(try reader.int(keys[2_498], column: number), 2_498)
        XCTAssertEqual(try reader.int(keys.last!, column: number), 4_999)
    }
}
