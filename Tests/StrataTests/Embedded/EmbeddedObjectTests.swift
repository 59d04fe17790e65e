import Foundation
import StrataTestSupport
import XCTest

@testable import Strata

/// Embedded objects through the public API: stored with their parent, owned by one slot, deleted when the slot
/// lets go of them, refused in a second slot, created from nested dictionaries, printed inside their parent.
final class EmbeddedObjectTests: EmbeddedTestCase {
    private func ada() -> Resident {
        Resident(
            id: 1, name: "Ada", home: Address(street: "1 Main", city: "Paris", geo: Geo(lat: 48.8, lon: 2.3)),
            pastHomes: [Address(street: "2 Old", city: "Lyon"), Address(street: "3 Older", city: "Nice")])
    }

    func testAddingAParentStoresItsEmbeddedObjectsNestedOnesIncluded() throws {
        let person = ada()
        try db.write { db.add(person) }
        XCTAssertEqual(person.home?.city, "Paris")
        XCTAssertEqual(person.home?.geo?.lat, 48.8)
        XCTAssertEqual(person.pastHomes.map(\.city), ["Lyon", "Nice"])
        XCTAssertTrue(person.home?.isManaged == true)
        XCTAssertEqual(try count("Address"), 3)
        XCTAssertEqual(try count("Geo"), 1)
        XCTAssertEqual(person.home?.residents.map(\.id), [1], "linking objects of an embedded object reach its owner")
        XCTAssertTrue(try owners("Address").values.allSatisfy { $0 == 1 })
    }

    func testReplacingOrClearingALinkDeletesTheEmbeddedObjectAndWhatItEmbeds() throws {
        let person = ada()
        try db.write { db.add(person) }
        let old = try XCTUnwrap(person.home)
        try db.write { person.home = Address(street: "9 New", city: "Rome") }
        XCTAssertTrue(old.isInvalidated, "the replaced embedded object is deleted")
        XCTAssertEqual(person.home?.city, "Rome")
        XCTAssertEqual(try count("Address"), 3)
        XCTAssertEqual(try count("Geo"), 0, "the replaced address's own embedded object goes with it")
        try db.write { person.home = nil }
        XCTAssertEqual(try count("Address"), 2)
        try db.write { person.home?.city = "unreached" }
        XCTAssertNil(person.home)
    }

    func testSettingAPropertyOfAManagedEmbeddedObjectWritesInPlace() throws {
        let person = ada()
        try db.write { db.add(person) }
        try db.write {
            person.home?.city = "Marseille"
            person.home?.geo = Geo(lat: 43.3, lon: 5.4)
        }
        XCTAssertEqual(person.home?.city, "Marseille")
        XCTAssertEqual(person.home?.geo?.lon, 5.4)
        XCTAssertEqual(try count("Geo"), 1)
    }

    func testRemovingClearingOrReplacingListElementsDeletesThem() throws {
        let person = ada()
        try db.write { db.add(person) }
        try db.write { person.pastHomes.remove(at: 0) }
        XCTAssertEqual(person.pastHomes.map(\.city), ["Nice"])
        XCTAssertEqual(try count("Address"), 2)
        try db.write { person.pastHomes.append(Address(street: "4", city: "Lille")) }
        try db.write { person.pastHomes.move(from: 0, to: 1) }
        XCTAssertEqual(person.pastHomes.map(\.city), ["Lille", "Nice"], "a move keeps the elements")
        XCTAssertEqual(try count("Address"), 3)
        try db.write { person.pastHomes[0] = Address(street: "5", city: "Metz") }
        XCTAssertEqual(try count("Address"), 3)
        try db.write { person.pastHomes = List([Address(street: "6", city: "Caen")]) }
        XCTAssertEqual(person.pastHomes.map(\.city), ["Caen"])
        XCTAssertEqual(try count("Address"), 2)
        try db.write { person.pastHomes.removeAll() }
        XCTAssertEqual(try count("Address"), 1)
    }

    func testDeletingTheParentDeletesEveryEmbeddedObject() throws {
        let person = ada()
        let other = Resident(id: 2, name: "Bo", home: Address(street: "7", city: "Oslo"))
        try db.write { db.add([person, other]) }
        try db.write { db.delete(person) }
        XCTAssertEqual(try count("Address"), 1)
        XCTAssertEqual(try count("Geo"), 0)
        XCTAssertEqual(other.home?.city, "Oslo")
        try db.write { db.deleteAll() }
        XCTAssertEqual(try count("Address"), 0)
    }

    func testDeletingAnEmbeddedObjectEmptiesItsSlot() throws {
        let person = ada()
        try db.write { db.add(person) }
        try db.write { db.delete(person.pastHomes[1]) }
        XCTAssertEqual(person.pastHomes.map(\.city), ["Lyon"])
        try db.write { db.delete(try XCTUnwrap(person.home)) }
        XCTAssertNil(person.home)
        XCTAssertEqual(try count("Geo"), 0)
    }

