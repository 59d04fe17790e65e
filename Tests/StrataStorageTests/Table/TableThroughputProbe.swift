import Foundation
import StrataStorage
import StrataTestSupport
import XCTest

/// Prints storage-level figures for the W1, W2 and W4 shapes (no assertions on time: speed is judged in
/// Benchmarks/). Runs only with `STRATA_TABLE_PROBE=1`, ideally in release:
/// `STRATA_TABLE_PROBE=1 swift test -c release -Xswiftc -enable-testing --filter TableThroughputProbe`.
final class TableThroughputProbe: XCTestCase {
    func testPrintEmployeeWorkloadFigures() throws {
        guard ProcessInfo.processInfo.environment["STRATA_TABLE_PROBE"] == "1" else { throw XCTSkip("set STRATA_TABLE_PROBE=1") }
        let rows = 1_000_000
        let space = MemoryNodeSpace()
        var catalog = try Catalog(writer: space)
        let table = try catalog.createTable(named: "Employee")
        let id = try table.addColumn(named: "id", type: .value(.int))
        let name = try table.addColumn(named: "name", type: .value(.string))
        let age = try table.addColumn(named: "age", type: .value(.int))
        let hired = try table.addColumn(named: "hired", type: .value(.bool))
        let salary = try table.addColumn(named: "salary", type: .value(.double))
        try table.setPrimaryKey(id)
        var start = Date()
        for index in 0..<rows {
            try table.insert([(id, .int(Int64(index))), (name, .string("name-\(index)")), (age, .int(Int64(index % 100))),
                              (hired, .bool(index % 2 == 0)), (salary, .double(Double(index) * 1.5))])
        }
        try catalog.flush()
        space.commit()
        print("W1 insert: \(Int(Double(rows) / Date().timeIntervalSince(start))) rows/s, \(space.committedNodeCount) nodes")
        catalog = try Catalog(reader: space)
        let employees = catalog.table(named: "Employee")!
        start = Date()
        var matches = 0
        for _ in 0..<50 {
            matches = 0
            try employees.forEachCluster { cluster in
                var mask = try cluster.intColumn(age).matches(.greater, 50)
                mask.formIntersection(try cluster.boolColumn(hired).matches(true))
                matches += mask.setCount
                return true
            }
        }
        print("W2 count: \(matches) matches, \(50 / Date().timeIntervalSince(start)) queries/s")
        var random = SeededGenerator(seed: 42)
        start = Date()
        var length = 0
        for _ in 0..<100_000 {
            let key = try employees.find(primaryKey: .int(Int64.random(in: 0..<Int64(rows), using: &random)))!
            length += try employees.string(key, column: name)!.utf8.count
        }
        print("W4 lookups: \(Int(100_000 / Date().timeIntervalSince(start))) /s (\(length) bytes)")
    }
}
