import Foundation
import StrataStorage
import StrataTestSupport
import XCTest

/// Set and map columns in the storage engine: one encoded value per object, sets in element order without repeats,
/// maps sorted by key, backlinks for their links (docs/FILE-FORMAT.md, "Sets and maps").
final class SetAndMapColumnTests: XCTestCase {
    private var fixture: TableFixture!
    private var person: Table!
    private var book: Table!
    private var title: ColumnKey!
    private var tags: ColumnKey!
    private var ratings: ColumnKey!
    private var shelf: ColumnKey!
    private var scores: ColumnKey!
    private var picks: ColumnKey!

    override func setUpWithError() throws {
        fixture = try TableFixture()
        person = try fixture.catalog.createTable(named: "Person")
        book = try fixture.catalog.createTable(named: "Book")
        title = try book.addColumn(named: "title", type: .value(.string))
        tags = try person.addColumn(named: "tags", type: .set(.string))
        ratings = try person.addColumn(named: "ratings", type: .set(.double), elementsNullable: true)
        shelf = try person.addColumn(named: "shelf", type: .set(.link), target: book.key)
        scores = try person.addColumn(named: "scores", type: .map(.int))
        picks = try person.addColumn(named: "picks", type: .map(.link), target: book.key)
    }

    func testSetsKeepElementOrderWithoutRepeats() throws {
        let ana = try person.insert([(tags, .list([.string("b"), .string("a"), .string("b"), .string("")]))])
        XCTAssertEqual(try person.setElements(ana, column: tags), [.string(""), .string("a"), .string("b")])
        XCTAssertEqual(try person.setCount(ana, column: tags), 3)
        XCTAssertTrue(try person.setContains(ana, column: tags, .string("a")))
        XCTAssertFalse(try person.setContains(ana, column: tags, .string("c")))
        XCTAssertTrue(try person.setInsert(ana, column: tags, .string("c")))
        XCTAssertFalse(try person.setInsert(ana, column: tags, .string("a")), "an element already held is not added")
        XCTAssertTrue(try person.setRemove(ana, column: tags, .string("")))
        XCTAssertFalse(try person.setRemove(ana, column: tags, .string("zz")))
        try fixture.commit()
        let reread = try XCTUnwrap(fixture.catalog.table(named: "Person"))
        XCTAssertEqual(try reread.value(ana, column: tags), .list([.string("a"), .string("b"), .string("c")]))
        XCTAssertEqual(try reread.setCount(ana, column: tags), 3)
        try fixture.catalog.verify()
    }

    func testNumbersAndNullsSortAsValuesNotAsBytes() throws {
        let ana = try person.insert([(ratings, .list([.double(2.5), .null, .double(-1), .double(10), .double(-0.5)]))])
        XCTAssertEqual(try person.setElements(ana, column: ratings),
                       [.null, .double(-1), .double(-0.5), .double(2.5), .double(10)])
        XCTAssertTrue(try person.setContains(ana, column: ratings, .null))
        XCTAssertTrue(try person.setContains(ana, column: ratings, .double(-0.5)))
        XCTAssertFalse(try person.setContains(ana, column: ratings, .double(0.5)))
        XCTAssertThrowsError(try person.set(ana, column: tags, to: .list([.null])), "a set of strings holds no nil")
    }

    func testMapsSortByKeyAndReadOneKeyAlone() throws {
        let ana = try person.insert([(scores, .map(["math": .int(18), "art": .int(12), "Bio": .int(7)]))])
        XCTAssertEqual(try person.mapValue(ana, column: scores, for: "math"), .int(18))
        XCTAssertNil(try person.mapValue(ana, column: scores, for: "history"))
        XCTAssertEqual(try person.mapCount(ana, column: scores), 3)
        try person.mapSet(ana, column: scores, for: "history", to: .int(3))
        XCTAssertEqual(try person.mapRemove(ana, column: scores, for: "art"), .int(12))
        XCTAssertNil(try person.mapRemove(ana, column: scores, for: "art"))
        try fixture.commit()
        let reread = try XCTUnwrap(fixture.catalog.table(named: "Person"))
        XCTAssertEqual(try reread.mapEntries(ana, column: scores), ["math": .int(18), "Bio": .int(7), "history": .int(3)])
        for key in ["Bio", "history", "math"] {
            XCTAssertNotNil(try reread.mapValue(ana, column: scores, for: key), key)
        }
        XCTAssertThrowsError(try reread.set(ana, column: scores, to: .map(["x": .string("no")])))
        try fixture.catalog.verify()
    }

