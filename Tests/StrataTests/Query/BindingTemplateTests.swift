import Foundation
import XCTest

@testable import Strata

/// A predicate string used again with other arguments is rebound from the binding kept for its model, and must
/// then select, explain and reject exactly as a fresh binding does.
final class BindingTemplateTests: StaffTestCase {
    private var db: Database!
    private var everyone: [Employee] = []

    override func setUpWithError() throws {
        try super.setUpWithError()
        db = try openStaff()
        try db.write {
            for index in 0..<60 {
                db.add(
                    Employee(
                        name: "name-\(index % 12)", age: 18 + index % 40, hired: index % 3 == 0,
                        salary: Double(index * 100), nickname: index % 4 == 0 ? nil : "n\(index % 5)"))
            }
        }
        everyone = Array(db.objects(Employee.self))
    }

    override func tearDown() {
        everyone = []
        db = nil
        super.tearDown()
    }

    private func names(_ results: Results<Employee>) -> [String] { results.map { "\($0.name)/\($0.age)" } }

    private func names(_ employees: [Employee]) -> [String] { employees.map { "\($0.name)/\($0.age)" } }

    func testRebindingSelectsWhatEachCallsArgumentsSelect() throws {
        let all = db.objects(Employee.self)
        for name in ["name-3", "name-7", "nobody", "name-3"] {
            XCTAssertEqual(names(try all.filter("name == %@", name)), names(everyone.filter { $0.name == name }))
        }
        for (age, prefix) in [(20, "name-1"), (40, "name-"), (18, "x")] {
            XCTAssertEqual(
                names(try all.filter("age >= %@ AND name BEGINSWITH %@", age, prefix)),
                names(everyone.filter { $0.age >= age && $0.name.hasPrefix(prefix) }))
        }
        for (salary, hired) in [(1000.0, true), (4000.5, false)] {
            XCTAssertEqual(
                names(try all.filter("NOT (salary < %f) OR hired == %@", salary, hired)),
                names(everyone.filter { !($0.salary < salary) || $0.hired == hired }))
        }
        for nickname in [nil, "n2", "n4"] as [String?] {
            XCTAssertEqual(
                names(try all.filter("nickname == %@", nickname as Any)),
                names(everyone.filter { $0.nickname == nickname }))
        }
        for choices in [["name-1", "name-2"], ["name-11"]] {
            XCTAssertEqual(
                names(try all.filter("name IN %@", choices)), names(everyone.filter { choices.contains($0.name) }))
        }
    }

    func testAlternatingPredicateStringsEachKeepTheirOwnTemplate() throws {
        let all = db.objects(Employee.self)
        // The template used last is found without a hash lookup; switching strings must not mix them up.
        for (name, age) in [("name-3", 30), ("name-5", 20), ("name-3", 50), ("name-8", 18)] {
            XCTAssertEqual(names(try all.filter("name == %@", name)), names(everyone.filter { $0.name == name }))
            XCTAssertEqual(names(try all.filter("age > %@", age)), names(everyone.filter { $0.age > age }))
            XCTAssertEqual(
                names(try all.filter("name != %@", name)), names(everyone.filter { $0.name != name }))
        }
        XCTAssertEqual(db.queryPlans.count, 3)
    }

    func testRebindingChecksEachCallsArgumentAsAFreshBindingDoes() throws {
        let all = db.objects(Employee.self)
        XCTAssertEqual(try all.filter("age > %@", 50).count, everyone.filter { $0.age > 50 }.count)
        XCTAssertThrowsError(try all.filter("age > %@", "old")) { error in
            guard case StrataError.invalidPredicate(_, let offset, let message) = error else {
                return XCTFail("expected invalidPredicate, got \(error)")
            }
            XCTAssertEqual(offset, 4)
            XCTAssertTrue(message.contains("cannot compare int"), message)
        }
        XCTAssertThrowsError(try all.filter("name == %@", ["a", "b"]))
        XCTAssertEqual(try all.filter("age > %@", 30).count, everyone.filter { $0.age > 30 }.count)
    }

    func testExplainShowsTheCurrentCallsArgument() throws {
        let all = db.objects(Employee.self)
        XCTAssertTrue(try all.filter("name == %@", "name-5").explain.contains("\"name-5\""))
        let second = try all.filter("name == %@", "name-9").explain
        XCTAssertTrue(second.contains("\"name-9\""), second)
        XCTAssertFalse(second.contains("name-5"), second)
    }

    func testOnlyPredicatesWithPlaceholdersOnTheRightOfAKeyPathAreKept() throws {
        let all = db.objects(Employee.self)
        _ = try all.filter("%K == %@", "name", "name-1")
        _ = try all.filter("age BETWEEN %@", [20, 30])
        _ = try all.filter("age IN {%@, 30}", 20)
        XCTAssertEqual(db.queryPlans.count, 0)
        _ = try all.filter("name == %@", "name-1")
        _ = try all.filter("hired == true")
        XCTAssertEqual(db.queryPlans.count, 2)
        XCTAssertEqual(
            names(try all.filter("%K == %@", "age", 20)), names(everyone.filter { $0.age == 20 }))
    }

    func testLoneStringEqualityRebindsAsAFreshBindingDoes() throws {
        let all = db.objects(Employee.self)
        // Every call below after the first of each string takes the direct rebinding of a lone string equality;
        // what it selects, shows and rejects must be what a fresh binding gives.
        for format in ["name == %@", "name != %@", "nickname == %@", "nickname != %@"] {
            let equal = format.contains("==")
            let read: (Employee) -> String? = format.hasPrefix("name") ? { $0.name } : { $0.nickname }
            for value in ["name-3", "n2", "name-3", "", "n4", "nobody"] {
                let expected = everyone.filter { (read($0) == value) == equal }
                let results = try all.filter(format, value)
                XCTAssertEqual(names(results), names(expected), "\(format) with \(value)")
                XCTAssertTrue(results.explain.contains("\"\(value)\""), results.explain)
                let optional: String? = value
                XCTAssertEqual(names(try all.filter(format, optional as Any)), names(expected), "String? \(value)")
            }
            let none: String? = nil
            if format.hasPrefix("nickname") {
                XCTAssertEqual(
                    names(try all.filter(format, none as Any)),
                    names(everyone.filter { (read($0) == nil) == equal }), "\(format) with nil")
            } else {
                // `name` is not optional: nil is refused, as Realm refuses it, not "matches nothing".
                XCTAssertThrowsError(try all.filter(format, none as Any)) { error in
                    guard case StrataError.invalidPredicate(_, _, let message) = error else {
                        return XCTFail("expected invalidPredicate, got \(error)")
                    }
                    XCTAssertTrue(message.contains("never nil"), message)
                }
            }
            XCTAssertThrowsError(try all.filter(format, 42)) { error in
                guard case StrataError.invalidPredicate(_, _, let message) = error else {
                    return XCTFail("expected invalidPredicate, got \(error)")
                }
                XCTAssertTrue(message.contains("cannot compare string"), message)
            }
            XCTAssertThrowsError(try all.filter(format, "a", "b"))
            XCTAssertThrowsError(try all.filter(format))
        }
    }
}
