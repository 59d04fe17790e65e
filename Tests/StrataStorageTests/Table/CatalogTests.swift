import StrataStorage
import StrataTestSupport
import XCTest

final class CatalogTests: XCTestCase {
    func testTablesAndColumnsRenameAndKeepData() throws {
        let fixture = try TableFixture()
        let table = try fixture.catalog.createTable(named: "Person")
        let age = try table.addColumn(named: "yearsSinceBirth", type: .value(.int))
        let key = try table.insert([(age, .int(41))])
        try fixture.commit()
        try fixture.catalog.renameTable("Person", to: "Human")
        let human = try XCTUnwrap(fixture.catalog.table(named: "Human"))
        try human.renameColumn(age, to: "age")
        try fixture.commit()
        let reopened = try XCTUnwrap(fixture.catalog.table(named: "Human"))
        XCTAssertNil(fixture.catalog.table(named: "Person"))
        XCTAssertEqual(reopened.column(named: "age")?.key, age)
        XCTAssertEqual(try reopened.int(key, column: age), 41)
        XCTAssertThrowsError(try fixture.catalog.createTable(named: "Human"))
        XCTAssertThrowsError(try reopened.addColumn(named: "age", type: .value(.bool)))
    }

    func testAddedColumnIsFilledWithItsDefaultAndRemovedColumnIsGone() throws {
        let fixture = try TableFixture()
        let table = try fixture.catalog.createTable(named: "Item")
        let first = try table.addColumn(named: "first", type: .value(.int))
        let keys = try (0..<2100).map { try table.insert([(first, .int(Int64($0)))]) }
        try fixture.commit()
        let items = try XCTUnwrap(fixture.catalog.table(named: "Item"))
        let status = try items.addColumn(named: "status", type: .value(.string), defaultValue: .string("active"))
        let note = try items.addColumn(named: "note", type: .value(.string), nullable: true)
        let tags = try items.addColumn(named: "tags", type: .list(.int))
        XCTAssertThrowsError(try items.addColumn(named: "bad", type: .value(.int), defaultValue: .string("x")))
        try fixture.commit()
        let reopened = try XCTUnwrap(fixture.catalog.table(named: "Item"))
        XCTAssertEqual(try reopened.string(keys[2000], column: status), "active")
        XCTAssertNil(try reopened.string(keys[5], column: note))
        XCTAssertEqual(try reopened.list(keys[7], column: tags), [])
        try reopened.removeColumn(first)
        XCTAssertNil(reopened.column(named: "first"))
        XCTAssertThrowsError(try reopened.int(keys[0], column: first))
        try fixture.commit()
        try fixture.catalog.verify()
    }

    func testMetadataAndSequencesPersistAndRollBack() throws {
        let fixture = try TableFixture()
        try fixture.catalog.setMetadata(Array("v1".utf8), forKey: "schema.version")
        let table = try fixture.catalog.createTable(named: "Loan")
        XCTAssertEqual(try table.nextSequenceValue("id"), 1)
        XCTAssertEqual(try table.nextSequenceValue("id"), 2)
        try fixture.commit()
        XCTAssertEqual(try fixture.catalog.metadata(forKey: "schema.version"), Array("v1".utf8))
        try fixture.catalog.setMetadata(Array("v2".utf8), forKey: "schema.version")
        try fixture.catalog.setMetadata([1, 2, 3], forKey: "fingerprint.2")
        XCTAssertEqual(try fixture.catalog.table(named: "Loan")!.nextSequenceValue("id"), 3)
        try fixture.rollback()
        XCTAssertEqual(try fixture.catalog.metadata(forKey: "schema.version"), Array("v1".utf8))
        XCTAssertEqual(try fixture.catalog.metadataKeys(), ["schema.version"])
        XCTAssertEqual(fixture.catalog.table(named: "Loan")!.currentSequenceValue("id"), 2)
        try fixture.catalog.setMetadata(nil, forKey: "schema.version")
        try fixture.commit()
        XCTAssertNil(try fixture.catalog.metadata(forKey: "schema.version"))
    }

    func testRemovingATableFreesItsNodesAndRefusesWhileLinkedTo() throws {
        let fixture = try TableFixture()
        let person = try fixture.catalog.createTable(named: "Person")
        let book = try fixture.catalog.createTable(named: "Book")
        let favourite = try person.addColumn(named: "favourite", type: .value(.link), target: book.key)
        let title = try book.addColumn(named: "title", type: .value(.string))
        let dune = try book.insert([(title, .string(String(repeating: "long ", count: 1000)))])
        try person.insert([(favourite, .link(dune))])
        try fixture.commit()
        XCTAssertThrowsError(try fixture.catalog.removeTable(named: "Book")) { error in
            XCTAssertTrue("\(error)".contains("Person.favourite"), "\(error)")
        }
        try fixture.catalog.removeTable(named: "Person")
        try fixture.catalog.removeTable(named: "Book")
        try fixture.commit()
        XCTAssertTrue(fixture.catalog.tables.isEmpty)
        XCTAssertEqual(fixture.space.committedNodeCount, 1, "only the catalog node is left")
    }

    func testReadCatalogRefusesWrites() throws {
        let fixture = try TableFixture()
        try fixture.catalog.createTable(named: "T")
        try fixture.commit()
        let reader = try fixture.reader()
        XCTAssertThrowsError(try reader.createTable(named: "U")) { error in
            guard case StrataError.transactionMisuse = error else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try reader.table(named: "T")!.insert())
    }

    func testNodeVisitorCoversEveryCommittedNodeOnce() throws {
        let fixture = try TableFixture()
        let table = try fixture.catalog.createTable(named: "T")
        let text = try table.addColumn(named: "text", type: .value(.string))
        try table.setPrimaryKey(text)
        for index in 0..<3000 { try table.insert([(text, .string(index % 100 == 0 ? String(repeating: "y", count: 5000) + "\(index)" : "t\(index)"))]) }
        try fixture.catalog.setMetadata([9], forKey: "m")
        try fixture.commit()
        var seen: [NodeRef] = []
        try fixture.catalog.forEachNode { seen.append($0) }
        XCTAssertEqual(seen.count, Set(seen).count)
        XCTAssertEqual(Set(seen), fixture.space.committedRefs)
    }
}
