import Foundation
@testable import StrataStorage
import StrataTestSupport
import XCTest

/// Clusters split by the bytes of their node, not by a row count: a cluster fills its 16 KiB, whatever its rows
/// look like, and never passes it.
final class ClusterSizeTests: XCTestCase {
    /// Payload bytes of each cluster node of `table`, in key order.
    private func nodeSizes(_ table: Table, in space: MemoryNodeSpace) throws -> [(rows: Int, bytes: Int)] {
        var sizes: [(rows: Int, bytes: Int)] = []
        try table.forEachCluster { cluster in
            sizes.append((cluster.count, try space.read(cluster.view.ref).count))
            return true
        }
        return sizes
    }

    /// The benchmark's employees: id, name, age, hired, salary.
    private func insertEmployees(_ count: Int, into table: Table, order: [Int]? = nil) throws -> [ColumnKey] {
        let id = try table.addColumn(named: "id", type: .value(.int))
        let name = try table.addColumn(named: "name", type: .value(.string))
        let age = try table.addColumn(named: "age", type: .value(.int))
        let hired = try table.addColumn(named: "hired", type: .value(.bool))
        let salary = try table.addColumn(named: "salary", type: .value(.double))
        for i in order ?? Array(0..<count) {
            try table.insert(
                [(id, .int(Int64(i))), (name, .string("name-\(i)")), (age, .int(Int64(i % 100))),
                 (hired, .bool(i % 2 == 0)), (salary, .double(Double(i) * 1.5))],
                key: ObjectKey(Int64(i)))
        }
        return [id, name, age, hired, salary]
    }

    /// The packed width a cluster sizes itself by is the smallest listed width holding the range, at every bit
    /// length and on both sides of each power of two.
    func testPackedWidthIsTheSmallestListedWidthHoldingTheRange() {
        var ranges: [UInt64] = [0, 1, 2, 3, UInt64.max]
        for shift in 1..<64 {
            let power = UInt64(1) << UInt64(shift)
            ranges += [power - 1, power, power + 1]
        }
        for range in ranges {
            let expected = IntPacking.widths.first { $0 == 64 || range < (UInt64(1) << UInt64($0)) }
            XCTAssertEqual(IntPacking.width(forRange: range), expected, "range \(range)")
        }
    }

    func testBulkInsertFillsEveryClusterButTheLastToTheByteLimit() throws {
        let fixture = try TableFixture()
        let table = try fixture.catalog.createTable(named: "Employee")
        _ = try insertEmployees(20_000, into: table)
        try fixture.commit()
        let sizes = try nodeSizes(try XCTUnwrap(fixture.catalog.table(named: "Employee")), in: fixture.space)
        XCTAssertEqual(sizes.reduce(0) { $0 + $1.rows }, 20_000)
        XCTAssertGreaterThan(sizes.count, 2)
        for (index, size) in sizes.enumerated() {
            XCTAssertLessThanOrEqual(size.bytes, ClusterBuffer.maxEncodedBytes, "cluster \(index) passes the limit")
            guard index < sizes.count - 1 else { continue }
            // One more row (about 30 bytes, plus a bitmap or packed word rounding up) would not have fit.
            XCTAssertGreaterThan(size.bytes, ClusterBuffer.maxEncodedBytes - 160, "cluster \(index) left room: \(size)")
            XCTAssertGreaterThan(size.rows, 512, "small rows fill more than the old fixed 512 rows")
        }
    }

    /// Values growing after a bulk insert (a backlink added, a longer string) overfill clusters whose last change
    /// was an append: they split in halves, not by shedding one row at a time.
    func testValuesGrowingAfterABulkInsertSplitClustersInHalves() throws {
        let fixture = try TableFixture()
        let table = try fixture.catalog.createTable(named: "Growing")
        let text = try table.addColumn(named: "text", type: .value(.string))
        let keys = try (0..<4000).map { try table.insert([(text, .string("v\($0)"))]) }
        for (i, key) in keys.enumerated() { try table.set(key, column: text, to: .string("longer value \(i)")) }
        try fixture.commit()
        let grown = try XCTUnwrap(fixture.catalog.table(named: "Growing"))
        let sizes = try nodeSizes(grown, in: fixture.space)
        XCTAssertEqual(sizes.reduce(0) { $0 + $1.rows }, 4000)
        for size in sizes.dropLast() {
            XCTAssertLessThanOrEqual(size.bytes, ClusterBuffer.maxEncodedBytes)
            XCTAssertGreaterThan(size.rows, 100, "no cluster of a few rows: \(sizes.map(\.rows))")
        }
        XCTAssertEqual(try grown.string(keys[3999], column: text), "longer value 3999")
        try fixture.catalog.verify()
    }

