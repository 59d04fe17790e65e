import StrataStorage
import StrataTestSupport
import XCTest

/// An equality lookup reads the one leaf that would hold its value when the matches end there, and goes on
/// leaf by leaf otherwise: runs of equal values that straddle leaves, values past the last entry, and limits must
/// come back exactly as a walk over the whole index finds them, from loaded leaves and from stored ones.
final class IndexEqualityLookupTests: XCTestCase {
    private var fixture: TableFixture!
    private var table: Table!
    private var label: ColumnKey!
    private var index: IndexKey!
    /// The object keys of each label, in key order (an equality lookup's order).
    private var expected: [String: [ObjectKey]] = [:]

    override func setUpWithError() throws {
        fixture = try TableFixture()
        table = try fixture.catalog.createTable(named: "Tag")
        label = try table.addColumn(named: "label", type: .value(.string), nullable: true)
        index = try table.addIndex(on: [label])
        // Runs of every length, from single objects to a run over several leaves (an entry is ~16 bytes, a leaf
        // holds ~4000).
        for (run, count) in [1, 2, 3, 40, 170, 260, 900].enumerated() {
            for _ in 0..<count {
                let text = "run-\(run)"
                expected[text, default: []].append(try table.insert([(label, .string(text))]))
            }
        }
        for single in 0..<500 {
            let text = "single-\(single)"
            expected[text, default: []].append(try table.insert([(label, .string(text))]))
        }
    }

    override func tearDown() {
        table = nil
        fixture = nil
        super.tearDown()
    }

    private func checkEveryLabel(in table: Table, nils: [ObjectKey] = [], _ context: String) throws {
        for (text, keys) in expected {
            XCTAssertEqual(try table.lookup(index, equal: [.string(text)]), keys, "\(text) \(context)")
            for limit in [1, 2, 41, 171] {
                XCTAssertEqual(
                    try table.lookup(index, equal: [.string(text)], limit: limit), Array(keys.prefix(limit)),
                    "\(text) limit \(limit) \(context)")
            }
        }
        for absent in ["", "run-", "run-99", "single-5000", "zzz", "\u{10FFFF}"] {
            XCTAssertEqual(try table.lookup(index, equal: [.string(absent)]), [], "'\(absent)' \(context)")
        }
        XCTAssertEqual(try table.lookup(index, equal: [.null]), nils, "nil labels \(context)")
    }

    func testEqualityLookupsFindWholeRunsInLoadedLeaves() throws {
        try checkEveryLabel(in: table, "before the commit")
    }

    func testEqualityLookupsFindWholeRunsInStoredLeaves() throws {
        try fixture.commit()
        let stored = try XCTUnwrap(try fixture.reader().table(named: "Tag"))
        try checkEveryLabel(in: stored, "read from the committed version")
    }

    func testEqualityLookupsSeeNilValuesAndDeletions() throws {
        var nils: [ObjectKey] = []
        for _ in 0..<300 { nils.append(try table.insert([(label, .null)])) }
        try fixture.commit()
        let stored = try XCTUnwrap(fixture.catalog.table(named: "Tag"))
        XCTAssertEqual(try stored.lookup(index, equal: [.null]), nils)
        let run = try XCTUnwrap(expected["run-6"])
        for key in run.prefix(450) { try stored.delete(key) }
        expected["run-6"] = Array(run.dropFirst(450))
        try checkEveryLabel(in: stored, nils: nils, "after deleting half a run")
        XCTAssertEqual(try stored.lookup(index, equal: [.null], limit: 7), Array(nils.prefix(7)))
    }
}
