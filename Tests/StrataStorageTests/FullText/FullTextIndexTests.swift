import StrataStorage
import StrataTestSupport
import XCTest

/// The full-text index in the table layer: postings with positions and lengths, kept exact through inserts,
/// updates and deletes, surviving a commit, checked by verify, and recorded by the catalog.
final class FullTextIndexTests: XCTestCase {
    private var fixture: TableFixture!
    private var table: Table!
    private var body: ColumnKey!

    override func setUpWithError() throws {
        fixture = try TableFixture()
        table = try fixture.catalog.createTable(named: "Note")
        body = try table.addColumn(named: "body", type: .value(.string), nullable: true)
    }

    private func postings(_ index: IndexKey, _ term: String, prefix: Bool = false) throws -> [ObjectKey: [Int]] {
        var result: [ObjectKey: [Int]] = [:]
        for posting in try table.fullTextPostings(index, term: term, prefix: prefix) {
            result[posting.key] = posting.positions
        }
        return result
    }

    func testPostingsFollowInsertsUpdatesAndDeletes() throws {
        let first = try table.insert([(body, .string("Swift data, swift DATABASE"))])
        let index = try table.addFullTextIndex(on: body)
        XCTAssertEqual(try table.addFullTextIndex(on: body), index)
        XCTAssertEqual(table.fullTextIndexSpecs.map(\.key), [index])
        XCTAssertTrue(table.indexSpecs.isEmpty)
        let second = try table.insert([(body, .string("数据库 and data"))])
        let empty = try table.insert([(body, .null)])
        XCTAssertEqual(try postings(index, "swift"), [first: [0, 2]])
        XCTAssertEqual(try postings(index, "data"), [first: [1], second: [4]])
        XCTAssertEqual(try postings(index, "data", prefix: true), [first: [1, 3], second: [4]])
        // Runs of unspaced scripts as trigrams, then their last pair and last character.
        XCTAssertEqual(try postings(index, "数据库"), [second: [0]])
        XCTAssertEqual(try postings(index, "据库"), [second: [1]])
        XCTAssertEqual(try postings(index, "数据"), [:])
        XCTAssertEqual(try postings(index, "数据", prefix: true), [second: [0]])
        XCTAssertEqual(try table.fullTextStatistics(index).documents, 2)
        XCTAssertEqual(try table.fullTextPostings(index, term: "swift", prefix: false).first?.documentLength, 4)

        try table.set(first, column: body, to: .string("swift only"))
        try table.set(empty, column: body, to: .string("Data"))
        try table.delete(second)
        XCTAssertEqual(try postings(index, "swift"), [first: [0]])
        XCTAssertEqual(try postings(index, "data"), [empty: [0]])
        XCTAssertEqual(try postings(index, "数据库"), [:])
        try fixture.catalog.verify()
        try fixture.commit()

        let stored = try XCTUnwrap(fixture.catalog.table(named: "Note"))
        XCTAssertEqual(stored.fullTextIndexSpecs.first?.isFullText, true)
        XCTAssertEqual(stored.fullTextIndexSpecs.first?.isTrigrams, true)
        XCTAssertEqual(stored.fullTextIndex(on: body)?.key, index)
        XCTAssertEqual(try stored.fullTextPostings(index, term: "only", prefix: false).map(\.key), [first])
        XCTAssertGreaterThan(try stored.fullTextSize(index).bytes, 0)
        try fixture.catalog.verify()
        try stored.removeIndex(index)
        XCTAssertTrue(stored.fullTextIndexSpecs.isEmpty)
        try fixture.catalog.verify()
    }

    func testOnlyStringColumnsTakeAFullTextIndex() throws {
        let count = try table.addColumn(named: "count", type: .value(.int))
        XCTAssertThrowsError(try table.addFullTextIndex(on: count))
    }

    func testAnOrdinaryIndexAndAFullTextIndexOnOneColumnAreKeptApart() throws {
        let sorted = try table.addIndex(on: [body])
        let fullText = try table.addFullTextIndex(on: body)
        XCTAssertNotEqual(sorted, fullText)
        let key = try table.insert([(body, .string("hello world"))])
        XCTAssertEqual(try table.lookup(sorted, equal: [.string("hello world")]), [key])
        XCTAssertEqual(table.index(on: [body])?.key, sorted)
        XCTAssertEqual(try postings(fullText, "world"), [key: [1]])
        try fixture.catalog.verify()
    }
}
