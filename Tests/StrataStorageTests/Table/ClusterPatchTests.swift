import Foundation
@testable import StrataStorage
import StrataTestSupport
import XCTest

/// A change of one fixed-width value copies its stored cluster and rewrites the value's bits (`ClusterPatch`,
/// `NodeTree.patch`) instead of decoding and re-encoding the cluster; what reads back must be what the general
/// path would have written.
final class ClusterPatchTests: XCTestCase {
    private struct Columns {
        var int: ColumnKey
        var optionalInt: ColumnKey
        var bool: ColumnKey
        var float: ColumnKey
        var double: ColumnKey
        var optionalDouble: ColumnKey
        var timestamp: ColumnKey
        var name: ColumnKey
    }

    private static let rowCount = 2_000

    private static func expectedInt(_ row: Int) -> Int64 { Int64(row % 100) }
    private static func expectedOptionalInt(_ row: Int) -> Int64? { row % 3 == 0 ? nil : Int64(row) }
    private static func expectedOptionalDouble(_ row: Int) -> Double? { row % 4 == 0 ? nil : Double(row) / 8 }

    /// A committed table of `rowCount` objects (four clusters) with a column of each fixed-width kind.
    private func makeTable(in catalog: Catalog) throws -> (Table, Columns, [ObjectKey]) {
        let table = try catalog.createTable(named: "Sample")
        let columns = Columns(
            int: try table.addColumn(named: "int", type: .value(.int)),
            optionalInt: try table.addColumn(named: "optionalInt", type: .value(.int), nullable: true),
            bool: try table.addColumn(named: "bool", type: .value(.bool)),
            float: try table.addColumn(named: "float", type: .value(.float)),
            double: try table.addColumn(named: "double", type: .value(.double)),
            optionalDouble: try table.addColumn(named: "optionalDouble", type: .value(.double), nullable: true),
            timestamp: try table.addColumn(named: "timestamp", type: .value(.timestamp)),
            name: try table.addColumn(named: "name", type: .value(.string)))
        var keys: [ObjectKey] = []
        for row in 0..<Self.rowCount {
            keys.append(try table.insert([
                (columns.int, .int(Self.expectedInt(row))),
                (columns.optionalInt, Self.expectedOptionalInt(row).map { .int($0) } ?? .null),
                (columns.bool, .bool(row % 2 == 0)),
                (columns.float, .float(Float(row) / 2)),
                (columns.double, .double(Double(row) * 1.5)),
                (columns.optionalDouble, Self.expectedOptionalDouble(row).map { .double($0) } ?? .null),
                (columns.timestamp, .timestamp(Int64(row) * 1_000)),
                (columns.name, .string("name \(row)")),
            ]))
        }
        return (table, columns, keys)
    }

    private func sample(_ fixture: TableFixture) throws -> Table { try XCTUnwrap(fixture.catalog.table(named: "Sample")) }

    /// Checks every row of `table` against the values it was made with, except the rows `changed` lists.
    private func checkUnchangedRows(_ table: Table, _ columns: Columns, _ keys: [ObjectKey], except changed: Set<Int>) throws {
        for (row, key) in keys.enumerated() where !changed.contains(row) {
            XCTAssertEqual(try table.int(key, column: columns.int), Self.expectedInt(row), "int of row \(row)")
            XCTAssertEqual(try table.int(key, column: columns.optionalInt), Self.expectedOptionalInt(row), "optional int of row \(row)")
            XCTAssertEqual(try table.bool(key, column: columns.bool), row % 2 == 0, "bool of row \(row)")
            XCTAssertEqual(try table.float(key, column: columns.float), Float(row) / 2, "float of row \(row)")
            XCTAssertEqual(try table.double(key, column: columns.double), Double(row) * 1.5, "double of row \(row)")
            XCTAssertEqual(try table.double(key, column: columns.optionalDouble), Self.expectedOptionalDouble(row))
            XCTAssertEqual(try table.timestamp(key, column: columns.timestamp), Int64(row) * 1_000, "timestamp of row \(row)")
            XCTAssertEqual(try table.string(key, column: columns.name), "name \(row)", "name of row \(row)")
        }
    }

