import Foundation
import StrataStorage
import StrataTestSupport
import XCTest

@testable import Strata

/// `add` inserts a new embedded object that links to nothing itself together with its owner's row
/// (`Table.insert(_:into:embedding:)`): the instance becomes managed, owned once, deleted with its owner; an instance
/// in two slots is still refused; a refused owner keeps nothing; nested embedded objects (`Homes`: an address's geo)
/// go the same way one level down.
final class EmbeddedInsertWithOwnerTests: EmbeddedTestCase {
    override class func makeConfiguration() -> Configuration { Configuration(schema: Badges.self) }

    func testNewEmbeddedObjectsAreOwnedManagedAndDeletedWithTheirOwner() throws {
        let badges = (0..<200).map { Badge(colour: "c\($0 % 4)", level: $0) }
        try db.write {
            for id in 0..<200 { db.add(Wearer(id: id, badge: id % 5 == 0 ? nil : badges[id])) }
        }
        let wearers = db.objects(Wearer.self)
        XCTAssertEqual(try table("Badge").count(), 160)
        for id in [1, 2, 199] {
            XCTAssertTrue(badges[id].isManaged)
            XCTAssertEqual(wearers.filter { $0.id == id }.first?.badge?.level, id)
        }
        XCTAssertEqual(
            try wearers.filter("badge.colour == %@", "c1").count, wearers.filter { $0.badge?.colour == "c1" }.count)
        let badgeTable = try table("Badge")
        for key in try badgeTable.keys() { XCTAssertEqual(try badgeTable.backlinkCount(of: key), 1) }
        try db.write { db.delete(try wearers.filter("id < 100")) }
        XCTAssertEqual(try table("Badge").count(), 80)
        try db.write { badges[151].level = 7 }
        XCTAssertEqual(
            wearers.filter { $0.id == 151 }.first?.badge?.level, 7, "the added instance writes the store")
        XCTAssertNoThrow(try db.verify())
    }

    /// An owner added without its embedded object (a nil link, which a new row holds already) writes no link
    /// column after its row: it reads nil, and a badge set afterwards, in the same write or the next, is owned as
    /// usual.
    func testAnOwnerAddedWithoutItsEmbeddedObjectLinksNothingUntilOneIsSet() throws {
        let bare = (0..<50).map { Wearer(id: $0, badge: nil) }
        try db.write {
            db.add(bare)
            bare[3].badge = Badge(colour: "green", level: 3)
        }
        XCTAssertTrue(bare.allSatisfy(\.isManaged))
        XCTAssertEqual(try table("Badge").count(), 1)
        XCTAssertNil(bare[4].badge)
        XCTAssertEqual(bare[3].badge?.level, 3)
        try db.write { bare[4].badge = Badge(colour: "blue", level: 4) }
        XCTAssertEqual(db.objects(Wearer.self).filter { $0.badge != nil }.map(\.id), [3, 4])
        let badgeTable = try table("Badge")
        for key in try badgeTable.keys() { XCTAssertEqual(try badgeTable.backlinkCount(of: key), 1) }
        XCTAssertNoThrow(try db.verify())
    }

    func testAnInstanceInTwoSlotsOrARefusedOwnerKeepsNothing() throws {
        let shared = Badge(colour: "red", level: 1)
        let pair = [Wearer(id: 1, badge: shared), Wearer(id: 2, badge: shared)]
        XCTAssertThrowsError(try db.write { db.add(pair) }) { error in
            XCTAssertTrue("\(error)".contains("already belongs"), "\(error)")
        }
        XCTAssertEqual(try table("Badge").count(), 0)
        try db.write { db.add(Wearer(id: 1, badge: Badge(colour: "red", level: 1))) }
        XCTAssertThrowsError(try db.write { db.add(Wearer(id: 1, badge: Badge(colour: "blue", level: 2))) })
        XCTAssertEqual(try table("Badge").count(), 1)
        XCTAssertEqual(try db.objects(Wearer.self).filter("badge.colour == 'blue'").count, 0)
    }

    func testNestedEmbeddedObjectsGoInWithTheirOwnerOneLevelDown() throws {
        let homesDirectory = try TemporaryDirectory()
        let configuration = Configuration(schema: Homes.self)
            .scratch(at: homesDirectory.url.appendingPathComponent("homes.strata"))
        let homes = try Database(configuration: configuration)
        let geo = Geo(lat: 1, lon: 2)
        let person = Resident(id: 1, name: "Ada", home: Address(street: "1", city: "Paris", geo: geo))
        try homes.write { homes.add(person) }
        XCTAssertTrue(geo.isManaged)
        XCTAssertEqual(person.home?.geo?.lon, 2)
        XCTAssertEqual(try table("Geo", in: homes).count(), 1)
        try homes.write { person.home = nil }
        XCTAssertEqual(try table("Geo", in: homes).count(), 0)
        XCTAssertEqual(try table("Address", in: homes).count(), 0)
        XCTAssertNoThrow(try homes.verify())
    }
}
