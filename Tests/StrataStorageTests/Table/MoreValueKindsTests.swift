import Foundation
@testable import StrataStorage
import StrataTestSupport
import XCTest

/// Decimal, ObjectId and mixed (`any`) columns: their encodings, their index order, and the typed links a mixed
/// value holds (backlinks, deletion, removal of tables and columns, catalog copies).
final class MoreValueKindsTests: XCTestCase {
    private var fixture: TableFixture!
    private var person: Table!
    private var book: Table!

    override func setUpWithError() throws {
        fixture = try TableFixture()
        person = try fixture.catalog.createTable(named: "Person")
        book = try fixture.catalog.createTable(named: "Book")
    }

    /// Commits, and takes the tables again from the next transaction's catalog.
    private func commit() throws {
        try fixture.commit()
        person = try XCTUnwrap(fixture.catalog.table(named: "Person"))
        book = fixture.catalog.table(named: "Book")
    }

    // MARK: Decimal

    func testDecimalEncodingIsExactAndSortsByValue() throws {
        let texts = ["-1e30", "-123456789012345678901234567890.12345678", "-10.25", "-10.2", "-1", "-0.001", "0",
                     "0.001", "0.1", "0.5", "1", "1.5", "2", "10", "10.2", "10.25", "99999999999999999999999999999999999999",
                     "1e100"]
        let values = texts.map { Decimal(string: $0)! }
        for (text, value) in zip(texts, values) {
            let bytes = DecimalCoding.encode(value)
            XCTAssertEqual(bytes.withUnsafeBytes { DecimalCoding.decode($0) }, value, text)
        }
        let encoded = values.map(DecimalCoding.encode)
        for (left, right) in zip(encoded, encoded.dropFirst()) {
            XCTAssertLessThan(ByteOrder.compare(left, right), 0, "\(left) sorts before \(right)")
        }
        XCTAssertEqual(DecimalCoding.encode(Decimal(string: "10.25")!), [0x03, 0x80, 0x01, 0x21, 0x36, 0x00])
        XCTAssertEqual(DecimalCoding.encode(Decimal(string: "1.50")!), DecimalCoding.encode(Decimal(string: "1.5")!))
        XCTAssertEqual([UInt8](arrayLiteral: 0x04).withUnsafeBytes { DecimalCoding.decode($0) }?.isNaN, true)
        XCTAssertNil([UInt8]([0x03, 0x80]).withUnsafeBytes { DecimalCoding.decode($0) }, "a truncated encoding")
        XCTAssertNil([UInt8]([0x03, 0x80, 0x01, 0xC0]).withUnsafeBytes { DecimalCoding.decode($0) }, "a digit nibble past 9")
    }

    func testDecimalColumnStoresIndexesAndRangesByValue() throws {
        let amount = try person.addColumn(named: "amount", type: .value(.decimal), nullable: true)
        let index = try person.addIndex(on: [amount])
        var keys: [String: ObjectKey] = [:]
        for text in ["10.25", "-3", "0.1", "2.50", "100"] {
            keys[text] = try person.insert([(amount, .decimal(Decimal(string: text)!))])
        }
        let none = try person.insert([(amount, .null)])
        XCTAssertEqual(try person.decimal(keys["2.50"]!, column: amount), Decimal(string: "2.5"))
        XCTAssertNil(try person.decimal(none, column: amount))
        XCTAssertEqual(try person.lookup(index, equal: [.decimal(Decimal(string: "2.5")!)]), [keys["2.50"]!])
        let between = try person.lookup(index, from: .decimal(0), to: .decimal(Decimal(string: "10.25")!), upperInclusive: true)
        XCTAssertEqual(between, [keys["0.1"]!, keys["2.50"]!, keys["10.25"]!], "ordered by value, not by text")
        try fixture.commit()
        try fixture.catalog.verify()
    }

    // MARK: ObjectId