    func testEveryFixedWidthKindIsPatchedWithoutDecodingTheTree() throws {
        let fixture = try TableFixture()
        let (_, columns, keys) = try makeTable(in: fixture.catalog)
        try fixture.commit()
        // Values inside each cluster's frame: ints and timestamps between the cluster's smallest and largest (the
        // value of the row's neighbour, whatever the rows the cluster holds).
        func changedInt(_ row: Int) -> Int64 { Self.expectedInt(row) ^ 1 }
        func changedOptionalInt(_ row: Int) -> Int64 { Int64(row == Self.rowCount - 1 ? row - 1 : row + 1) }
        func changes(_ row: Int) -> [(ColumnKey, StorageValue)] {
            [(columns.int, .int(changedInt(row))), (columns.optionalInt, .int(changedOptionalInt(row))), (columns.bool, .bool(false)),
             (columns.float, .float(-3.25)), (columns.double, .double(.pi)), (columns.optionalDouble, .double(-0.5)),
             (columns.timestamp, .timestamp(Int64(row) * 1_000 + 500))]
        }
        let rows = [0, 1, 511, 512, 1_000, 1_999]
        for row in rows {
            for (column, value) in changes(row) {
                let table = try sample(fixture)
                try table.set(keys[row], column: column, to: value)
                XCTAssertFalse(table.tree.isLoaded, "setting \(value) in row \(row) should patch the stored cluster")
                try fixture.commit()
            }
        }
        let catalog = try fixture.reader()
        let reader = try XCTUnwrap(catalog.table(named: "Sample"))
        for row in rows {
            XCTAssertEqual(try reader.int(keys[row], column: columns.int), changedInt(row))
            XCTAssertEqual(try reader.int(keys[row], column: columns.optionalInt), changedOptionalInt(row))
            XCTAssertEqual(try reader.bool(keys[row], column: columns.bool), false)
            XCTAssertEqual(try reader.float(keys[row], column: columns.float), -3.25)
            XCTAssertEqual(try reader.double(keys[row], column: columns.double), .pi)
            XCTAssertEqual(try reader.double(keys[row], column: columns.optionalDouble), -0.5)
            XCTAssertEqual(try reader.timestamp(keys[row], column: columns.timestamp), Int64(row) * 1_000 + 500)
            XCTAssertEqual(try reader.string(keys[row], column: columns.name), "name \(row)")
        }
        try checkUnchangedRows(reader, columns, keys, except: Set(rows))
        XCTAssertEqual(try reader.count(), Self.rowCount)
        XCTAssertEqual(fixture.space.violations, [])
    }

    func testNullsAreSetAndClearedByPatch() throws {
        let fixture = try TableFixture()
        let (_, columns, keys) = try makeTable(in: fixture.catalog)
        try fixture.commit()
        // Row 1 holds values, row 3 and 4 nulls.
        for (row, column) in [(1, columns.optionalInt), (1, columns.optionalDouble), (4, columns.optionalDouble)] {
            let table = try sample(fixture)
            try table.set(keys[row], column: column, to: .null)
            XCTAssertFalse(table.tree.isLoaded, "a null in a column with a null bitmap is a patch")
            try fixture.commit()
        }
        var table = try sample(fixture)
        XCTAssertNil(try table.int(keys[1], column: columns.optionalInt))
        XCTAssertNil(try table.double(keys[1], column: columns.optionalDouble))
        try table.set(keys[3], column: columns.optionalInt, to: .int(33))
        try table.set(keys[4], column: columns.optionalDouble, to: .double(4.5))
        XCTAssertFalse(table.tree.isLoaded)
        try fixture.commit()
        table = try sample(fixture)
        XCTAssertEqual(try table.int(keys[3], column: columns.optionalInt), 33)
        XCTAssertEqual(try table.double(keys[4], column: columns.optionalDouble), 4.5)
        try checkUnchangedRows(table, columns, keys, except: [1, 3, 4])
        XCTAssertEqual(fixture.space.violations, [])
    }

