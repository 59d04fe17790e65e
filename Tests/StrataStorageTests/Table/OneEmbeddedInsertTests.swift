import StrataTestSupport
import XCTest

@testable import StrataStorage

/// `Table.insert(_:into:embedding:)` with one `EmbeddedRow` (no arrays per insert, the embedded row placed by
/// `Table.insertOwned(row:key:backlink:)` rather than a second general insert): the same tables as the array form
/// and as inserting then linking, a refused owner leaving nothing behind, and the general way taken when the
/// embedded table has an index the short way does not keep.
final class OneEmbeddedInsertTests: XCTestCase {
    private var fixture: TableFixture!
    private var person: Table!
    private var address: Table!
    private var id: ColumnKey!
    private var home: ColumnKey!
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
    }

    private func row(_ number: Int) -> EmbeddedRow {
        EmbeddedRow(link: home, values: [.string("\(number) Main Street"), .string("city-\(number % 7)")],
            columns: [street, city])
    }

    /// Every owner's link, every embedded object's values and backlink, and the city index, for owners `0..<count`.
    private func assertLinked(_ owners: [ObjectKey], _ homes: [ObjectKey], file: StaticString = #filePath, line: UInt = #line) throws {
        for (number, (owner, embedded)) in zip(owners, homes).enumerated() {
            XCTAssertEqual(try person.value(owner, column: home), .link(embedded), file: file, line: line)
            XCTAssertEqual(try address.value(embedded, column: street), .string("\(number) Main Street"), file: file, line: line)
            XCTAssertEqual(try address.backlinks(of: embedded, from: person.key, column: home), [owner], file: file, line: line)
        }
        for town in 0..<7 {
            let expected = homes.enumerated().filter { $0.offset % 7 == town }.map(\.element)
            XCTAssertEqual(try address.lookup(cityIndex, equal: [.string("city-\(town)")]), expected, file: file, line: line)
        }
    }

    func testOneEmbeddedObjectIsLinkedOwnedAndIndexedAcrossClusters() throws {
        var owners: [ObjectKey] = []
        var homes: [ObjectKey] = []
        // Enough people for many clusters of each table and a written-out tree mid-transaction.
        for number in 0..<6_000 {
            let inserted = try person.insert([.int(Int64(number))], into: [id], embedding: row(number))
            owners.append(inserted.owner)
            homes.append(inserted.embedded)
        }
        XCTAssertEqual(homes, (0..<6_000).map { ObjectKey(Int64($0)) }, "the embedded table's keys, in order")
        try assertLinked(owners, homes)
        try fixture.catalog.verify()
        // Unlinked before the commit, while its cluster is still the decoded one its backlink was written into:
        // the backlink read back and removed, and the orphan deleted with its index entry.
        try person.set(owners[5_999], column: home, to: .null)
        XCTAssertFalse(try address.contains(homes[5_999]))
        XCTAssertFalse(try address.lookup(cityIndex, equal: [.string("city-\(5_999 % 7)")]).contains(homes[5_999]))
        owners.removeLast()
        homes.removeLast()
        try fixture.catalog.verify()
        try fixture.commit()
        person = try XCTUnwrap(fixture.catalog.table(named: "Person"))
        address = try XCTUnwrap(fixture.catalog.table(named: "Address"))
        try assertLinked(owners, homes)
        // Owned: deleting the owner deletes it, and the index forgets it.
        try person.delete(owners[7])
        XCTAssertFalse(try address.contains(homes[7]))
        XCTAssertFalse(try address.lookup(cityIndex, equal: [.string("city-0")]).contains(homes[7]))
        XCTAssertEqual(try address.count(), 5_998)
        try fixture.catalog.verify()
    }

    func testTheOneObjectFormLeavesWhatTheArrayFormLeaves() throws {
        for number in 0..<200 {
            if number.isMultiple(of: 2) {
                _ = try person.insert([.int(Int64(number))], into: [id], embedding: row(number))
            } else {
                _ = try person.insert([.int(Int64(number))], into: [id], embedding: [row(number)])
            }
        }
        let owners = (0..<200).map { ObjectKey(Int64($0)) }
        let homes = try owners.map { owner -> ObjectKey in
            guard case .link(let key) = try person.value(owner, column: home) else { throw StrataError.invalidArgument("no home") }
            return key
        }
        XCTAssertEqual(homes, owners)
        try assertLinked(owners, homes)
        try fixture.commit()
        try fixture.catalog.verify()
    }

    func testARefusedOwnerLeavesNoEmbeddedObject() throws {
        _ = try person.insert([.int(1)], into: [id], embedding: row(1))
        let nextKey = address.nextObjectKey
        XCTAssertThrowsError(try person.insert([.int(1)], into: [id], embedding: row(3))) { error in
            XCTAssertTrue("\(error)".contains("unique"), "\(error)")
        }
        XCTAssertEqual(try address.count(), 1, "the embedded object of a refused owner is not inserted")
        XCTAssertEqual(address.nextObjectKey, nextKey)
        XCTAssertEqual(try address.lookup(cityIndex, equal: [.string("city-3")]), [])
        // A wrong value for the embedded object refuses the whole insert before the owner goes in.
        let wrong = EmbeddedRow(link: home, values: [.int(5), .string("x")], columns: [street, city])
        XCTAssertThrowsError(try person.insert([.int(2)], into: [id], embedding: wrong))
        XCTAssertEqual(try person.count(), 1)
        XCTAssertEqual(try address.count(), 1)
        // The link given a value of its own as well is refused too.
        XCTAssertThrowsError(try person.insert([.int(2), .link(ObjectKey(0))], into: [id, home], embedding: row(2)))
        XCTAssertEqual(try person.count(), 1)
        let next = try person.insert([.int(2)], into: [id], embedding: row(2))
        XCTAssertEqual(next.embedded, ObjectKey(nextKey))
        XCTAssertEqual(try address.backlinks(of: next.embedded, from: person.key, column: home), [next.owner])
        try fixture.catalog.verify()
    }

    func testAnEmbeddedTableWithAUniqueOrElementIndexTakesTheGeneralWay() throws {
        _ = try address.addIndex(on: [street], unique: true)
        let tags = try address.addColumn(named: "tags", type: .set(.string))
        let tagIndex = try address.addIndex(on: [tags])
        var homes: [ObjectKey] = []
        for number in 0..<50 {
            let item = EmbeddedRow(
                link: home, values: [.string("\(number) Main Street"), .string("city-\(number % 7)"),
                    .list([.string("t\(number % 5)"), .string("all")])],
                columns: [street, city, tags])
            let inserted = try person.insert([.int(Int64(number))], into: [id], embedding: item)
            XCTAssertEqual(try address.backlinks(of: inserted.embedded, from: person.key, column: home), [inserted.owner])
            homes.append(inserted.embedded)
        }
        XCTAssertEqual(try address.lookup(tagIndex, equal: [.string("all")]).count, 50)
        XCTAssertEqual(try address.lookup(tagIndex, equal: [.string("t2")]).count, 10)
        try assertLinked((0..<50).map { ObjectKey(Int64($0)) }, homes)
        try fixture.commit()
        try fixture.catalog.verify()
    }
}
