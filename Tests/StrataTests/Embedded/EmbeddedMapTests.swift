import Foundation
import XCTest

@testable import Strata

/// Embedded objects held by a map (`Resident.holidayHomes: map<Address?>`): each owned by its key, deleted when its
/// value is replaced, set to nil or removed and with the parent, copied in when unmanaged, refused when owned
/// elsewhere, created from nested dictionaries and queried through the parent's key paths.
final class EmbeddedMapTests: EmbeddedTestCase {
    func testMapValuesAreOwnedByTheirKeyAndGoWithItOrWithTheParent() throws {
        let ana = Resident(id: 1, name: "Ana")
        let summer = Address(street: "1 Beach", city: "Nice")
        try db.write {
            db.add(ana)
            ana.holidayHomes["summer"] = summer
            ana.holidayHomes["winter"] = Address(street: "2 Slope", city: "Oslo")
        }
        XCTAssertTrue(summer.isManaged, "the assigned instance becomes the managed embedded object")
        XCTAssertEqual(ana.holidayHomes.keys, ["summer", "winter"])
        XCTAssertEqual(ana.holidayHomes["winter"]??.city, "Oslo")
        XCTAssertEqual(try count("Address"), 2)
        try db.write { ana.holidayHomes["summer"] = Address(street: "3 Cove", city: "Bari") }
        XCTAssertEqual(try count("Address"), 2, "the replaced address is deleted")
        XCTAssertTrue(summer.isInvalidated)
        try db.write { ana.holidayHomes["winter"] = .some(nil) }
        XCTAssertEqual(try count("Address"), 1, "a value set to nil deletes its address and keeps the key")
        XCTAssertEqual(ana.holidayHomes.keys, ["summer", "winter"])
        try db.write { ana.holidayHomes["spring"] = Address(street: "4 Hill", city: "Rome") }
        try db.write { ana.holidayHomes.removeObject(for: "spring") }
        XCTAssertEqual(try count("Address"), 1, "removing the key deletes its address")
        let owned = try XCTUnwrap(ana.holidayHomes["summer"] ?? nil)
        try db.write { owned.city = "Bari Vecchia" }
        XCTAssertEqual(ana.holidayHomes["summer"]??.city, "Bari Vecchia", "a managed embedded object writes in place")

        let residents = db.objects(Resident.self)
        XCTAssertEqual(try residents.filter("holidayHomes['summer'].city BEGINSWITH 'Bari'").map(\.id), [1])
        XCTAssertEqual(try residents.filter("ANY holidayHomes.@allValues.city == 'Rome'").count, 0)

        let bo = Resident(id: 2, name: "Bo")
        try db.write { db.add(bo) }
        XCTAssertThrowsError(try db.write { bo.holidayHomes["x"] = owned }) { error in
            XCTAssertTrue("\(error)".contains("already belongs"), "\(error)")
        }
        XCTAssertEqual(bo.holidayHomes.count, 0, "the failed write is rolled back")
        XCTAssertThrowsError(try db.write { bo.home = owned }, "an address in a map is owned like any other")

        try db.write { db.delete(ana) }
        XCTAssertEqual(try count("Address"), 0, "deleting the parent deletes the addresses of its map")
    }

    func testCreateFillsAMapOfEmbeddedObjectsFromNestedDictionaries() throws {
        try db.write {
            db.create(Resident.self, value: [
                "id": 3, "name": "Cy",
                "holidayHomes": ["summer": ["street": "5", "city": "Lyon", "geo": ["lat": 1.0, "lon": 2.0]]],
            ])
        }
        let cy = try XCTUnwrap(db.object(ofType: Resident.self, forPrimaryKey: 3))
        XCTAssertEqual(cy.holidayHomes["summer"]??.city, "Lyon")
        XCTAssertEqual(cy.holidayHomes["summer"]??.geo?.lon, 2.0)
        try db.write {
            db.create(Resident.self, value: ["id": 3, "holidayHomes": ["autumn": ["street": "6", "city": "Metz"]]],
                      update: .modified)
        }
        XCTAssertEqual(cy.holidayHomes.keys, ["autumn"], "an update replaces the map")
        XCTAssertEqual(try count("Address"), 1, "the replaced map's addresses are deleted")
        XCTAssertEqual(try count("Geo"), 0, "with what they embed")
    }

    func testCreateFromAnArrayFillsEmbeddedObjectsFromArraysAndDictionaries() throws {
        try db.write {
            // In the schema's property order: id, name, home, pastHomes, holidayHomes, friend.
            db.create(Resident.self, value: [
                4, "Di", ["7 Quay", "Gent"],
                [["street": "8", "city": "Ypres"], ["9", "Mons", ["lat": 3.0, "lon": 4.0]]],
                ["x": ["street": "10", "city": "Liège"]],
            ] as [Any])
        }
        let di = try XCTUnwrap(db.object(ofType: Resident.self, forPrimaryKey: 4))
        XCTAssertEqual(di.home?.street, "7 Quay")
        XCTAssertEqual(di.pastHomes.map(\.city), ["Ypres", "Mons"])
        XCTAssertEqual(di.pastHomes[1].geo?.lat, 3.0)
        XCTAssertEqual(di.holidayHomes["x"]??.city, "Liège")
        XCTAssertEqual(try count("Address"), 4)
    }
}
