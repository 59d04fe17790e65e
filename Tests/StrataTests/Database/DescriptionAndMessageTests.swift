import Foundation
import XCTest

@testable import Strata

/// What users see when they print objects and collections, and the messages of `create(_:value:)` (issue #24,
/// item 5).
final class DescriptionAndMessageTests: DatabaseTestCase {
    func testAnEnumValueThatIsNoCaseNamesTheModelPropertyAndTheCases() throws {
        let db = try openDatabase()
        let gone: [String: Any] = ["id": 1, "name": "Ana", "status": "gone"]
        XCTAssertThrowsError(try db.write { db.create(Person.self, value: gone) }) {
            guard case StrataError.invalidArgument(let message) = $0 else { return XCTFail("\($0)") }
            XCTAssertTrue(message.contains("Person.status"), message)
            XCTAssertTrue(message.contains("one of 'active', 'away'"), message)
            XCTAssertFalse(message.contains("enumeration("), message)
        }
        XCTAssertThrowsError(try db.write { db.create(Person.self, value: ["id": 1, "age": "old"]) }) {
            guard case StrataError.invalidArgument(let message) = $0 else { return XCTFail("\($0)") }
            XCTAssertTrue(message.contains("Person.age is a int"), message)
            XCTAssertFalse(message.contains("integer("), message)
        }
    }

    func testAnUnknownKeyOfCreateGetsASuggestion() throws {
        let db = try openDatabase()
        XCTAssertThrowsError(try db.write { db.create(Person.self, value: ["id": 1, "nmae": "x"]) }) {
            guard case StrataError.invalidArgument(let message) = $0 else { return XCTFail("\($0)") }
            XCTAssertTrue(message.hasSuffix("did you mean 'name'?"), message)
        }
        XCTAssertThrowsError(try db.write { db.create(Person.self, value: ["id": 1, "zzzzzz": "x"]) }) {
            guard case StrataError.invalidArgument(let message) = $0 else { return XCTFail("\($0)") }
            XCTAssertFalse(message.contains("did you mean"), message)
        }
    }

    func testPrintingAnObjectShowsItsValues() throws {
        let ana = Person(id: 1, name: "Ana", age: 30, dogs: [Dog(name: "Rex", age: 3)], tags: ["a", "b"], scores: [7])
        let unmanaged = String(describing: ana)
        XCTAssertTrue(unmanaged.hasPrefix("Person { id = 1; name = Ana; age = 30; "), unmanaged)
        XCTAssertTrue(unmanaged.contains("dogs = [Dog { name = Rex; age = 3 }]"), unmanaged)
        XCTAssertTrue(unmanaged.contains("nickname = nil"), unmanaged)
        XCTAssertTrue(unmanaged.contains("tags = [a, b]"), unmanaged)
        XCTAssertTrue(unmanaged.contains("status = active"), unmanaged)

        let db = try openDatabase()
        try db.write { db.add(ana) }
        let managed = "\(ana)"
        XCTAssertEqual(managed, unmanaged, "a managed object prints its stored values the same way")
        XCTAssertTrue("\(ana.dogs)".contains("Dog { name = Rex; age = 3 }"), "\(ana.dogs)")

        let dog = try XCTUnwrap(db.objects(Dog.self).first)
        try db.write { db.delete(ana) }
        XCTAssertTrue("\(dog)".hasPrefix("Dog { name = Rex"))
        let deleted = db.objects(Dog.self).first
        try db.write { db.delete(dog) }
        XCTAssertEqual(deleted.map { "\($0)" }, "Dog { invalidated }")
    }

    func testPrintingResultsAndLinkingObjectsListsTheFirstObjects() throws {
        let db = try openDatabase()
        let rex = Dog(name: "Rex")
        try db.write {
            for id in 0..<25 { db.add(Person(id: id, name: "p\(id)", dogs: [rex])) }
        }
        let results = db.objects(Person.self)
        let text = "\(results)"
        XCTAssertTrue(text.hasPrefix("Results<Person> (25 objects) [Person { id = 0; name = p0;"), text)
        XCTAssertTrue(text.hasSuffix(", … 15 more]"), text)
        XCTAssertFalse(text.contains("p10;"), text)
        XCTAssertEqual(try results.filter("id < 0").description, "Results<Person> (0 objects) []")

        let owners = "\(rex.owners)"
        XCTAssertTrue(owners.hasPrefix("LinkingObjects<Person> (25 objects) [Person { id = 0;"), owners)
    }
}