    func testIntOutsideTheBlocksFrameTakesTheGeneralPathAndWidensTheBlock() throws {
        let fixture = try TableFixture()
        let (_, columns, keys) = try makeTable(in: fixture.catalog)
        try fixture.commit()
        // `int` holds 0...99 in 7 bits (width 8); 1,000 needs 16 bits and -1 lies below the base.
        for (row, value) in [(10, Int64(1_000)), (600, Int64(-1))] {
            let table = try sample(fixture)
            try table.set(keys[row], column: columns.int, to: .int(value))
            XCTAssertTrue(table.tree.isLoaded, "\(value) does not fit the frame: the cluster is re-encoded")
            try fixture.commit()
        }
        let table = try sample(fixture)
        XCTAssertEqual(try table.int(keys[10], column: columns.int), 1_000)
        XCTAssertEqual(try table.int(keys[600], column: columns.int), -1)
        var widths: [Int] = []
        try table.forEachCluster { cluster in
            widths.append(try cluster.intColumn(columns.int).width)
            return true
        }
        XCTAssertEqual(widths.first, 16, "the first cluster now holds 0...1,000")
        try checkUnchangedRows(table, columns, keys, except: [10, 600])
        XCTAssertEqual(fixture.space.violations, [])
    }

    func testSeveralChangesInOneTransactionPatchTheNewNodesInPlace() throws {
        let fixture = try TableFixture()
        let (_, columns, keys) = try makeTable(in: fixture.catalog)
        try fixture.commit()
        let before = fixture.space.committedNodeCount
        let table = try sample(fixture)
        for row in 0..<20 { try table.set(keys[row], column: columns.double, to: .double(-Double(row))) }
        XCTAssertFalse(table.tree.isLoaded)
        try fixture.commit()
        // One cluster, its branch and the catalog were replaced: the old nodes are freed, no copy is left over.
        XCTAssertEqual(fixture.space.committedNodeCount, before)
        let catalog = try fixture.reader()
        let reader = try XCTUnwrap(catalog.table(named: "Sample"))
        for row in 0..<20 { XCTAssertEqual(try reader.double(keys[row], column: columns.double), -Double(row)) }
        try checkUnchangedRows(reader, columns, keys, except: Set(0..<20))
        XCTAssertEqual(fixture.space.violations, [])
    }

    func testPatchesMixWithInsertsAndDeletesInOneTransaction() throws {
        let fixture = try TableFixture()
        let (_, columns, keys) = try makeTable(in: fixture.catalog)
        try fixture.commit()
        let table = try sample(fixture)
        try table.set(keys[5], column: columns.float, to: .float(0.125))
        let added = try table.insert([(columns.int, .int(5)), (columns.name, .string("added"))])
        // The tree is decoded now: this change takes the general path, over the patched cluster.
        try table.set(keys[6], column: columns.float, to: .float(0.25))
        try table.delete(keys[7])
        try fixture.commit()
        let next = try sample(fixture)
        try next.set(keys[8], column: columns.bool, to: .bool(true))
        try fixture.commit()
        let catalog = try fixture.reader()
        let reader = try XCTUnwrap(catalog.table(named: "Sample"))
        XCTAssertEqual(try reader.float(keys[5], column: columns.float), 0.125)
        XCTAssertEqual(try reader.float(keys[6], column: columns.float), 0.25)
        XCTAssertFalse(try reader.contains(keys[7]))
        XCTAssertEqual(try reader.bool(keys[8], column: columns.bool), true)
        XCTAssertEqual(try reader.string(added, column: columns.name), "added")
        XCTAssertEqual(try reader.count(), Self.rowCount)
        try checkUnchangedRows(reader, columns, keys, except: [5, 6, 7, 8])
        XCTAssertEqual(fixture.space.violations, [])
    }

