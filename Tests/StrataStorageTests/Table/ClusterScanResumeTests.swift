@testable import StrataStorage
import StrataTestSupport
import XCTest

/// `Table.forEachCluster(from:_:)` resumes a scan at the first cluster holding a key at or after its start, and in
/// a read transaction makes each visited cluster the one reads by key look in first: reads by key during and after
/// a scan must still find every object's own row, and no deleted object.
final class ClusterScanResumeTests: XCTestCase {
    /// A committed table of 30,000 numbered objects, every third one of the second half deleted, read back.
    private func scannedTable() throws -> (catalog: Catalog, table: Table, number: ColumnKey, keys: [ObjectKey], deleted: Set<Int>) {
        let fixture = try TableFixture()
        let table = try fixture.catalog.createTable(named: "Note")
        let number = try table.addColumn(named: "number", type: .value(.int), nullable: false)
        var keys: [ObjectKey] = []
        for value in 0..<30_000 { keys.append(try table.insert([(number, .int(Int64(value)))])) }
        let deleted = Set(stride(from: 15_000, to: 30_000, by: 3))
        for removed in deleted { try table.delete(keys[removed]) }
        try fixture.commit()
        let catalog = try fixture.reader()
        return (catalog, try XCTUnwrap(catalog.table(named: "Note")), number, keys, deleted)
    }

    /// The first and last key of each cluster, in order.
    private func clusterBounds(_ table: Table, from start: ObjectKey? = nil) throws -> [(first: Int64, last: Int64)] {
        var bounds: [(first: Int64, last: Int64)] = []
        try table.forEachCluster(from: start) { cluster in
            bounds.append((cluster.key(at: 0).rawValue, cluster.key(at: cluster.count - 1).rawValue))
            return true
        }
        return bounds
    }

    func testAScanResumesAtTheClusterHoldingItsStart() throws {
        let (catalog, table, _, keys, deleted) = try scannedTable()
        defer { withExtendedLifetime(catalog) {} }
        let all = try clusterBounds(table)
        XCTAssertGreaterThan(all.count, 3, "the table spans several clusters")
        XCTAssertEqual(all.first?.first, keys[0].rawValue)
        for (position, cluster) in all.enumerated() {
            // From a cluster's first key, from a key inside it, from one past the previous cluster's last key.
            XCTAssertEqual(try clusterBounds(table, from: ObjectKey(cluster.first)).map(\.first), all[position...].map(\.first))
            let middle = ObjectKey((cluster.first + cluster.last) / 2)
            XCTAssertEqual(try clusterBounds(table, from: middle).first?.first, cluster.first, "cluster \(position)")
            if position > 0 {
                XCTAssertEqual(try clusterBounds(table, from: ObjectKey(all[position - 1].last + 1)).first?.first, cluster.first)
            }
        }
        // A start on a deleted key visits the cluster of the next remaining one; past the last key, none.
        let gap = try XCTUnwrap(deleted.sorted().first { !deleted.contains($0 + 1) && $0 + 1 < keys.count })
        let holder = try XCTUnwrap(all.first { $0.first <= keys[gap + 1].rawValue && keys[gap + 1].rawValue <= $0.last })
        XCTAssertEqual(try XCTUnwrap(clusterBounds(table, from: keys[gap]).first).first, holder.first)
        XCTAssertTrue(try clusterBounds(table, from: ObjectKey(try XCTUnwrap(all.last).last + 1)).isEmpty)
        XCTAssertTrue(try clusterBounds(table, from: ObjectKey(.max)).isEmpty)
    }

    func testReadsByKeyDuringAndAfterAScanFindTheirOwnRows() throws {
        let (catalog, table, number, keys, deleted) = try scannedTable()
        defer { withExtendedLifetime(catalog) {} }
        let position = Dictionary(uniqueKeysWithValues: keys.enumerated().map { ($1, $0) })
        var generator = SeededGenerator(seed: 9)
        var visited = 0
        try table.forEachCluster { cluster in
            visited += 1
            // The scanned cluster's own rows, read by key while it is the one reads look in first.
            for row in stride(from: 0, to: cluster.count, by: 97) {
                let key = cluster.key(at: row)
                XCTAssertEqual(try table.int(key, column: number), Int64(try XCTUnwrap(position[key])))
            }
            // A deleted key inside its range, and keys of other clusters, read in between.
            if let removed = deleted.first(where: { keys[$0] > cluster.key(at: 0) && keys[$0] < cluster.key(at: cluster.count - 1) }) {
                XCTAssertFalse(try table.contains(keys[removed]))
            }
            let other = Int.random(in: 0..<keys.count, using: &generator)
            if deleted.contains(other) {
                XCTAssertFalse(try table.contains(keys[other]))
            } else {
                XCTAssertEqual(try table.int(keys[other], column: number), Int64(other))
            }
            XCTAssertEqual(try table.int(cluster.key(at: cluster.count - 1), column: number),
                           Int64(try XCTUnwrap(position[cluster.key(at: cluster.count - 1)])))
            return true
        }
        XCTAssertGreaterThan(visited, 3)
        for value in (0..<keys.count).shuffled(using: &generator).prefix(3_000) {
            if deleted.contains(value) {
                XCTAssertFalse(try table.contains(keys[value]), "deleted \(value)")
            } else {
                XCTAssertEqual(try table.int(keys[value], column: number), Int64(value), "value \(value)")
            }
        }
    }

