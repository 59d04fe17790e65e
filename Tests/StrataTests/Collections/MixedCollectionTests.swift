import Foundation
import StrataTestSupport
import XCTest

@testable import Strata

/// Sets and maps of `decimal`, `objectId` and `any` (the Ledger schema): elements through the value codec, links
/// inside `any` elements kept and unlinked like every other link, queries over their values.
final class MixedCollectionTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var configuration: Configuration!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
        configuration = Configuration(schema: Ledger.self)
            .scratch(at: directory.url.appendingPathComponent("ledger.strata"))
    }

    override func tearDown() {
        directory = nil
    }

    private func open() throws -> Database { try Database(configuration: configuration) }

    func testDecimalAndObjectIdSetsAndMapsRoundTripAndSurviveReopening() throws {
        let first = try ObjectId(string: "507f1f77bcf86cd799439011")
        let second = try ObjectId(string: "507f1f77bcf86cd799439012")
        do {
            let db = try open()
            try db.write {
                let purse = Pouch(id: 1)
                db.add(purse)
                purse.coins.insert(Decimal(string: "10.25")!)
                purse.coins.insert(Decimal(string: "-0.5")!)
                purse.coins.insert(Decimal(string: "10.250")!)
                purse.seals.insert(second)
                purse.seals.insert(first)
                purse.seals.insert(second)
                purse.prices["tea"] = Decimal(string: "123456789012345678901234567.5")!
                purse.stamps["a"] = first
            }
        }
        let db = try open()
        let purse = try XCTUnwrap(db.object(ofType: Pouch.self, forPrimaryKey: 1))
        XCTAssertEqual(Array(purse.coins), [Decimal(string: "-0.5")!, Decimal(string: "10.25")!],
                       "10.25 and 10.250 are one decimal; elements in value order")
        XCTAssertEqual(Array(purse.seals), [first, second], "ObjectIds in byte order, once each")
        XCTAssertTrue(purse.coins.contains(Decimal(string: "10.2500")!))
        XCTAssertEqual(purse.prices["tea"], Decimal(string: "123456789012345678901234567.5"))
        XCTAssertEqual(purse.stamps["a"], first)
        XCTAssertNil(purse.stamps["b"])
    }

    func testAnySetKeepsKindsApartAndDropsALinkWhoseObjectIsDeleted() throws {
        let db = try open()
        let ruby = Gem(name: "ruby")
        let opal = Gem(name: "opal")
        let purse = Pouch(id: 1)
        try db.write {
            db.add(purse)
            purse.charms.insert(.int(1))
            purse.charms.insert(.double(1))
            purse.charms.insert(.string("1"))
            purse.charms.insert(.int(1))
            purse.charms.insert(.object(ruby))
            purse.charms.insert(.object(opal))
            purse.charms.insert(.none)
        }
        XCTAssertTrue(ruby.isManaged, "an unmanaged object in a set<any> is added with it")
        XCTAssertEqual(purse.charms.count, 6, "1, 1.0 and \"1\" are three elements; 1 once")
        XCTAssertTrue(purse.charms.contains(.object(ruby)))
        let gems = db.objects(Gem.self)
        XCTAssertEqual(try gems.filter("name == 'ruby'").count, 1)
        try db.write { db.delete(ruby) }
        XCTAssertEqual(purse.charms.count, 5, "the deleted object's element is gone from the set")
        XCTAssertTrue(purse.charms.contains(.object(opal)))
        XCTAssertTrue(purse.charms.contains(.none))
        try db.write { purse.charms.remove(.object(opal)) }
        try db.write { db.delete(opal) }
        XCTAssertEqual(purse.charms.count, 4)
        XCTAssertEqual(db.objects(Gem.self).count, 0)
    }

    func testAnyMapHoldsNilAndLinksWhoseObjectDeletionNilsTheValue() throws {
        let db = try open()
        let ruby = Gem(name: "ruby")
        let purse = Pouch(id: 1, extras: ["gem": .object(ruby), "n": .int(5), "none": .none, "d": .decimal(5)])
        try db.write { db.add(purse) }
        XCTAssertTrue(ruby.isManaged, "an object inside an unmanaged map<any?> is added with its owner")
        XCTAssertEqual(purse.extras.keys, ["d", "gem", "n", "none"])
        XCTAssertEqual(purse.extras["gem"], .object(ruby))
        XCTAssertEqual(purse.extras["none"], AnyValue.none)
        XCTAssertNil(purse.extras["missing"])
        let pouches = db.objects(Pouch.self)
        XCTAssertEqual(try pouches.filter("ANY extras.@allValues == 5").count, 1, "int 5 and decimal 5 match 5")
        XCTAssertEqual(try pouches.filter("extras['n'] == 5").count, 1)
        XCTAssertEqual(try pouches.filter("ANY extras.@allValues == %@", ruby).count, 1)
        XCTAssertEqual(try pouches.filter("ANY extras.@allValues == 6").count, 0)
        try db.write { db.delete(ruby) }
        XCTAssertEqual(purse.extras.count, 4, "a map keeps its key when the linked object goes")
        XCTAssertEqual(purse.extras["gem"], AnyValue.none)
        let opal = Gem(name: "opal")
        try db.write { purse.extras["gem"] = .object(opal) }
        try db.write { purse.extras["gem"] = .string("sold") }
        try db.write { db.delete(opal) }
        XCTAssertEqual(purse.extras["gem"], .string("sold"), "replacing the link removed its backlink")
    }

    func testQueriesOverDecimalAndObjectIdCollections() throws {
        let db = try open()
        let first = try ObjectId(string: "507f1f77bcf86cd799439011")
        try db.write {
            db.add(Pouch(id: 1, coins: [Decimal(string: "2.5")!, 7], stamps: ["a": first]))
            db.add(Pouch(id: 2, coins: [1], prices: ["tea": Decimal(string: "9.99")!]))
        }
        let pouches = db.objects(Pouch.self)
        XCTAssertEqual(try pouches.filter("ANY coins == 2.5").map(\.id), [1])
        XCTAssertEqual(try pouches.filter("ANY coins > 5").map(\.id), [1])
        XCTAssertEqual(try pouches.filter("ANY prices.@allValues < decimal(10)").map(\.id), [2])
        XCTAssertEqual(try pouches.filter("ANY stamps.@allValues == oid(507f1f77bcf86cd799439011)").map(\.id), [1])
    }

    func testCreateFromAnArrayFillsSetsAndMapsOfTheNewKinds() throws {
        let db = try open()
        let seal = try ObjectId(string: "507f1f77bcf86cd799439011")
        let pouch = try db.write {
            // In the schema's property order: id, coins, seals, charms, prices, stamps, extras.
            db.create(Pouch.self, value: [
                7, [Decimal(string: "2.5")!, 1, 2.5], [seal, seal], [1, 1.0, "1", AnyValue.none, 1],
                ["tea": Decimal(string: "9.99")!], ["a": seal], ["n": 5, "s": "x", "none": AnyValue.none],
            ] as [Any])
        }
        XCTAssertEqual(pouch.id, 7)
        XCTAssertEqual(Array(pouch.coins), [1, Decimal(string: "2.5")!], "2.5 given twice, as a decimal and a double")
        XCTAssertEqual(Array(pouch.seals), [seal])
        XCTAssertEqual(pouch.charms.count, 4, "1, 1.0, \"1\" and none: the repeated 1 once")
        XCTAssertTrue(pouch.charms.contains(.double(1)) && pouch.charms.contains(.none))
        XCTAssertEqual(pouch.prices["tea"], Decimal(string: "9.99"))
        XCTAssertEqual(pouch.stamps["a"], seal)
        XCTAssertEqual(pouch.extras.keys, ["n", "none", "s"])
        XCTAssertEqual(pouch.extras["n"], .int(5))
        XCTAssertEqual(pouch.extras["none"], AnyValue.none)
    }
}
