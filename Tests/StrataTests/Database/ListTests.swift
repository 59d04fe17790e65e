import Foundation
import XCTest

@testable import Strata

final class ManagedListTests: DatabaseTestCase {
    func testEveryListOperationOnObjectsKeepsOrder() throws {
        let db = try openDatabase()
        let ana = Person(id: 1, name: "Ana")
        try db.write { db.add(ana) }
        let dogs = ana.dogs
        XCTAssertTrue(dogs.isManaged)
        try db.write {
            dogs.append(Dog(name: "a"))
            dogs.append(contentsOf: [Dog(name: "b"), Dog(name: "c")])
            dogs.insert(Dog(name: "z"), at: 0)
        }
        XCTAssertEqual(dogs.map(\.name), ["z", "a", "b", "c"])
        try db.write { dogs.move(from: 0, to: 3) }
        XCTAssertEqual(dogs.map(\.name), ["a", "b", "c", "z"])
        try db.write { dogs.swapAt(0, 1) }
        XCTAssertEqual(dogs.map(\.name), ["b", "a", "c", "z"])
        try db.write { dogs.replace(index: 2, object: Dog(name: "y")) }
        XCTAssertEqual(dogs.map(\.name), ["b", "a", "y", "z"])
        let removed = try db.write { dogs.remove(at: 1) }
        XCTAssertEqual(removed.name, "a")
        XCTAssertEqual(dogs.map(\.name), ["b", "y", "z"])
        XCTAssertEqual(dogs.firstIndex { $0.name == "y" }, 1)
        try db.write { dogs.removeAll() }
        XCTAssertEqual(dogs.count, 0)
        XCTAssertEqual(db.objects(Dog.self).count, 5, "removing from a list does not delete the objects")
    }

    func testPrimitiveListsAndTheSameObjectTwice() throws {
        let db = try openDatabase()
        let rex = Dog(name: "Rex")
        let ana = Person(id: 1, name: "Ana", dogs: [rex, rex], tags: ["x"], scores: [3, 1])
        try db.write { db.add(ana) }
        XCTAssertEqual(ana.dogs.count, 2)
        XCTAssertTrue(ana.dogs[0].isSameObject(as: ana.dogs[1]))
        XCTAssertEqual(db.objects(Dog.self).count, 1)
        XCTAssertEqual(rex.owners.count, 1, "an owner holding the dog twice is one linking object")
        try db.write {
            ana.tags.append("y")
            ana.tags[0] = "w"
            ana.scores.append(2)
            ana.scores.move(from: 2, to: 0)
        }
        XCTAssertEqual(Array(ana.tags), ["w", "y"])
        XCTAssertEqual(Array(ana.scores), [2, 3, 1])
    }

    func testAssigningAListReplacesItsContents() throws {
        let db = try openDatabase()
        let ana = Person(id: 1, name: "Ana", tags: ["a", "b"])
        try db.write { db.add(ana) }
        try db.write { ana.tags = List(["c"]) }
        XCTAssertEqual(Array(ana.tags), ["c"])
        try db.write { ana.tags = ana.tags }
        XCTAssertEqual(Array(ana.tags), ["c"], "assigning a list to itself keeps it")
    }
}