    func testDeletingATargetLeavesSetsAndNilsMapValues() throws {
        let dune = try book.insert([(title, .string("Dune"))])
        let emma = try book.insert([(title, .string("Emma"))])
        let ana = try person.insert([
            (shelf, .list([.link(dune), .link(emma), .link(dune)])),
            (picks, .map(["best": .link(dune), "worst": .link(emma), "also": .link(dune)])),
        ])
        XCTAssertEqual(try person.setElements(ana, column: shelf), [.link(dune), .link(emma)])
        XCTAssertEqual(try book.backlinks(of: dune, from: person.key, column: shelf), [ana], "a set holds a target once")
        XCTAssertEqual(try book.backlinks(of: dune, from: person.key, column: picks), [ana, ana])
        XCTAssertEqual(try book.backlinkCount(of: dune), 3)
        try fixture.commit()
        try fixture.catalog.verify()
        try fixture.catalog.table(named: "Book")!.delete(dune)
        try fixture.commit()
        let people = try XCTUnwrap(fixture.catalog.table(named: "Person"))
        XCTAssertEqual(try people.setElements(ana, column: shelf), [.link(emma)])
        XCTAssertEqual(try people.mapEntries(ana, column: picks), ["best": .null, "worst": .link(emma), "also": .null])
        try fixture.catalog.verify()
        try people.mapRemove(ana, column: picks, for: "worst")
        let books = try XCTUnwrap(fixture.catalog.table(named: "Book"))
        XCTAssertEqual(try books.backlinkCount(of: emma), 1, "only the set still links to Emma")
        try people.delete(ana)
        XCTAssertEqual(try books.backlinkCount(of: emma), 0)
        try fixture.catalog.verify()
    }

    func testColumnsAreNamedAndRefusedAsIndexes() throws {
        XCTAssertEqual(person.column(tags)?.type.description, "set<string>")
        XCTAssertEqual(person.column(picks)?.type.description, "map<link>")
        XCTAssertEqual(person.column(picks)?.elementsNullable, true, "a map's links become nil")
        // A set of strings is indexed by element (SetIndexStorageTests); doubles, maps and links are not.
        XCTAssertThrowsError(try person.addIndex(on: [ratings]))
        XCTAssertThrowsError(try person.addIndex(on: [scores]))
        XCTAssertThrowsError(try person.addIndex(on: [shelf]))
        XCTAssertThrowsError(try person.setPrimaryKey(tags))
        XCTAssertThrowsError(try person.setPrimaryKey(scores))
        try fixture.commit()
        let reread = try XCTUnwrap(fixture.catalog.table(named: "Person"))
        XCTAssertEqual(reread.column(named: "ratings")?.type, .set(.double))
        XCTAssertEqual(reread.column(named: "scores")?.type, .map(.int))
    }

    func testAddingColumnsToExistingObjectsStartsThemEmpty() throws {
        let ana = try person.insert([])
        let added = try person.addColumn(named: "labels", type: .map(.string), defaultValue: .map(["k": .string("v")]))
        XCTAssertEqual(try person.mapEntries(ana, column: added), ["k": .string("v")])
        XCTAssertEqual(try person.setElements(ana, column: tags), [])
        try fixture.commit()
        try fixture.catalog.verify()
    }

    func testEncodedSetsAndMapsAreBinarySearchable() throws {
        // Many elements of every length: a binary search has to land on every offset.
        let words = (0..<300).map { String(repeating: "w", count: $0 % 17) + String($0) }
        let ana = try person.insert([
            (tags, .list(words.shuffled().map { .string($0) })),
            (scores, .map(Dictionary(uniqueKeysWithValues: words.enumerated().map { ($0.element, .int(Int64($0.offset))) }))),
        ])
        for (offset, word) in words.enumerated() {
            XCTAssertTrue(try person.setContains(ana, column: tags, .string(word)))
            XCTAssertEqual(try person.mapValue(ana, column: scores, for: word), .int(Int64(offset)))
            XCTAssertFalse(try person.setContains(ana, column: tags, .string(word + "!")))
            XCTAssertNil(try person.mapValue(ana, column: scores, for: word + "!"))
        }
    }
}
