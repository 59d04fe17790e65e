import Foundation
import XCTest

@testable import Strata

/// `add(_:)` reuses one array per model for the row it inserts: each object must still keep its own values.
final class AddedValuesTests: DatabaseTestCase {
    func testObjectsAddedOneAfterAnotherKeepTheirOwnValues() throws {
        let db = try openDatabase()
        try db.write {
            for id in 1...50 { db.add(Person(id: id, name: "name-\(id)", age: id * 2)) }
        }
        for id in 1...50 {
            let person = try XCTUnwrap(db.object(ofType: Person.self, forPrimaryKey: id))
            XCTAssertEqual(person.name, "name-\(id)")
            XCTAssertEqual(person.age, id * 2)
        }
    }

    func testAddAfterARefusedDuplicateStoresTheNewObjectsValues() throws {
        let db = try openDatabase()
        try db.write { db.add(Person(id: 1, name: "first", age: 10)) }
        XCTAssertThrowsError(try db.write { db.add(Person(id: 1, name: "duplicate", age: 99)) })
        try db.write { db.add(Person(id: 2, name: "second", age: 20)) }
        let first = try XCTUnwrap(db.object(ofType: Person.self, forPrimaryKey: 1))
        let second = try XCTUnwrap(db.object(ofType: Person.self, forPrimaryKey: 2))
        XCTAssertEqual(first.name, "first")
        XCTAssertEqual(first.age, 10)
        XCTAssertEqual(second.name, "second")
        XCTAssertEqual(second.age, 20)
        XCTAssertEqual(db.objects(Person.self).count, 2)
    }
}
