import StrataTestSupport
import XCTest

@testable import StrataStorage

/// `Table.insert(_:into:embedding:)`: an owner and its new embedded objects written in one step (each row placed
/// once, the link and the backlink written with the rows) leave the same tables as inserting and linking; a refused
/// owner changes nothing; embedded objects that cannot go this way are inserted and linked instead. Also the
/// element entries of an indexed set, now appended straight to the pending buffer on insert.
final class EmbeddedInsertTests: XCTestCase {
    private var fixture: TableFixture!
    private var person: Table!
    private var address: Table!
    private var id: ColumnKey!
    private var home: ColumnKey!
    private var work: ColumnKey!
    private var street: ColumnKey!
    private var city: ColumnKey!
    private var cityIndex: IndexKey!

    override func setUpWithError() throws {
        fixture = try TableFixture()
        person = try fixture.catalog.createTable(named: "Person")
        address = try fixture.catalog.createTable(named: "Address")
        try address.setEmbedded(true)
        id = try person.addColumn(named: "id", type: .value(.int))
        _ = try person.addIndex(on: [id], unique: true)
        street = try address.addColumn(named: "street", type: .value(.string))
        city = try address.addColumn(named: "city", type: .value(.string))
        cityIndex = try address.addIndex(on: [city])
        home = try person.addColumn(named: "home", type: .value(.link), target: address.key)
        work = try person.addColumn(named: "work", type: .value(.link), target: address.key)
    }

    private func row(_ number: Int) -> EmbeddedRow {
        EmbeddedRow(link: home, values: [.string("\(number) Main Street"), .string("city-\(number % 3)")],
            columns: [street, city])
    }

    func testOwnerAndEmbeddedObjectsAreWrittenOnceAndLinked() throws {
        var owners: [ObjectKey] = []
        for number in 0..<500 {
            let inserted = try person.insert([.int(Int64(number))], into: [id], embedding: [row(number)])
            XCTAssertEqual(inserted.embedded.count, 1)
            XCTAssertEqual(try person.value(inserted.owner, column: home), .link(inserted.embedded[0]))
            XCTAssertEqual(
                try address.backlinks(of: inserted.embedded[0], from: person.key, column: home), [inserted.owner])
            owners.append(inserted.owner)
        }
        XCTAssertEqual(try address.count(), 500)
        XCTAssertEqual(try address.lookup(cityIndex, equal: [.string("city-1")]).count, 167)
        try fixture.catalog.verify()
        try fixture.commit()
        person = try XCTUnwrap(fixture.catalog.table(named: "Person"))
        address = try XCTUnwrap(fixture.catalog.table(named: "Address"))
        // Owned as any linked embedded object is: deleting the owner deletes it, a second slot is refused.
        let first = try XCTUnwrap(Table.linkTargets(try person.value(owners[0], column: home)).first)
        XCTAssertThrowsError(try person.set(owners[1], column: work, to: .link(first)))
        try person.delete(owners[0])
        XCTAssertFalse(try address.contains(first))
        XCTAssertEqual(try address.count(), 499)
        try fixture.catalog.verify()
    }

    /// The embedded object's backlink is placed with its row: also into the last cluster as it is read back after
    /// a write-out mid-transaction (its columns kept in their stored form, rows appended after them), which a
    /// bulk insert of ten thousand addresses passes through several times.
    func testBacklinksPlacedWithTheRowSurviveWriteOutsMidTransaction() throws {
        var inserted: [(owner: ObjectKey, embedded: ObjectKey)] = []
        for number in 0..<12_000 {
            let keys = try person.insert([.int(Int64(number))], into: [id], embedding: [row(number)])
            inserted.append((keys.owner, keys.embedded[0]))
        }
        func check() throws {
            XCTAssertEqual(try address.count(), 12_000)
            for (position, keys) in inserted.enumerated() where position % 97 == 0 || position >= 11_990 {
                XCTAssertEqual(try address.backlinks(of: keys.embedded, from: person.key, column: home), [keys.owner])
                XCTAssertEqual(try address.value(keys.embedded, column: street), .string("\(position) Main Street"))
                XCTAssertEqual(try person.value(keys.owner, column: home), .link(keys.embedded))
            }
            try fixture.catalog.verify()
        }
        try check()
        try fixture.commit()
        person = try XCTUnwrap(fixture.catalog.table(named: "Person"))
        address = try XCTUnwrap(fixture.catalog.table(named: "Address"))
        try check()
    }

