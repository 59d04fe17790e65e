import Foundation
@testable import StrataStorage
import StrataTestSupport
import XCTest

/// A transaction that decodes more clusters and index leaves than `Catalog.loadedLeafLimit` writes them out
/// mid-transaction; with a small `StoreOptions.spillThreshold` those nodes then reach the file before commit.
/// Changing them again in the same transaction (growing values, deleting rows, moving index entries) must copy
/// them and leave exactly the rows and index entries a transaction without either bound would have.
final class LoadedLeafLimitTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("strata-leaf-limit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    /// Rows filling about three times the loaded-leaf limit of 16 KiB clusters (80-odd bytes a row), and more
    /// nodes than a spill keeps in memory (`WriteTransaction.unspilledNewest`).
    private var rowCount: Int { max(Catalog.loadedLeafLimit * 3, WriteTransaction.unspilledNewest * 3) * 200 }

    private func label(_ row: Int, grown: Bool) -> String {
        let base = "employee-\(row)-" + String(repeating: "x", count: 48)
        return grown ? base + String(repeating: "y", count: 40) : base
    }

    private func group(_ row: Int) -> Int64 { Int64(row % 97) }

    func testClustersWrittenOutAndSpilledMidTransactionTakeLaterChanges() throws {
        var options = StoreOptions(durability: .none)
        options.spillThreshold = 64 << 10
        let path = directory.appendingPathComponent("leaves.strata").path
        let deleted: (Int) -> Bool = { $0 % 5 == 0 }
        let grown: (Int) -> Bool = { $0 % 3 == 0 }
        do {
            let store = try Store.open(path: path, options: options)
            defer { store.close() }
            let writer = try store.beginWrite()
            let catalog = try Catalog(writer: writer)
            let table = try catalog.createTable(named: "Employee")
            let id = try table.addColumn(named: "id", type: .value(.int))
            let name = try table.addColumn(named: "name", type: .value(.string))
            let team = try table.addColumn(named: "team", type: .value(.int))
            try table.setPrimaryKey(id)
            let index = try table.addIndex(on: [team])
            var keys: [ObjectKey] = []
            for row in 0..<rowCount {
                keys.append(try table.insert([
                    (id, .int(Int64(row))), (name, .string(label(row, grown: false))), (team, .int(group(row))),
                ]))
                XCTAssertLessThanOrEqual(table.tree.loadedLeaves, Catalog.loadedLeafLimit, "decoded clusters stay bounded")
            }
            XCTAssertTrue(writer.dirty.values.contains { $0.spilledChecksum != nil }, "the insert should have spilled")
            // Every cluster is changed again: the first ones were written out and spilled long ago.
            for row in 0..<rowCount where grown(row) && !deleted(row) {
                try table.set(keys[row], column: name, to: .string(label(row, grown: true)))
                try table.set(keys[row], column: team, to: .int(group(row) + 1000))
            }
            for row in 0..<rowCount where deleted(row) { try table.delete(keys[row]) }
            try check(table, before: "commit", deleted: deleted, grown: grown, index: index)
            try catalog.flush()
            try writer.commit()
        }
        let store = try Store.open(path: path, options: options)
        defer { store.close() }
        _ = try store.verifyAll()
        let reader = try store.beginRead()
        defer { reader.end() }
        let catalog = try Catalog(reader: reader)
        let table = try XCTUnwrap(catalog.table(named: "Employee"))
        let team = try XCTUnwrap(table.column(named: "team")).key
        let index = try XCTUnwrap(table.index(on: [team])).key
        try check(table, before: "reopen", deleted: deleted, grown: grown, index: index)
    }

    private func check(
        _ table: Table, before moment: String, deleted: (Int) -> Bool, grown: (Int) -> Bool, index: IndexKey
    ) throws {
        let name = try XCTUnwrap(table.column(named: "name")).key
        let kept = (0..<rowCount).filter { !deleted($0) }
        XCTAssertEqual(try table.count(), kept.count, "row count (\(moment))")
        for row in kept {
            let key = try XCTUnwrap(try table.find(primaryKey: .int(Int64(row))), "row \(row) (\(moment))")
            XCTAssertEqual(try table.string(key, column: name), label(row, grown: grown(row)), "row \(row) (\(moment))")
        }
        for row in 0..<rowCount where deleted(row) {
            XCTAssertNil(try table.find(primaryKey: .int(Int64(row))), "deleted row \(row) (\(moment))")
        }
        // One team before and after the move: the index holds exactly the kept rows' current values.
        let moved = kept.filter { grown($0) && group($0) == 7 }.count
        let stayed = kept.filter { !grown($0) && group($0) == 7 }.count
        XCTAssertEqual(try table.lookup(index, equal: [.int(7)]).count, stayed, "index entries of team 7 (\(moment))")
        XCTAssertEqual(try table.lookup(index, equal: [.int(1007)]).count, moved, "index entries of team 1007 (\(moment))")
    }
}
