import StrataStorage
import StrataTestSupport
import XCTest

/// Typed reads of a read transaction, which find rows from the last one read and keep each column's position:
/// these pin that the shortcuts give what a full lookup gives.
final class TypedReadTests: XCTestCase {
    /// The read catalogs of the tables under test.
    private var readers: [Catalog] = []

    override func tearDown() {
        readers = []
    }

    /// A committed table of `count` objects with a string and a double column, the objects whose index
    /// `deleted` accepts removed; returns the read catalog's table, the columns and the keys left, in order.
    private func committedTable(
        count: Int, text: (Int) -> String, deleted: (Int) -> Bool
    ) throws -> (table: Table, name: ColumnKey, salary: ColumnKey, kept: [(key: ObjectKey, index: Int)]) {
        // The read catalog outlives the returned table (which refers to it unowned): the test case keeps it.
        let fixture = try TableFixture()
        let table = try fixture.catalog.createTable(named: "Person")
        let name = try table.addColumn(named: "name", type: .value(.string))
        let salary = try table.addColumn(named: "salary", type: .value(.double))
        var keys: [ObjectKey] = []
        for index in 0..<count {
            keys.append(try table.insert([(name, .string(text(index))), (salary, .double(Double(index) / 2))]))
        }
        try fixture.commit()
        let writable = try XCTUnwrap(fixture.catalog.table(named: "Person"))
        for index in 0..<count where deleted(index) { try writable.delete(keys[index]) }
        try fixture.commit()
        let kept = (0..<count).filter { !deleted($0) }.map { (key: keys[$0], index: $0) }
        let reader = try fixture.reader()
        readers.append(reader)
        let read = try XCTUnwrap(reader.table(named: "Person"))
        XCTAssertEqual(try read.count(), kept.count)
        return (read, name, salary, kept)
    }

    func testStringsWithAMultiByteCharacterAtAnyOffsetReadBackWhole() throws {
        // Lengths around the eight-byte steps of the ASCII test, with "é" (two bytes) at every offset.
        var texts: [String] = []
        for length in 0..<20 {
            let ascii = String(repeating: "a", count: length)
            texts.append(ascii)
            for offset in 0...length {
                texts.append(String(ascii.prefix(offset)) + "é" + String(ascii.dropFirst(offset)))
            }
        }
        let (table, name, _, kept) = try committedTable(count: texts.count, text: { texts[$0] }, deleted: { _ in false })
        for (key, index) in kept {
            XCTAssertEqual(try table.string(key, column: name), texts[index])
        }
    }

    func testReadsInKeyOrderFindEachRowAfterDeletions() throws {
        // Runs of deleted objects of every length up to 9 between kept ones, across several clusters.
        let deleted: (Int) -> Bool = { ($0 / 10) % 10 > $0 % 10 }
        let (table, name, salary, kept) = try committedTable(
            count: 6000, text: { "name-\($0)" }, deleted: deleted)
        for stride in [1, 2, 7, 100] {
            for position in Swift.stride(from: 0, to: kept.count, by: stride) {
                let (key, index) = kept[position]
                XCTAssertEqual(try table.string(key, column: name), "name-\(index)", "stride \(stride)")
                XCTAssertEqual(try table.double(key, column: salary), Double(index) / 2, "stride \(stride)")
            }
        }
        // Backwards, and keys of deleted objects (before, between and after the ones read) fail.
        for (key, index) in kept.reversed().prefix(300) {
            XCTAssertEqual(try table.double(key, column: salary), Double(index) / 2)
        }
        // Object 3050 was deleted (its group of ten lost five), 3049 and 3055 were kept.
        let previous = try XCTUnwrap(kept.first { $0.index == 3049 }?.key)
        let next = try XCTUnwrap(kept.first { $0.index == 3055 }?.key)
        let following = try XCTUnwrap(table.keys().first { $0 > previous })
        XCTAssertEqual(following, next)
        XCTAssertEqual(try table.string(previous, column: name), "name-3049")
        let deletedKey = ObjectKey(previous.rawValue + 1)
        XCTAssertFalse(try table.contains(deletedKey))
        XCTAssertThrowsError(try table.string(deletedKey, column: name))
        XCTAssertThrowsError(try table.double(ObjectKey(next.rawValue - 1), column: salary))
        XCTAssertEqual(try table.double(next, column: salary), 3055 / 2)
    }

    func testReadsInOneClusterFindRowsPastDeletedNeighboursAndMissDeletedKeys() throws {
        // One cluster whose rows shift at each deletion: object i is at row i below 10, i - 1 up to 19, i - 4 from
        // 23 on, and 59 is the last row (54).
        let gone: Set<Int> = [10, 20, 21, 22, 58]
        let (table, name, salary, kept) = try committedTable(
            count: 60, text: { "name-\($0)" }, deleted: { gone.contains($0) })
        var clusters = 0
        try table.forEachCluster { _ in
            clusters += 1
            return true
        }
        XCTAssertEqual(clusters, 1, "the steps below assume one cluster")
        let first = try XCTUnwrap(kept.first?.key.rawValue)
        for (key, index) in kept { XCTAssertEqual(key.rawValue, first + Int64(index), "keys are handed out in order") }
        func key(_ index: Int) -> ObjectKey { ObjectKey(first + Int64(index)) }

        // Each step reads after the one before it: forward steps search from the row found last, backward steps
        // (and the first) from the cluster's first row, both no further than the key's distance allows.
        let steps: [(index: Int, why: String)] = [
            (30, "first read, found by descending the tree"),
            (5, "backward, no deletion before it: exactly as far as its key's distance"),
            (11, "forward past the deleted 10: one row short of its distance"),
            (10, "backward, deleted, inside the cluster's range"),
            (9, "backward, exactly as far as its key's distance"),
            (10, "forward, deleted, right after the row read"),
            (19, "forward, the row before three deleted ones"),
            (21, "forward, deleted, between rows read"),
            (23, "forward past three deleted ones"),
            (0, "backward to the first row"),
            (59, "forward to the last row, nearer than its key's distance"),
            (58, "backward, deleted, just before the last row"),
            (60, "past the cluster's last key"),
            (-1, "before the cluster's first key"),
        ]
        for (index, why) in steps {
            if gone.contains(index) || index < 0 || index >= 60 {
                XCTAssertFalse(try table.contains(key(index)), "\(index): \(why)")
                XCTAssertThrowsError(try table.double(key(index), column: salary), "\(index): \(why)")
            } else {
                XCTAssertEqual(try table.double(key(index), column: salary), Double(index) / 2, "\(index): \(why)")
                XCTAssertEqual(try table.string(key(index), column: name), "name-\(index)", "\(index): \(why)")
                XCTAssertTrue(try table.contains(key(index)), "\(index): \(why)")
            }
        }
    }

    func testReadingAStringColumnAsADoubleNamesTheColumn() throws {
        let (table, name, salary, kept) = try committedTable(count: 10, text: { "n\($0)" }, deleted: { _ in false })
        XCTAssertThrowsError(try table.double(kept[3].key, column: name)) { error in
            XCTAssertTrue("\(error)".contains("'name'"), "\(error)")
        }
        XCTAssertThrowsError(try table.string(kept[3].key, column: salary)) { error in
            XCTAssertTrue("\(error)".contains("'salary'"), "\(error)")
        }
    }
}
