import StrataStorage
import StrataTestSupport
import XCTest

final class LinkTests: XCTestCase {
    private var fixture: TableFixture!
    private var person: Table!
    private var book: Table!
    private var favourite: ColumnKey!
    private var loans: ColumnKey!
    private var title: ColumnKey!

    override func setUpWithError() throws {
        fixture = try TableFixture()
        person = try fixture.catalog.createTable(named: "Person")
        book = try fixture.catalog.createTable(named: "Book")
        title = try book.addColumn(named: "title", type: .value(.string))
        favourite = try person.addColumn(named: "favourite", type: .value(.link), target: book.key)
        loans = try person.addColumn(named: "loans", type: .list(.link), target: book.key)
    }

    func testDeletingATargetNilsLinksAndDropsListElements() throws {
        let dune = try book.insert([(title, .string("Dune"))])
        let emma = try book.insert([(title, .string("Emma"))])
        let ana = try person.insert([(favourite, .link(dune)), (loans, .list([.link(dune), .link(emma), .link(dune)]))])
        let bo = try person.insert([(favourite, .link(emma)), (loans, .list([.link(dune)]))])
        XCTAssertEqual(try book.backlinks(of: dune, from: person.key, column: loans), [ana, ana, bo])
        XCTAssertEqual(try book.backlinks(of: dune, from: person.key, column: favourite), [ana])
        XCTAssertEqual(try book.backlinkCount(of: dune), 4)
        try fixture.commit()
        try fixture.catalog.table(named: "Book")!.delete(dune)
        try fixture.commit()
        let people = try XCTUnwrap(fixture.catalog.table(named: "Person"))
        XCTAssertNil(try people.link(ana, column: favourite))
        XCTAssertEqual(try people.list(ana, column: loans), [.link(emma)])
        XCTAssertEqual(try people.list(bo, column: loans), [])
        XCTAssertEqual(try people.link(bo, column: favourite), emma)
        let books = try XCTUnwrap(fixture.catalog.table(named: "Book"))
        XCTAssertEqual(try books.backlinks(of: emma, from: people.key, column: loans), [ana])
        XCTAssertEqual(try books.backlinks(of: emma, from: people.key, column: favourite), [bo])
        try fixture.catalog.verify()
    }

    func testDeletingASourceRemovesItsBacklinks() throws {
        let dune = try book.insert([(title, .string("Dune"))])
        let ana = try person.insert([(favourite, .link(dune)), (loans, .list([.link(dune)]))])
        try person.delete(ana)
        XCTAssertEqual(try book.backlinkCount(of: dune), 0)
        XCTAssertThrowsError(try person.value(ana, column: favourite))
        try fixture.catalog.verify()
    }

    func testSelfLinksSurviveDeletingTheObjectItself() throws {
        let friend = try person.addColumn(named: "friend", type: .value(.link), target: person.key)
        let ana = try person.insert()
        let bo = try person.insert([(friend, .link(ana))])
        try person.set(ana, column: friend, to: .link(ana))
        XCTAssertEqual(try person.backlinks(of: ana, from: person.key, column: friend), [ana, bo])
        try person.delete(ana)
        XCTAssertNil(try person.link(bo, column: friend))
        XCTAssertEqual(try person.backlinkCount(of: bo), 0)
        try fixture.catalog.verify()
    }

    func testLinkToAMissingObjectIsRefused() throws {
        XCTAssertThrowsError(try person.insert([(favourite, .link(ObjectKey(99)))])) { error in
            XCTAssertTrue("\(error)".contains("no such object"), "\(error)")
        }
        XCTAssertEqual(try person.count(), 0)
    }

    func testListOperationsKeepOrderAndBacklinks() throws {
        let books = try (0..<4).map { try book.insert([(title, .string("b\($0)"))]) }
        let ana = try person.insert()
        for key in books { try person.listAppend(ana, column: loans, .link(key)) }
        try person.listMove(ana, column: loans, from: 0, to: 3)
        XCTAssertEqual(try person.list(ana, column: loans), [books[1], books[2], books[3], books[0]].map { .link($0) })
        try person.listSet(ana, column: loans, at: 0, to: .link(books[0]))
        XCTAssertEqual(try book.backlinkCount(of: books[1]), 0)
        XCTAssertEqual(try book.backlinks(of: books[0], from: person.key, column: loans), [ana, ana])
        try person.listInsert(ana, column: loans, .link(books[1]), at: 2)
        try person.listRemove(ana, column: loans, at: 0)
        XCTAssertEqual(try person.listCount(ana, column: loans), 4)
        XCTAssertEqual(try person.listElement(ana, column: loans, at: 1), .link(books[1]))
        XCTAssertThrowsError(try person.listElement(ana, column: loans, at: 4))
        XCTAssertThrowsError(try person.listInsert(ana, column: loans, .link(books[1]), at: 6))
        try person.listClear(ana, column: loans)
        for key in books { XCTAssertEqual(try book.backlinkCount(of: key), 0) }
        try fixture.catalog.verify()
    }

    func testManyBacklinksMoveToTheirOwnNodeAndStayExact() throws {
        let dune = try book.insert([(title, .string("Dune"))])
        let readers = try (0..<600).map { _ in try person.insert([(favourite, .link(dune))]) }
        try fixture.commit()
        let books = try XCTUnwrap(fixture.catalog.table(named: "Book"))
        XCTAssertEqual(try books.backlinks(of: dune, from: person.key, column: favourite), readers)
        try fixture.catalog.table(named: "Book")!.delete(dune)
        try fixture.commit()
        let people = try XCTUnwrap(fixture.catalog.table(named: "Person"))
        for key in readers.prefix(20) { XCTAssertNil(try people.link(key, column: favourite)) }
        try fixture.catalog.verify()
    }

    func testListsOfPrimitivesHoldNullableElements() throws {
        let tags = try person.addColumn(named: "tags", type: .list(.string), elementsNullable: true)
        let ana = try person.insert([(tags, .list([.string("x"), .null, .string("")]))])
        XCTAssertEqual(try person.list(ana, column: tags), [.string("x"), .null, .string("")])
        XCTAssertThrowsError(try person.listAppend(ana, column: tags, .int(1)))
        XCTAssertEqual(try person.listCount(ana, column: tags), 3)
    }
}
