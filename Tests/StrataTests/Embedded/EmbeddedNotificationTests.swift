import Foundation
import XCTest

@testable import Strata

/// Notifications through embedded objects: an object observer hears a change inside its embedded objects (named
/// by the parent's property, at any depth), `keyPaths:` reach through them, and results of the parent model
/// report the parent as modified.
final class EmbeddedNotificationTests: NotificationTestCase {
    private final class Received: @unchecked Sendable {
        var changes: [[String]] = []
        var modifications: [[Int]] = []
    }

    override func makeConfiguration() -> Configuration {
        Configuration(schema: Homes.self)
    }

    private func seed(_ db: Database) throws -> Resident {
        let person = Resident(
            id: 1, name: "Ada", home: Address(street: "1", city: "Paris", geo: Geo(lat: 1, lon: 2)),
            pastHomes: [Address(street: "2", city: "Lyon")])
        try db.write {
            db.add(person)
            db.add(Resident(id: 2, name: "Bo", home: Address(street: "3", city: "Oslo")))
        }
        return person
    }

    private func observe(_ id: Int, keyPaths: [String]? = nil) throws -> (NotificationToken, Received) {
        let received = Received()
        let token = try onQueue {
            let person = try XCTUnwrap(observerDatabase.object(ofType: Resident.self, forPrimaryKey: id))
            return person.observe(keyPaths: keyPaths) { change in
                if case .change(_, let properties) = change { received.changes.append(properties.map(\.name)) }
            }
        }
        startBarrier()
        return (token, received)
    }

    func testAChangeInsideAnEmbeddedObjectIsReportedAsTheParentsProperty() throws {
        let db = try openDatabase()
        let person = try seed(db)
        let (token, received) = try observe(1)
        try db.write { person.home?.city = "Nice" }
        waitForDelivery(of: db.version)
        try db.write { person.home?.geo?.lat = 5 }
        waitForDelivery(of: db.version)
        try db.write { person.pastHomes[0].street = "22" }
        waitForDelivery(of: db.version)
        try db.write { db.object(ofType: Resident.self, forPrimaryKey: 2)?.home?.city = "Rome" }
        waitForDelivery(of: db.version)
        onQueue {
            XCTAssertEqual(received.changes, [["home"], ["home"], ["pastHomes"]], "another parent's home is not news")
        }
        withExtendedLifetime(token) {}
    }

    func testKeyPathsReachThroughEmbeddedObjects() throws {
        let db = try openDatabase()
        let person = try seed(db)
        let (token, received) = try observe(1, keyPaths: ["home.geo.lat"])
        try db.write { person.home?.city = "Nice" }
        waitForDelivery(of: db.version)
        try db.write { person.home?.geo?.lon = 9 }
        waitForDelivery(of: db.version)
        try db.write { person.home?.geo?.lat = 7 }
        waitForDelivery(of: db.version)
        onQueue { XCTAssertEqual(received.changes, [["home"]], "only home.geo.lat counts") }
        withExtendedLifetime(token) {}
        XCTAssertThrowsError(try WatchedProperties(
            model: XCTUnwrap(db.schema.model(named: "Resident")), keyPaths: ["friend.friend.name"]))
    }

    func testResultsOfTheParentModelReportTheParentAsModified() throws {
        let db = try openDatabase()
        let person = try seed(db)
        let received = Received()
        let token = onQueue {
            observerDatabase.objects(Resident.self).sorted(byKeyPath: "id").observe { change in
                if case .update(_, _, _, let modifications) = change { received.modifications.append(modifications) }
            }
        }
        startBarrier()
        try db.write { person.home?.geo?.lon = 3 }
        waitForDelivery(of: db.version)
        try db.write { person.pastHomes.append(Address(street: "4", city: "Metz")) }
        waitForDelivery(of: db.version)
        onQueue { XCTAssertEqual(received.modifications, [[0], [0]]) }
        withExtendedLifetime(token) {}
    }
}
