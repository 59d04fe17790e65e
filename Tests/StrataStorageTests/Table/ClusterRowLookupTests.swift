@testable import StrataStorage
import StrataTestSupport
import XCTest

/// `ClusterView.row(of:after:)` proves a row of a cluster of consecutive keys by one key read (the key `key - first`
/// rows on); with gaps (deleted objects) it must still find every remaining key and no deleted one, from the first
/// row and from an anchor.
final class ClusterRowLookupTests: XCTestCase {
    func testRowsOfClustersWithAndWithoutGapsAreFoundAndDeletedKeysAreNot() throws {
        let fixture = try TableFixture()
        let table = try fixture.catalog.createTable(named: "Note")
        let number = try table.addColumn(named: "number", type: .value(.int), nullable: false)
        var keys: [ObjectKey] = []
        for value in 0..<30_000 { keys.append(try table.insert([(number, .int(Int64(value)))])) }
        // Gaps of every width in the second half: the first half stays consecutive.
        var deleted = Set<Int>()
        var value = 15_000
        var gap = 1
        while value < keys.count {
            for removed in value..<min(value + gap, keys.count) { deleted.insert(removed) }
            value += gap + 7
            gap = gap % 40 + 1
        }
        for removed in deleted { try table.delete(keys[removed]) }
        try fixture.commit()

        let catalog = try fixture.reader()
        defer { withExtendedLifetime(catalog) {} }
        let stored = try XCTUnwrap(catalog.table(named: "Note"))
        var generator = SeededGenerator(seed: 4)
        for value in (0..<keys.count).shuffled(using: &generator) {
            if deleted.contains(value) {
                XCTAssertFalse(try stored.contains(keys[value]), "deleted \(value)")
            } else {
                XCTAssertEqual(try stored.int(keys[value], column: number), Int64(value), "value \(value)")
            }
        }
        XCTAssertFalse(try stored.contains(ObjectKey(Int64(keys.count) + 5)))
        XCTAssertFalse(try stored.contains(ObjectKey(-1)))
    }

    func testARowIsFoundFromAnAnchorAndAKeyBeforeTheFirstIsNot() throws {
        let fixture = try TableFixture()
        let table = try fixture.catalog.createTable(named: "Note")
        let number = try table.addColumn(named: "number", type: .value(.int), nullable: false)
        var keys: [ObjectKey] = []
        for value in 0..<200 { keys.append(try table.insert([(number, .int(Int64(value)))])) }
        for value in stride(from: 1, to: 200, by: 3) { try table.delete(keys[value]) }
        try fixture.commit()
        let catalog = try fixture.reader()
        defer { withExtendedLifetime(catalog) {} }
        let stored = try XCTUnwrap(catalog.table(named: "Note"))
        guard case .stored(let ref)? = try ByteOrder.withKey(keys[0].rawValue, { try stored.tree.locate($0) }) else {
            return XCTFail("the cluster is not stored")
        }
        let view = try ClusterView(try catalog.reader.read(ref), ref: ref)
        let remaining = (0..<200).filter { $0 % 3 != 1 }.map { keys[$0].rawValue }
        XCTAssertEqual(view.rowCount, remaining.count)
        for (row, key) in remaining.enumerated() {
            XCTAssertEqual(view.row(of: key), row, "key \(key)")
            XCTAssertEqual(view.row(of: key, after: (0, remaining[0])), row, "key \(key) after the first row")
            if row > 0 {
                XCTAssertEqual(
                    view.row(of: key, after: (row - 1, remaining[row - 1])), row, "key \(key) after its neighbour")
            }
        }
        for value in stride(from: 1, to: 200, by: 3) {
            XCTAssertNil(view.row(of: keys[value].rawValue), "deleted \(value)")
        }
        XCTAssertNil(view.row(of: remaining[0] - 1))
        XCTAssertNil(view.row(of: remaining[remaining.count - 1] + 1))
    }
}
