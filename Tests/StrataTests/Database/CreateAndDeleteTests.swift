import Foundation
import XCTest

@testable import Strata

final class CreateAndDeleteTests: DatabaseTestCase {
    func testCreateFromDictionaryUsesDefaultsForTheRest() throws {
        let db = try openDatabase()
        let bo = try db.write { db.create(Person.self, value: ["id": 2, "name": "Bo"]) }
        XCTAssertTrue(bo.isManaged)
        XCTAssertEqual(bo.name, "Bo")
        XCTAssertEqual(bo.age, 0)
        XCTAssertEqual(bo.status, .active)
        XCTAssertNil(bo.nickname)
    }

    func testPartialUpdateByPrimaryKeyKeepsOtherProperties() throws {
        let db = try openDatabase()
        try db.write { db.add(Person(id: 1, name: "Ana", age: 30, email: "ana@x")) }
        try db.write { db.create(Person.self, value: ["id": 1, "age": 31], update: .modified) }
        let ana = try XCTUnwrap(db.object(ofType: Person.self, forPrimaryKey: 1))
        XCTAssertEqual(ana.age, 31)
        XCTAssertEqual(ana.name, "Ana")
        XCTAssertEqual(ana.email, "ana@x")
    }

    func testCreateFromArrayAndNestedDictionariesCreatesLinkedObjects() throws {
        let db = try openDatabase()
        try db.write {
            db.create(
                Person.self,
                value: [
                    "id": 3, "name": "Cy", "favourite": ["name": "Rex", "age": 5],
                    "dogs": [["name": "Fido"], ["name": "Spot", "age": 2]], "tags": ["a", "b"],
                ])
            db.create(Label.self, value: ["milk", 1.5])
        }
        let cy = try XCTUnwrap(db.object(ofType: Person.self, forPrimaryKey: 3))
        XCTAssertEqual(cy.favourite?.name, "Rex")
        XCTAssertEqual(cy.dogs.map(\.name), ["Fido", "Spot"])
        XCTAssertEqual(cy.dogs[1].age, 2)
        XCTAssertEqual(cy.dogs[0].age, 1, "the schema default")
        XCTAssertEqual(db.objects(Dog.self).count, 3)
        XCTAssertEqual(db.object(ofType: Label.self, forPrimaryKey: "milk")?.weight, 1.5)
    }

    func testPrimaryKeyLookupTakesEveryKeyForm() throws {
        let db = try openDatabase()
        try db.write {
            db.add(Person(id: 7, name: "Ana", age: 30, email: "ana@x"))
            db.create(Label.self, value: ["milk", 1.5])
        }
        XCTAssertEqual(db.object(ofType: Person.self, forPrimaryKey: 7)?.name, "Ana", "an Int")
        XCTAssertEqual(db.object(ofType: Person.self, forPrimaryKey: Int64(7))?.name, "Ana", "an Int64, as Any")
        XCTAssertEqual(db.object(ofType: Person.self, forPrimaryKey: Int8(7))?.name, "Ana", "an Int8, as Any")
        let boxed: Any = 7
        XCTAssertEqual(db.object(ofType: Person.self, forPrimaryKey: boxed)?.name, "Ana", "an Int as Any")
        XCTAssertEqual(db.object(ofType: Label.self, forPrimaryKey: "milk")?.weight, 1.5, "a String")
        let text: Any = "milk"
        XCTAssertEqual(db.object(ofType: Label.self, forPrimaryKey: text)?.weight, 1.5, "a String as Any")
        XCTAssertNil(db.object(ofType: Person.self, forPrimaryKey: 8), "an absent key")
        XCTAssertNil(db.object(ofType: Person.self, forPrimaryKey: 7.0), "a type no primary key has")
        XCTAssertNil(db.object(ofType: Label.self, forPrimaryKey: "bread"))
        let ana = try XCTUnwrap(db.object(ofType: Person.self, forPrimaryKey: 7))
        XCTAssertTrue(type(of: ana) == Person.self)
        try db.write { ana.age = 31 }
        XCTAssertEqual(db.object(ofType: Person.self, forPrimaryKey: 7)?.age, 31, "the object found writes through")
    }

    func testCreateWithAWrongValueTypeFailsTheWrite() throws {
        let db = try openDatabase()
        XCTAssertThrowsError(try db.write { db.create(Person.self, value: ["id": 1, "name": 42]) }) { error in
            guard case StrataError.invalidArgument(let message) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(message.contains("name"), message)
        }
        XCTAssertThrowsError(try db.write { db.create(Person.self, value: ["id": 1, "nmae": "x"]) }) { error in
            guard case StrataError.invalidArgument(let message) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(message.contains("'nmae'"), message)
        }
        XCTAssertEqual(db.objects(Person.self).count, 0)
    }

    func testPrimaryKeyCannotChange() throws {
        let db = try openDatabase()
        let ana = Person(id: 1, name: "Ana")
        try db.write { db.add(ana) }
        XCTAssertThrowsError(try db.write { ana.id = 2 }) { error in
            guard case StrataError.invalidArgument(let message) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(message.contains("cannot change"), message)
        }
        XCTAssertEqual(ana.id, 1)
    }

    func testDeletingAnObjectRemovesItFromListsAndNilsLinks() throws {
        let db = try openDatabase()
        let rex = Dog(name: "Rex")
        let fido = Dog(name: "Fido")
        let ana = Person(id: 1, name: "Ana", dogs: [rex, fido, rex], favourite: rex)
        let bo = Person(id: 2, name: "Bo", dogs: [rex], favourite: fido)
        try db.write { db.add([ana, bo]) }
        XCTAssertEqual(rex.owners.count, 2)
        XCTAssertEqual(rex.fans.count, 1)
        try db.write { db.delete(rex) }
        XCTAssertTrue(rex.isInvalidated)
        XCTAssertEqual(ana.dogs.map(\.name), ["Fido"])
        XCTAssertNil(ana.favourite)
        XCTAssertEqual(bo.dogs.count, 0)
        XCTAssertEqual(bo.favourite?.name, "Fido")
        XCTAssertEqual(fido.owners.map(\.name), ["Ana"])
        XCTAssertEqual(fido.fans.map(\.name), ["Bo"])
    }

    func testDeleteResultsListsAndEverything() throws {
        let db = try openDatabase()
        try db.write {
            db.add(Person(id: 1, name: "Ana", dogs: [Dog(name: "a"), Dog(name: "b")]))
            db.add(Person(id: 2, name: "Bo"))
            db.add(Label(text: "x", weight: 1))
        }
        let ana = try XCTUnwrap(db.object(ofType: Person.self, forPrimaryKey: 1))
        try db.write { db.delete(ana.dogs) }
        XCTAssertEqual(db.objects(Dog.self).count, 0)
        try db.write { db.delete(db.objects(Person.self)) }
        XCTAssertEqual(db.objects(Person.self).count, 0)
        XCTAssertEqual(db.objects(Label.self).count, 1)
        try db.write { db.deleteAll() }
        XCTAssertEqual(db.objects(Label.self).count, 0)
    }

    func testDeletingAnUnmanagedObjectFailsTheWrite() throws {
        let db = try openDatabase()
        XCTAssertThrowsError(try db.write { db.delete(Person(id: 1, name: "never added")) })
    }
}
