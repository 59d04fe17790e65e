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