    func testTwoEmbeddedObjectsOfOneTableGetConsecutiveKeysInOrder() throws {
        let workplace = EmbeddedRow(link: work, values: [.string("Office")], columns: [street])
        let inserted = try person.insert([.int(7)], into: [id], embedding: [row(1), workplace])
        XCTAssertEqual(inserted.embedded.count, 2)
        XCTAssertEqual(try person.value(inserted.owner, column: home), .link(inserted.embedded[0]))
        XCTAssertEqual(try person.value(inserted.owner, column: work), .link(inserted.embedded[1]))
        XCTAssertEqual(try address.value(inserted.embedded[1], column: street), .string("Office"))
        XCTAssertEqual(try address.value(inserted.embedded[1], column: city), .string(""))
        try fixture.catalog.verify()
    }

    func testARefusedOwnerChangesNothing() throws {
        _ = try person.insert([.int(1)], into: [id], embedding: [row(1)])
        XCTAssertThrowsError(try person.insert([.int(1)], into: [id], embedding: [row(2)])) { error in
            XCTAssertTrue("\(error)".contains("unique"), "\(error)")
        }
        XCTAssertEqual(try address.count(), 1, "the embedded object of a refused owner is not inserted")
        XCTAssertEqual(try address.lookup(cityIndex, equal: [.string("city-2")]), [])
        // A new object after the refusal takes the key the refused one was planned to have.
        let next = try person.insert([.int(2)], into: [id], embedding: [row(2)])
        XCTAssertEqual(try address.backlinks(of: next.embedded[0], from: person.key, column: home), [next.owner])
        try fixture.catalog.verify()
    }

    func testLinksThatCannotOwnAreRefused() throws {
        let plain = try fixture.catalog.createTable(named: "Plain")
        let other = try person.addColumn(named: "other", type: .value(.link), target: plain.key)
        XCTAssertThrowsError(
            try person.insert([.int(1)], into: [id], embedding: [EmbeddedRow(link: other, values: [], columns: [])]))
        XCTAssertThrowsError(try person.insert([.int(1)], into: [id], embedding: [row(1), row(2)]))
        XCTAssertThrowsError(
            try person.insert([.int(1), .link(ObjectKey(0))], into: [id, home], embedding: [row(1)]))
        XCTAssertEqual(try person.count(), 0)
        XCTAssertEqual(try address.count(), 0)
    }

    func testAnEmbeddedObjectWithLinksOfItsOwnIsInsertedThenLinked() throws {
        let geo = try fixture.catalog.createTable(named: "Geo")
        try geo.setEmbedded(true)
        let lat = try geo.addColumn(named: "lat", type: .value(.double))
        let place = try address.addColumn(named: "geo", type: .value(.link), target: geo.key)
        let point = try geo.insert([(lat, .double(1))])
        let inserted = try person.insert(
            [.int(3)], into: [id],
            embedding: [EmbeddedRow(link: home, values: [.string("x"), .link(point)], columns: [street, place])])
        XCTAssertEqual(try person.value(inserted.owner, column: home), .link(inserted.embedded[0]))
        XCTAssertEqual(try address.value(inserted.embedded[0], column: place), .link(point))
        try fixture.catalog.verify()
    }

    func testSetElementEntriesOnInsertMatchTheStoredSets() throws {
        let tags = try person.addColumn(named: "tags", type: .set(.string))
        let index = try person.addIndex(on: [tags])
        for number in 0..<300 {
            let names = ["t\(number % 7)", "t\(number % 11)", "t\(number % 7)", "z\u{0}\(number % 5)"]
            _ = try person.insert([.int(Int64(number)), .list(names.map { .string($0) })], into: [id, tags])
        }
        XCTAssertEqual(try person.lookupCount(index, equal: [.string("t3")]), 66)
        XCTAssertEqual(try person.lookup(index, equal: [.string("z\u{0}4")]).count, 60)
        try fixture.catalog.verify()
        try fixture.commit()
        try fixture.catalog.verify()
    }
}