    func testRolledBackPatchLeavesTheCommittedCluster() throws {
        let fixture = try TableFixture()
        let (_, columns, keys) = try makeTable(in: fixture.catalog)
        try fixture.commit()
        try sample(fixture).set(keys[100], column: columns.timestamp, to: .timestamp(1))
        try fixture.catalog.flush()
        try fixture.rollback()
        try checkUnchangedRows(try sample(fixture), columns, keys, except: [])
        XCTAssertEqual(fixture.space.violations, [])
    }

    func testMissingObjectIsReportedAfterThePatchFindsNoRow() throws {
        let fixture = try TableFixture()
        let (_, columns, keys) = try makeTable(in: fixture.catalog)
        try fixture.commit()
        let table = try sample(fixture)
        try table.delete(keys[50])
        try fixture.commit()
        XCTAssertThrowsError(try sample(fixture).set(keys[50], column: columns.double, to: .double(1))) { error in
            XCTAssertTrue("\(error)".contains("has no object"), "\(error)")
        }
    }

    func testPatchesOfSpilledNodesAndPinnedReadersInAStore() throws {
        var options = StoreOptions(durability: .none)
        // Small enough that a transaction writing long values spills the clusters it patched before them; patching
        // those again must copy them.
        options.spillThreshold = 64 << 10
        let store = try Store.inMemory(options: options)
        defer { store.close() }
        var keys: [ObjectKey] = []
        var columns: Columns?
        var filler: ColumnKey?
        do {
            let writer = try store.beginWrite()
            let catalog = try Catalog(writer: writer)
            let made = try makeTable(in: catalog)
            (columns, keys) = (made.1, made.2)
            filler = try catalog.createTable(named: "Filler").addColumn(named: "text", type: .value(.string))
            try catalog.flush()
            try writer.commit()
        }
        let columnKeys = try XCTUnwrap(columns)
        let text = try XCTUnwrap(filler)
        let pinned = try store.beginRead()
        defer { pinned.end() }
        for round in 0..<3 {
            let writer = try store.beginWrite()
            let catalog = try Catalog(writer: writer)
            let table = try XCTUnwrap(catalog.table(named: "Sample"))
            for (row, key) in keys.enumerated() where row % 7 == round {
                try table.set(key, column: columnKeys.double, to: .double(-1))
            }
            let long = String(repeating: "long value ", count: 500)
            for _ in 0..<30 { try XCTUnwrap(catalog.table(named: "Filler")).insert([(text, .string(long))]) }
            try catalog.flush()
            XCTAssertTrue(writer.dirty.values.contains { $0.spilledChecksum != nil }, "30 long values pass the threshold")
            for (row, key) in keys.enumerated() where row % 7 == round + 3 {
                try table.set(key, column: columnKeys.double, to: .double(-2))
            }
            XCTAssertFalse(table.tree.isLoaded)
            try catalog.flush()
            try writer.commit()
        }
        let oldCatalog = try Catalog(reader: pinned)
        let old = try XCTUnwrap(oldCatalog.table(named: "Sample"))
        try checkUnchangedRows(old, columnKeys, keys, except: [])
        let reading = try store.beginRead()
        defer { reading.end() }
        let newCatalog = try Catalog(reader: reading)
        let new = try XCTUnwrap(newCatalog.table(named: "Sample"))
        for (row, key) in keys.enumerated() {
            let expected = row % 7 < 3 ? -1 : row % 7 < 6 ? -2 : Double(row) * 1.5
            XCTAssertEqual(try new.double(key, column: columnKeys.double), expected, "row \(row)")
        }
        try checkUnchangedRows(new, columnKeys, keys, except: Set(keys.indices.filter { $0 % 7 < 6 }))
        // Every page is reachable or free exactly once, every checksum holds.
        XCTAssertEqual(try store.verifyAll().objects, Self.rowCount + 90)
    }
}