    func testObjectIdTextBytesOrderAndCodable() throws {
        let id = try ObjectId(string: "507F1F77bcf86cd799439011")
        XCTAssertEqual(id.stringValue, "507f1f77bcf86cd799439011")
        XCTAssertEqual(id.bytes.count, 12)
        XCTAssertEqual(ObjectId(bytes: id.bytes), id)
        XCTAssertEqual(id.timestamp, Date(timeIntervalSince1970: 0x507f1f77))
        XCTAssertThrowsError(try ObjectId(string: "507f1f77bcf86cd79943901"))
        XCTAssertNil(ObjectId("zz7f1f77bcf86cd799439011"))
        let first = ObjectId.generate()
        let second = ObjectId.generate()
        XCTAssertLessThan(first, second, "later identifiers of one process sort later")
        XCTAssertLessThan(ObjectId.generate(at: Date(timeIntervalSince1970: 10)), ObjectId.generate(at: Date(timeIntervalSince1970: 11)))
        let json = try JSONEncoder().encode([id])
        XCTAssertEqual(String(decoding: json, as: UTF8.self), "[\"507f1f77bcf86cd799439011\"]")
        XCTAssertEqual(try JSONDecoder().decode([ObjectId].self, from: json), [id])
    }

    func testObjectIdPrimaryKey() throws {
        let id = try person.addColumn(named: "_id", type: .value(.objectId))
        try person.setPrimaryKey(id)
        let value = ObjectId.generate()
        let key = try person.insert([(id, .objectId(value))])
        XCTAssertEqual(try person.find(primaryKey: .objectId(value)), key)
        XCTAssertEqual(try person.objectId(key, column: id), value)
        XCTAssertThrowsError(try person.insert([(id, .objectId(value))])) { error in
            guard case StrataError.duplicatePrimaryKey = error else { return XCTFail("\(error)") }
        }
        try fixture.catalog.verify()
    }

    // MARK: Mixed

    func testMixedValuesKeepTheirKindAndIndexSeparatesKinds() throws {
        let mixed = try person.addColumn(named: "mixed", type: .value(.mixed), nullable: true)
        let index = try person.addIndex(on: [mixed])
        let values: [StorageValue] = [
            .null, .int(1), .double(1), .float(1.5), .bool(true), .string("1"), .binary([0, 1]), .timestamp(5),
            .uuid(UUID()), .decimal(1), .objectId(.generate()),
        ]
        var keys: [ObjectKey] = []
        for value in values { keys.append(try person.insert([(mixed, value)])) }
        for (key, value) in zip(keys, values) { XCTAssertEqual(try person.value(key, column: mixed), value) }
        XCTAssertEqual(try person.lookup(index, equal: [.int(1)]), [keys[1]], "an int entry is not a double's")
        XCTAssertEqual(try person.lookup(index, equal: [.string("1")]), [keys[5]])
        XCTAssertEqual(try person.lookup(index, in: [.double(1), .decimal(1)]).sorted(), [keys[2], keys[9]])
        XCTAssertThrowsError(try person.insert([(mixed, .list([]))]))
        XCTAssertThrowsError(try person.insert([(mixed, .link(ObjectKey(0)))]), "a plain link names no table")
        try fixture.commit()
        try fixture.catalog.verify()
    }

