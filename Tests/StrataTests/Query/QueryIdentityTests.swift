import Foundation
import XCTest

@testable import Strata

/// A bound query is `Hashable`: observers of equal queries share one computed change per delivery, so equality
/// must hold exactly when two queries select the same objects in the same order.
final class QueryIdentityTests: StaffDatabaseTestCase {

    private func identity(_ results: Results<Employee>, keyPaths: [String]? = nil) throws -> ResultsIdentity {
        ResultsIdentity(
            query: results.query, model: results.model,
            watched: try WatchedProperties(model: results.model, keyPaths: keyPaths))
    }

    private func identity(_ format: String, _ arguments: Any...) throws -> ResultsIdentity {
        try identity(db.objects(Employee.self).filter(format, arguments: arguments))
    }

    func testTheSameQueryWrittenOrPassedDifferentlyIsOneIdentity() throws {
        XCTAssertEqual(try identity("age > 30"), try identity("age > %@", 30))
        XCTAssertEqual(try identity("age > 30"), try identity("age>30"))
        XCTAssertEqual(try identity("name == 'a' AND age > 3"), try identity("name == %@ AND age > %d", "a", 3))
        XCTAssertEqual(try identity("ANY skills == 'x'"), try identity("ANY skills == %@", "x"))
        let people = db.objects(Employee.self)
        XCTAssertEqual(
            try identity(people.sorted(byKeyPath: "age").filter("age > 3")),
            try identity(people.sorted(byKeyPath: "age").filter("age > %@", 3)))
    }

    func testQueriesThatSelectDifferentlyAreDifferentIdentities() throws {
        XCTAssertNotEqual(try identity("age > 30"), try identity("age > 31"))
        XCTAssertNotEqual(try identity("age > 30"), try identity("age >= 30"))
        XCTAssertNotEqual(try identity("name == 'a'"), try identity("name ==[c] 'a'"))
        XCTAssertNotEqual(try identity("age > 30 AND hired == true"), try identity("age > 30 OR hired == true"))
        XCTAssertNotEqual(try identity("NOT (age > 30)"), try identity("age > 30"))
        XCTAssertNotEqual(try identity("age IN {1, 2}"), try identity("age IN {2, 1, 3}"))
        // Queries compare strings by their UTF-8 bytes, so precomposed and decomposed "é" select differently.
        XCTAssertNotEqual(try identity("name == %@", "\u{E9}"), try identity("name == %@", "e\u{301}"))
        let people = db.objects(Employee.self)
        XCTAssertNotEqual(
            try identity(people.sorted(byKeyPath: "age")),
            try identity(people.sorted(byKeyPath: "age", ascending: false)))
        XCTAssertNotEqual(try identity(people.distinct(by: ["age"])), try identity(people.distinct(by: ["name"])))
        XCTAssertNotEqual(try identity(people, keyPaths: ["name"]), try identity(people, keyPaths: ["age"]))
    }

    func testAConstantIsItsOwnIdentityEvenWhenItIsNotANumber() throws {
        XCTAssertEqual(try identity("salary == %@", Double.nan), try identity("salary == %@", Double.nan))
        XCTAssertNotEqual(try identity("salary == %@", 0.0), try identity("salary == %@", -0.0))
        XCTAssertNotEqual(try identity("salary == %@", 1), try identity("salary == %@", 1.5))
    }

    func testEqualIdentitiesHashAlike() throws {
        let identities = Set([try identity("age > 30"), try identity("age > %@", 30), try identity("age < 30")])
        XCTAssertEqual(identities.count, 2)
    }
}
