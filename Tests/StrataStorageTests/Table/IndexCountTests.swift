import StrataStorage
import StrataTestSupport
import XCTest

/// An index counts the entries of an equality, a prefix, a range or an `IN` from the subtree counts its branches
/// keep, without reading them: the count must equal what the lookup returns, for loaded leaves and stored ones,
/// through more than one level of branches, at the tree's edges, and after deletions.
final class IndexCountTests: XCTestCase {
    private var fixture: TableFixture!
    private var table: Table!
    private var nameColumn: ColumnKey!
    private var index: IndexKey!
    private var ageColumn: ColumnKey!
    private var ageIndex: IndexKey!

    /// Names of about 110 bytes: an index leaf holds at most 4,000 bytes, so 12,000 of them fill more than a
    /// branch's 128 leaves (two levels of branches).
    private static func name(_ number: Int) -> String {
        "p\(number % 37)-\(number)-" + String(repeating: "·", count: 90)
    }

    /// Prefixes with many matches, few, one and none, and those at the ends of the index.
    private static let prefixes = ["", "p", "p1", "p1-", "p3", "p36-", "p36-999", "p7-7", "p2-2-", "o", "q", "\u{10FFFF}"]

    override func setUpWithError() throws {
        fixture = try TableFixture()
        table = try fixture.catalog.createTable(named: "Person")
        nameColumn = try table.addColumn(named: "name", type: .value(.string), nullable: true)
        index = try table.addIndex(on: [nameColumn])
        ageColumn = try table.addColumn(named: "age", type: .value(.int), nullable: true)
        ageIndex = try table.addIndex(on: [ageColumn])
        for number in 0..<12_000 {
            _ = try table.insert([(nameColumn, .string(Self.name(number))), (ageColumn, .int(Int64(number % 97) - 20))])
        }
        for _ in 0..<50 { _ = try table.insert([(nameColumn, .null), (ageColumn, .null)]) }
    }

    override func tearDown() {
        table = nil
        fixture = nil
        super.tearDown()
    }

    private func checkCounts(in table: Table, _ context: String) throws {
        for prefix in Self.prefixes {
            XCTAssertEqual(
                try table.lookupCount(index, prefix: prefix), try table.lookup(index, prefix: prefix).count,
                "BEGINSWITH '\(prefix)' \(context)")
        }
        for number in [0, 1, 17, 11_999, 12_000] {
            let value = StorageValue.string(Self.name(number))
            XCTAssertEqual(
                try table.lookupCount(index, equal: [value]), try table.lookup(index, equal: [value]).count,
                "== name(\(number)) \(context)")
        }
        XCTAssertEqual(try table.lookupCount(index, equal: [.null]), try table.lookup(index, equal: [.null]).count,
                       "== nil \(context)")
        let bounds: [Int64?] = [nil, -20, 0, 76, 500]
        for lower in bounds {
            for upper in bounds {
                for (lowerInclusive, upperInclusive) in [(true, false), (false, true), (true, true), (false, false)] {
                    let from = lower.map { StorageValue.int($0) }
                    let to = upper.map { StorageValue.int($0) }
                    let counted = try table.lookupCount(
                        ageIndex, from: from, lowerInclusive: lowerInclusive, to: to, upperInclusive: upperInclusive)
                    let read = try table.lookup(
                        ageIndex, from: from, lowerInclusive: lowerInclusive, to: to, upperInclusive: upperInclusive)
                    XCTAssertEqual(
                        counted, read.count,
                        "age \(lowerInclusive ? "≥" : ">") \(String(describing: lower)), "
                            + "\(upperInclusive ? "≤" : "<") \(String(describing: upper)) \(context)")
                }
            }
        }
        let candidates: [StorageValue] = [.int(-20), .int(3), .int(3), .int(76), .int(1000), .null]
        XCTAssertEqual(try table.lookupCount(ageIndex, in: candidates), try table.lookup(ageIndex, in: candidates).count,
                       "IN \(context)")
    }

    func testCountsMatchLookupsInLoadedLeaves() throws {
        try checkCounts(in: table, "before the commit")
        XCTAssertEqual(try table.lookupCount(index, prefix: ""), 12_000)
    }

    func testCountsMatchLookupsInStoredLeaves() throws {
        try fixture.commit()
        let stored = try XCTUnwrap(try fixture.reader().table(named: "Person"))
        try checkCounts(in: stored, "read from the committed version")
        // Against the names themselves too, not only against the lookup.
        XCTAssertEqual(try stored.lookupCount(index, prefix: "p1"), (0..<12_000).filter { Self.name($0).hasPrefix("p1") }.count)
    }

    func testCountsFollowDeletions() throws {
        try fixture.commit()
        let stored = try XCTUnwrap(fixture.catalog.table(named: "Person"))
        let doomed = try stored.keys().filter { $0.rawValue % 3 == 0 }
        for key in doomed { try stored.delete(key) }
        try checkCounts(in: stored, "after deleting a third, in the write")
        try fixture.commit()
        let after = try XCTUnwrap(try fixture.reader().table(named: "Person"))
        try checkCounts(in: after, "after deleting a third")
        // Every object left but those without a name.
        XCTAssertEqual(try after.lookupCount(index, prefix: ""), try after.count() - after.lookup(index, equal: [.null]).count)
        XCTAssertEqual(try after.count(), 12_050 - doomed.count)
    }
}