    func testWideRowsMakeClustersOfFewRowsWithinTheLimit() throws {
        let fixture = try TableFixture()
        let table = try fixture.catalog.createTable(named: "Notes")
        let text = try table.addColumn(named: "text", type: .value(.string))
        let body = String(repeating: "w", count: 900)
        for i in 0..<300 { try table.insert([(text, .string("\(i) " + body))]) }
        try fixture.commit()
        let notes = try XCTUnwrap(fixture.catalog.table(named: "Notes"))
        let sizes = try nodeSizes(notes, in: fixture.space)
        XCTAssertEqual(sizes.reduce(0) { $0 + $1.rows }, 300)
        for size in sizes {
            XCTAssertLessThanOrEqual(size.bytes, ClusterBuffer.maxEncodedBytes)
            XCTAssertLessThanOrEqual(size.rows, 18, "900-byte rows: at most 18 fit 16 KiB")
        }
        XCTAssertEqual(try notes.string(ObjectKey(123), column: text), "123 " + body)
        try fixture.catalog.verify()
    }

    func testInsertsInRandomOrderKeepEveryClusterWithinTheLimitAndEveryValue() throws {
        let fixture = try TableFixture()
        let table = try fixture.catalog.createTable(named: "Employee")
        var random = SeededGenerator(seed: 11)
        let order = Array(0..<6000).shuffled(using: &random)
        let columns = try insertEmployees(6000, into: table, order: order)
        try fixture.commit()
        let stored = try XCTUnwrap(fixture.catalog.table(named: "Employee"))
        let sizes = try nodeSizes(stored, in: fixture.space)
        for size in sizes { XCTAssertLessThanOrEqual(size.bytes, ClusterBuffer.maxEncodedBytes) }
        XCTAssertEqual(try stored.keys(), (0..<6000).map { ObjectKey(Int64($0)) })
        for i in stride(from: 0, to: 6000, by: 37) {
            XCTAssertEqual(try stored.string(ObjectKey(Int64(i)), column: columns[1]), "name-\(i)")
            XCTAssertEqual(try stored.value(ObjectKey(Int64(i)), column: columns[4]), .double(Double(i) * 1.5))
        }
        try fixture.catalog.verify()
    }

    /// `encodedByteCount` is what a full cluster is judged by: it must be the node's size exactly for every block
    /// kind (stored, or decoded and changed), and never less than it after removals.
    func testEncodedByteCountIsTheSizeOfTheNodeWritten() throws {
        let fixture = try TableFixture()
        let table = try fixture.catalog.createTable(named: "Mixed")
        let number = try table.addColumn(named: "number", type: .value(.int), nullable: true)
        let flag = try table.addColumn(named: "flag", type: .value(.bool), nullable: true)
        let ratio = try table.addColumn(named: "ratio", type: .value(.float))
        let amount = try table.addColumn(named: "amount", type: .value(.double), nullable: true)
        let token = try table.addColumn(named: "token", type: .value(.uuid), nullable: true)
        let text = try table.addColumn(named: "text", type: .value(.string), nullable: true)
        let bytes = try table.addColumn(named: "bytes", type: .value(.binary))
        let list = try table.addColumn(named: "list", type: .list(.int))
        let when = try table.addColumn(named: "when", type: .value(.timestamp))
        for i in 0..<400 {
            try table.insert([
                (number, i % 9 == 0 ? .null : .int(Int64(i * i - 5000))),
                (flag, i % 4 == 0 ? .null : .bool(i % 3 == 0)),
                (ratio, .float(Float(i) / 7)),
                (amount, i % 5 == 0 ? .null : .double(Double(i))),
                (token, i % 2 == 0 ? .null : .uuid(UUID())),
                (text, i % 6 == 0 ? .null : .string(i == 17 ? String(repeating: "long ", count: 400) : "text \(i)")),
                (bytes, .binary(Array(repeating: UInt8(i & 0xFF), count: i % 13))),
                (list, .list((0..<(i % 4)).map { .int(Int64($0 * i)) })),
                (when, .timestamp(1_700_000_000_000_000_000 + Int64(i) * 1_000_000)),
            ])
        }
        try fixture.commit()
        let mixed = try XCTUnwrap(fixture.catalog.table(named: "Mixed"))
        var clusters = 0
        try mixed.forEachCluster { leaf in
            clusters += 1
            let stored = try ClusterBuffer(view: leaf.view, specs: mixed.context.specs)
            XCTAssertEqual(stored.encodedByteCount, try fixture.space.read(leaf.view.ref).count, "stored blocks")
            let decoded = try ClusterBuffer(view: leaf.view, specs: mixed.context.specs)
            for column in decoded.columns { _ = column.nulls }
            let written = try decoded.encode(in: fixture.space)
            XCTAssertEqual(decoded.encodedByteCount, try fixture.space.read(written).count, "decoded columns")
            for row in stride(from: decoded.rowCount - 1, through: 0, by: -3) {
                decoded.keys.remove(at: row)
                for column in decoded.columns { _ = column.remove(at: row) }
            }
            let shrunk = try decoded.encode(in: fixture.space)
            XCTAssertGreaterThanOrEqual(decoded.encodedByteCount, try fixture.space.read(shrunk).count, "after removals")
            return true
        }
        XCTAssertGreaterThan(clusters, 1)
    }
}
