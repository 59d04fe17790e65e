import Foundation
import XCTest

@testable import Strata

/// `Object.observe`: property names with old and new values, deletion, key paths.
final class ObjectObservationTests: NotificationTestCase {
    /// What an object observer received, in order.
    private final class Received: @unchecked Sendable {
        var changes: [[String: (old: String, new: String)]] = []
        var deleted = 0
        var errors: [Error] = []
    }

    private func describe(_ value: Any?) -> String {
        guard let value else { return "nil" }
        if let dog = value as? Dog { return "Dog(\(dog.name))" }
        return "\(value)"
    }

    private func observe(_ id: Int, keyPaths: [String]? = nil) throws -> (NotificationToken, Received) {
        let received = Received()
        let token = try onQueue {
            let person = try XCTUnwrap(observerDatabase.object(ofType: Person.self, forPrimaryKey: id))
            return person.observe(keyPaths: keyPaths) { change in
                switch change {
                case .change(let object, let properties):
                    XCTAssertEqual(object.id, id)
                    var byName: [String: (old: String, new: String)] = [:]
                    for property in properties {
                        byName[property.name] = (self.describe(property.oldValue), self.describe(property.newValue))
                    }
                    received.changes.append(byName)
                case .deleted: received.deleted += 1
                case .error(let error): received.errors.append(error)
                }
            }
        }
        startBarrier()
        return (token, received)
    }

    func testChangedPropertiesCarryTheirOldAndNewValues() throws {
        let db = try openDatabase()
        try db.write { db.add(Person(id: 1, name: "Ana", age: 30)) }
        let (token, received) = try observe(1)
        let ana = try XCTUnwrap(db.object(ofType: Person.self, forPrimaryKey: 1))
        try db.write {
            ana.age = 31
            ana.nickname = "A"
        }
        waitForDelivery(of: db.version)
        onQueue {
            XCTAssertEqual(received.changes.count, 1)
            XCTAssertEqual(received.changes.first?["age"]?.old, "30")
            XCTAssertEqual(received.changes.first?["age"]?.new, "31")
            XCTAssertEqual(received.changes.first?["nickname"]?.old, "nil")
            XCTAssertEqual(received.changes.first?["nickname"]?.new, "A")
            XCTAssertEqual(received.changes.first?.count, 2, "only the changed properties")
        }
        withExtendedLifetime(token) {}
    }

    func testACommitThatDoesNotTouchTheObjectIsNotReported() throws {
        let db = try openDatabase()
        try db.write {
            db.add(Person(id: 1, name: "Ana", age: 30))
            db.add(Person(id: 2, name: "Bo", age: 40))
        }
        let (token, received) = try observe(1)
        try db.write { db.object(ofType: Person.self, forPrimaryKey: 2)?.age = 41 }
        waitForDelivery(of: db.version)
        onQueue { XCTAssertTrue(received.changes.isEmpty) }
        withExtendedLifetime(token) {}
    }

    func testDeletingTheObjectReportsDeletedOnceAndEndsTheObservation() throws {
        let db = try openDatabase()
        try db.write { db.add(Person(id: 1, name: "Ana", age: 30)) }
        let (token, received) = try observe(1)
        try db.write { db.delete(try XCTUnwrap(db.object(ofType: Person.self, forPrimaryKey: 1))) }
        waitForDelivery(of: db.version)
        try db.write { db.add(Person(id: 1, name: "Ana again", age: 30)) }
        waitForDelivery(of: db.version)
        onQueue {
            XCTAssertEqual(received.deleted, 1)
            XCTAssertTrue(received.changes.isEmpty)
        }
        withExtendedLifetime(token) {}
    }

    func testKeyPathsLimitWhichPropertiesCount() throws {
        let db = try openDatabase()
        try db.write { db.add(Person(id: 1, name: "Ana", age: 30)) }
        let (token, received) = try observe(1, keyPaths: ["name"])
        let ana = try XCTUnwrap(db.object(ofType: Person.self, forPrimaryKey: 1))
        try db.write { ana.age = 31 }
        waitForDelivery(of: db.version)
        try db.write {
            ana.age = 32
            ana.name = "Ana B."
        }
        waitForDelivery(of: db.version)
        onQueue {
            XCTAssertEqual(received.changes.count, 1, "the age-only commit is not reported")
            XCTAssertEqual(received.changes.first.map { Array($0.keys) }, ["name"])
            XCTAssertEqual(received.changes.first?["name"]?.new, "Ana B.")
        }
        withExtendedLifetime(token) {}
    }

    func testALinkedObjectsPropertyCountsThroughALinkKeyPath() throws {
        let db = try openDatabase()
        try db.write {
            let rex = Dog(name: "Rex", age: 2)
            db.add(Person(id: 1, name: "Ana", age: 30, favourite: rex))
        }
        let (token, received) = try observe(1, keyPaths: ["favourite.name"])
        let rex = try XCTUnwrap(db.objects(Dog.self).first)
        try db.write { rex.age = 3 }
        waitForDelivery(of: db.version)
        try db.write { rex.name = "Rex II" }
        waitForDelivery(of: db.version)
        onQueue {
            XCTAssertEqual(received.changes.count, 1, "the dog's age is not watched, its name is")
            XCTAssertEqual(received.changes.first?["favourite"]?.new, "Dog(Rex II)")
        }
        withExtendedLifetime(token) {}
    }

    func testAnUnknownKeyPathIsAnErrorThatNamesTheProperties() throws {
        let db = try openDatabase()
        try db.write { db.add(Person(id: 1, name: "Ana", age: 30)) }
        let ana = try XCTUnwrap(db.object(ofType: Person.self, forPrimaryKey: 1))
        var message = ""
        let token = ana.observe(keyPaths: ["agee"], on: queue) { change in
            if case .error(let error) = change { message = "\(error)" }
        }
        XCTAssertTrue(message.contains("'agee' is not a property of Person"), message)
        XCTAssertTrue(message.contains("age"), message)
        withExtendedLifetime(token) {}
    }
}