    func testTypedLinksKeepBacklinksAndBecomeNullWhenTheTargetGoes() throws {
        let mixed = try person.addColumn(named: "mixed", type: .value(.mixed), nullable: true)
        let many = try person.addColumn(named: "many", type: .list(.mixed), elementsNullable: true)
        try person.addIndex(on: [mixed])
        let dune = try book.insert()
        let emma = try book.insert()
        XCTAssertNil(book.column(named: "@backlinks(\(person.key.rawValue).\(mixed.rawValue))"), "made when first linked")
        let ana = try person.insert([(mixed, .typedLink(book.key, dune)), (many, .list([.int(3), .typedLink(book.key, dune), .typedLink(book.key, emma)]))])
        let bo = try person.insert([(mixed, .typedLink(person.key, ana))])
        XCTAssertEqual(try book.backlinks(of: dune, from: person.key, column: mixed), [ana])
        XCTAssertEqual(try book.backlinks(of: dune, from: person.key, column: many), [ana])
        XCTAssertEqual(try person.backlinks(of: ana, from: person.key, column: mixed), [bo])
        XCTAssertEqual(try book.backlinkCount(of: dune), 2)
        XCTAssertThrowsError(try person.insert([(mixed, .typedLink(book.key, ObjectKey(99)))]), "a missing target")
        try commit()
        try fixture.catalog.verify()

        try book.delete(dune)
        XCTAssertEqual(try person.value(ana, column: mixed), .null)
        XCTAssertEqual(try person.list(ana, column: many), [.int(3), .null, .typedLink(book.key, emma)], "the element stays, as null")
        try person.set(ana, column: mixed, to: .typedLink(book.key, emma))
        try person.set(ana, column: mixed, to: .string("no link"))
        XCTAssertEqual(try book.backlinks(of: emma, from: person.key, column: mixed), [])
        try person.delete(ana)
        XCTAssertEqual(try person.value(bo, column: mixed), .null)
        XCTAssertEqual(try book.backlinkCount(of: emma), 0)
        try commit()
        try fixture.catalog.verify()
    }

    func testRemovingALinkedTableOrTheMixedColumnDropsTheLinks() throws {
        let mixed = try person.addColumn(named: "mixed", type: .value(.mixed), nullable: true)
        let dune = try book.insert()
        let ana = try person.insert([(mixed, .typedLink(book.key, dune))])
        try fixture.catalog.removeTable(named: "Book")
        XCTAssertEqual(try person.value(ana, column: mixed), .null)
        try commit()
        try fixture.catalog.verify()

        let shelf = try fixture.catalog.createTable(named: "Shelf")
        let oak = try shelf.insert()
        let people = try XCTUnwrap(fixture.catalog.table(named: "Person"))
        try people.set(ana, column: mixed, to: .typedLink(shelf.key, oak))
        XCTAssertNotNil(shelf.column(named: "@backlinks(\(people.key.rawValue).\(mixed.rawValue))"))
        try people.removeColumn(mixed)
        XCTAssertFalse(shelf.columns.contains { $0.type == .backlinks }, "the column's backlinks go with it")
        try fixture.commit()
        try fixture.catalog.verify()
    }

    func testCatalogCopyKeepsEveryKindAndRetargetsTypedLinks() throws {
        let spare = try fixture.catalog.createTable(named: "Spare")
        try fixture.catalog.removeTable(named: spare.name)  // leaves a gap in the table keys
        let shelf = try fixture.catalog.createTable(named: "Shelf")
        let amount = try person.addColumn(named: "amount", type: .value(.decimal))
        let id = try person.addColumn(named: "id", type: .value(.objectId))
        let mixed = try person.addColumn(named: "mixed", type: .value(.mixed), nullable: true)
        try person.addIndex(on: [mixed])
        let oak = try shelf.insert()
        let value = ObjectId.generate()
        let ana = try person.insert([(amount, .decimal(Decimal(string: "12.5")!)), (id, .objectId(value)), (mixed, .typedLink(shelf.key, oak))])
        try fixture.commit()
        let copy = try TableFixture()
        let destination = copy.catalog
        try fixture.catalog.copy(into: destination)
        try destination.verify()
        let people = try XCTUnwrap(destination.table(named: "Person"))
        let shelves = try XCTUnwrap(destination.table(named: "Shelf"))
        XCTAssertEqual(try people.value(ana, column: try XCTUnwrap(people.column(named: "amount")).key), .decimal(Decimal(string: "12.5")!))
        XCTAssertEqual(try people.value(ana, column: try XCTUnwrap(people.column(named: "id")).key), .objectId(value))
        XCTAssertEqual(try people.value(ana, column: try XCTUnwrap(people.column(named: "mixed")).key), .typedLink(shelves.key, oak))
    }
}