    /// `Table.noteRow(_:at:inCluster:)` (what a results loop that scans as it goes says of each object it hands
    /// out) is taken only while the noted cluster is the one reads look in first, in a read transaction, and only
    /// for a row the cluster has: reads after a note must find each object's own row, never a row noted elsewhere.
    func testANotedRowIsTakenOnlyForTheClusterReadsLookInNow() throws {
        let (catalog, table, number, keys, _) = try scannedTable()
        defer { withExtendedLifetime(catalog) {} }
        let position = Dictionary(uniqueKeysWithValues: keys.enumerated().map { ($1, $0) })
        var clusters: [ScannedCluster] = []
        try table.forEachCluster { cluster in
            clusters.append(cluster)
            // Every row noted, then read: the noted row is the object's own.
            for row in 0..<cluster.count {
                let key = cluster.key(at: row)
                table.noteRow(key, at: row, inCluster: cluster.node)
                XCTAssertEqual(try table.int(key, column: number), Int64(try XCTUnwrap(position[key])))
            }
            return true
        }
        XCTAssertGreaterThan(clusters.count, 3)
        // A note for a cluster the reads have since left is ignored: the read descends to the object's own row,
        // whichever row of whichever cluster the reads look in now.
        let first = clusters[0]
        let late = clusters[clusters.count - 1]
        let key = first.key(at: 5)
        table.noteRow(key, at: 5, inCluster: first.node)
        XCTAssertEqual(try table.int(key, column: number), Int64(try XCTUnwrap(position[key])))
        XCTAssertEqual(try table.int(late.key(at: 3), column: number), Int64(try XCTUnwrap(position[late.key(at: 3)])))
        table.noteRow(first.key(at: 7), at: 7, inCluster: first.node)
        XCTAssertEqual(try table.int(first.key(at: 7), column: number), Int64(try XCTUnwrap(position[first.key(at: 7)])))
        table.noteRow(first.key(at: 8), at: 8, inCluster: first.node)
        XCTAssertEqual(try table.int(late.key(at: 4), column: number), Int64(try XCTUnwrap(position[late.key(at: 4)])))
        // A row past the cluster's end is never taken, even for the cluster reads look in now.
        XCTAssertEqual(try table.int(first.key(at: 2), column: number), Int64(try XCTUnwrap(position[first.key(at: 2)])))
        table.noteRow(first.key(at: 3), at: first.count + 5, inCluster: first.node)
        XCTAssertEqual(try table.int(first.key(at: 3), column: number), Int64(try XCTUnwrap(position[first.key(at: 3)])))
    }

    /// A write transaction's table takes no note: its clusters change under it (a split by new objects here).
    func testAWriteTransactionsTableTakesNoNote() throws {
        let fixture = try TableFixture()
        let table = try fixture.catalog.createTable(named: "Note")
        let number = try table.addColumn(named: "number", type: .value(.int), nullable: false)
        for value in 0..<20_000 { try table.insert([(number, .int(Int64(value)))]) }
        try fixture.commit()
        let writing = try XCTUnwrap(fixture.catalog.table(named: "Note"))
        var scanned: ScannedCluster?
        try writing.forEachCluster { cluster in
            scanned = cluster
            return false
        }
        let cluster = try XCTUnwrap(scanned)
        let key = cluster.key(at: 10)
        let value = try XCTUnwrap(try writing.int(key, column: number))
        // New objects, then a delete before the noted row: the row a note would name is another object's now.
        for value in 20_000..<40_000 { try writing.insert([(number, .int(Int64(value)))]) }
        try writing.delete(cluster.key(at: 0))
        writing.noteRow(key, at: 10, inCluster: cluster.node)
        XCTAssertEqual(try writing.int(key, column: number), value)
        XCTAssertEqual(try writing.int(cluster.key(at: 11), column: number), value + 1)
    }
}
