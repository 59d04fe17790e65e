@testable import StrataStorage
import StrataTestSupport
import XCTest

/// A read by key in a read transaction that descends the cluster tree keeps the separator after the cluster it
/// reached as a bound on that cluster's keys (`NodeTree.locateWithUpperBound(_:)`): a later read of a key below the
/// bound is answered from that cluster alone, so no key in the gap between a cluster's last key and the next
/// separator may be found, and every key at or past the separator must be sent to its own cluster.
final class ClusterUpperBoundTests: XCTestCase {
    func testReadsAroundEachClustersEndFindExactlyTheObjectsThatRemain() throws {
        let fixture = try TableFixture()
        let table = try fixture.catalog.createTable(named: "Note")
        let number = try table.addColumn(named: "number", type: .value(.int), nullable: false)
        let text = try table.addColumn(named: "text", type: .value(.string), nullable: false)
        var keys: [ObjectKey] = []
        for value in 0..<30_000 {
            keys.append(try table.insert([(number, .int(Int64(value))), (text, .string("note number \(value)"))]))
        }
        try fixture.commit()
        // Each cluster's first and last key, then the last three objects of every cluster deleted, and the first two
        // of every other one: the separators stay where they were, so gaps open below each, and above every other
        // one (where a bound one too high would send the separator's own object to the cluster before it).
        var bounds: [(first: Int64, last: Int64)] = []
        let committed = try fixture.reader()
        try XCTUnwrap(committed.table(named: "Note")).forEachCluster { cluster in
            bounds.append((cluster.key(at: 0).rawValue, cluster.key(at: cluster.count - 1).rawValue))
            return true
        }
        XCTAssertGreaterThan(bounds.count, 10, "the table spans many clusters")
        let position = Dictionary(uniqueKeysWithValues: keys.enumerated().map { ($1.rawValue, $0) })
        var deleted: Set<Int64> = []
        let writer = try XCTUnwrap(fixture.catalog.table(named: "Note"))
        for (index, (first, last)) in bounds.enumerated() {
            let heads = index % 2 == 0 ? [first, first + 1] : []
            for key in heads + [last - 2, last - 1, last] where position[key] != nil {
                try writer.delete(ObjectKey(key))
                deleted.insert(key)
            }
        }
        try fixture.commit()

        func check(_ table: Table, _ key: Int64, _ note: String) throws {
            if let value = position[key], !deleted.contains(key) {
                XCTAssertEqual(try table.int(ObjectKey(key), column: number), Int64(value), note)
            } else {
                XCTAssertFalse(try table.contains(ObjectKey(key)), note)
            }
        }
        // Each cluster reached by a descent, then the keys around its end and the next cluster's start, each read
        // in a fresh read transaction and in one shared by all.
        let shared = try XCTUnwrap(try fixture.reader().table(named: "Note"))
        for (index, (first, last)) in bounds.enumerated() {
            let around = [last - 3, last - 2, last - 1, last, last + 1, last + 2, last + 3]
            let fresh = try XCTUnwrap(try fixture.reader().table(named: "Note"))
            for table in [fresh, shared] {
                try check(table, first + 5, "a key inside cluster \(index)")
                for key in around { try check(table, key, "key \(key) after cluster \(index)'s middle") }
                try check(table, (first + last) / 2, "cluster \(index)'s middle again")
                for key in around.reversed() { try check(table, key, "key \(key), backwards") }
            }
        }
        // Random reads of live, deleted and never-made keys.
        var generator = SeededGenerator(seed: 21)
        for _ in 0..<20_000 {
            try check(shared, Int64.random(in: -3..<Int64(keys.count) + 3, using: &generator), "random read")
        }
    }
}