    func testAnEmbeddedObjectOwnedElsewhereIsRefusedNamingModelOwnerAndProperty() throws {
        let person = ada()
        let other = Resident(id: 2, name: "Bo")
        try db.write { db.add([person, other]) }
        XCTAssertThrowsError(try db.write { other.home = person.home }) { error in
            let message = "\(error)"
            XCTAssertTrue(message.contains("Address"), message)
            XCTAssertTrue(message.contains("Resident.home"), message)
            XCTAssertTrue(message.contains("already belongs"), message)
        }
        XCTAssertNil(other.home, "the failed write is rolled back")
        XCTAssertThrowsError(try db.write { other.pastHomes.append(person.pastHomes[0]) }) { error in
            XCTAssertTrue("\(error)".contains("Resident.pastHomes"), "\(error)")
        }
        XCTAssertThrowsError(try db.write { person.pastHomes.append(person.pastHomes[0]) }) { error in
            XCTAssertTrue("\(error)".contains("twice") || "\(error)".contains("already belongs"), "\(error)")
        }
        XCTAssertEqual(person.pastHomes.count, 2)
        // The same object put back in its own slot is no change.
        try db.write { person.home = person.home }
        XCTAssertEqual(person.home?.city, "Paris")
    }

    func testAnUnmanagedEmbeddedObjectIsCopiedInOnceAndThenOwned() throws {
        let shared = Address(street: "8", city: "Bern")
        let first = Resident(id: 1, name: "A")
        let second = Resident(id: 2, name: "B")
        try db.write { db.add([first, second]) }
        try db.write { first.home = shared }
        XCTAssertTrue(shared.isManaged, "the assigned instance becomes the managed embedded object")
        XCTAssertThrowsError(try db.write { second.home = shared })
        XCTAssertNil(second.home)
        try db.write { second.home = Address(street: shared.street, city: shared.city) }
        XCTAssertEqual(second.home?.city, "Bern")
        XCTAssertEqual(try count("Address"), 2)
    }

    func testCreateFillsEmbeddedObjectsFromNestedDictionaries() throws {
        try db.write {
            db.create(Resident.self, value: [
                "id": 5, "name": "Cy",
                "home": ["street": "1", "city": "Paris", "geo": ["lat": 1.0, "lon": 2.0]],
                "pastHomes": [["street": "2", "city": "Lyon"], ["street": "3", "city": "Nice"]],
            ])
        }
        let person = try XCTUnwrap(db.object(ofType: Resident.self, forPrimaryKey: 5))
        XCTAssertEqual(person.home?.geo?.lon, 2.0)
        XCTAssertEqual(person.pastHomes.map(\.city), ["Lyon", "Nice"])
        try db.write {
            db.create(Resident.self, value: ["id": 5, "home": ["street": "4", "city": "Rome"]], update: .modified)
        }
        XCTAssertEqual(person.home?.city, "Rome")
        XCTAssertEqual(try count("Address"), 3, "the replaced home is deleted")
        XCTAssertEqual(try count("Geo"), 0)
    }

    func testAddWithUpdateReplacesTheEmbeddedObjects() throws {
        try db.write { db.add(ada()) }
        try db.write { db.add(Resident(id: 1, name: "Ada", home: Address(street: "x", city: "Graz")), update: .modified) }
        let person = try XCTUnwrap(db.object(ofType: Resident.self, forPrimaryKey: 1))
        XCTAssertEqual(person.home?.city, "Graz")
        XCTAssertEqual(person.pastHomes.count, 0)
        XCTAssertEqual(try count("Address"), 1)
        XCTAssertEqual(try count("Geo"), 0)
    }

    func testPrintingShowsTheEmbeddedObjectsInside() throws {
        let person = ada()
        try db.write { db.add(person) }
        let text = "\(person)"
        XCTAssertTrue(text.contains("home = Address { street = 1 Main; city = Paris; geo = Geo { lat = 48.8"), text)
        XCTAssertTrue(text.contains("pastHomes = [Address { street = 2 Old"), text)
    }

    func testTheStoreKeepsTheEmbeddedFlagAcrossReopening() throws {
        try db.write { db.add(ada()) }
        db = nil
        db = try Database(configuration: configuration)
        XCTAssertEqual(try count("Address"), 3)
        let person = try XCTUnwrap(db.object(ofType: Resident.self, forPrimaryKey: 1))
        try db.write { person.home = nil }
        XCTAssertEqual(try count("Address"), 2, "ownership still holds after reopening")
    }

    func testStrataInfoShowsEmbeddedModelsAndACompactedCopyKeepsThem() throws {
        try db.write { db.add(ada()) }
        XCTAssertEqual(try db.verify().objects, 5)
        db = nil
        let strata = try BuiltExecutable(named: "strata")
        let path = configuration.fileURL.path
        let info = try strata.run(["info", path])
        XCTAssertTrue(info.output.contains("Address (embedded): 3 object(s)"), info.output)
        XCTAssertTrue(info.output.contains("Geo (embedded): 1 object(s)"), info.output)
        XCTAssertTrue(info.output.contains("Resident: 1 object(s)"), info.output)
        let copy = directory.url.appendingPathComponent("copy.strata").path
        XCTAssertEqual(try strata.run(["compact", path, copy]).status, 0)
        XCTAssertTrue(try strata.run(["info", copy]).output.contains("Address (embedded): 3 object(s)"))
        configuration.fileURL = URL(fileURLWithPath: copy)
        db = try Database(configuration: configuration)
        let person = try XCTUnwrap(db.object(ofType: Resident.self, forPrimaryKey: 1))
        try db.write { person.pastHomes.removeAll() }
        XCTAssertEqual(try count("Address"), 1, "the copy's embedded table still owns its objects")
    }
}
