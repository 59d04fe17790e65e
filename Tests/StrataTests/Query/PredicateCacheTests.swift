import Foundation
import XCTest

@testable import Strata

/// A format string is parsed once and bound to each call's arguments: the reused parse must select exactly what
/// a fresh one would, and argument errors must still name the placeholder and its offset.
final class PredicateCacheTests: StaffTestCase {
    func testParseKeepsPlaceholdersAsNumberedSlots() throws {
        let parsed = try ParsedPredicate(parsing: "age >= %@ AND name BEGINSWITH[c] %@ AND %K == %d")
        XCTAssertEqual(parsed.slots.map(\.index), [0, 1, 2, 3])
        XCTAssertEqual(parsed.slots.map(\.letter), ["@", "@", "K", "d"])
        XCTAssertEqual(parsed.slots.map(\.offset), [7, 33, 40, 46])
        guard case .and(let terms) = parsed.node, case .comparison(let age) = terms[0] else {
            return XCTFail("unexpected tree \(parsed.node)")
        }
        XCTAssertEqual(age.right, .argument(parsed.slots[0]))
    }

    func testCacheReturnsTheSameParseForTheSameFormat() throws {
        let cache = PredicateCache(capacity: 8)
        let first = try cache.parsed("name == %@")
        let second = try cache.parsed("name == %@")
        XCTAssertEqual(first.node, second.node)
        XCTAssertEqual(cache.count, 1)
        _ = try cache.parsed("age > %@")
        XCTAssertEqual(cache.count, 2)
    }

    func testFullCacheStartsOverInsteadOfGrowing() throws {
        let cache = PredicateCache(capacity: 3)
        for age in 0..<10 { _ = try cache.parsed("age > \(age)") }
        XCTAssertLessThanOrEqual(cache.count, 3)
        XCTAssertGreaterThan(cache.count, 0)
    }

    func testMalformedFormatIsNotKept() {
        let cache = PredicateCache(capacity: 8)
        XCTAssertThrowsError(try cache.parsed("age >"))
        XCTAssertEqual(cache.count, 0)
    }

    func testReusedFormatSelectsEachCallsArguments() throws {
        let staff = makeStaff()
        let indexed = try openStaff("indexed")
        try store(staff, as: IndexedEmployee.self, in: indexed)
        let plain = try openStaff("plain")
        try store(staff, as: Employee.self, in: plain)
        let living = staff.employees.filter { !$0.isDeleted }
        for name in Set(living.map(\.name)).sorted().prefix(6) {
            let expected = living.filter { $0.name == name }.count
            XCTAssertGreaterThan(expected, 0)
            let lookedUp = try indexed.objects(IndexedEmployee.self).filter("name == %@", name)
            XCTAssertTrue(lookedUp.explain.hasPrefix("index "), lookedUp.explain)
            XCTAssertEqual(Array(lookedUp).map(\.name), Array(repeating: name, count: expected))
            let scanned = try plain.objects(Employee.self).filter("name == %@", name)
            XCTAssertEqual(Array(scanned).map(\.name), Array(repeating: name, count: expected))
        }
    }

    func testReusedKeyPathFormatResolvesEachCallsKeyPath() throws {
        let db = try openStaff()
        let staff = makeStaff()
        try store(staff, as: Employee.self, in: db)
        let living = staff.employees.filter { !$0.isDeleted }
        let byAge = try db.objects(Employee.self).filter("%K > %@", "age", 40)
        XCTAssertEqual(byAge.count, living.filter { $0.age > 40 }.count)
        let bySalary = try db.objects(Employee.self).filter("%K > %@", "salary", 40.5)
        XCTAssertEqual(bySalary.count, living.filter { $0.salary > 40.5 }.count)
        XCTAssertNotEqual(byAge.explain, bySalary.explain)
    }

    func testArgumentOfTheWrongTypeIsNamedWhenTheParseIsReused() throws {
        let db = try openStaff()
        let all = db.objects(Employee.self)
        _ = try all.filter("age == %@ AND name == %@", 3, "a")
        XCTAssertThrowsError(try all.filter("age == %@ AND name == %@", "three", "a")) { error in
            guard case StrataError.invalidPredicate(let predicate, let offset, let message) = error else {
                return XCTFail("expected invalidPredicate, got \(error)")
            }
            XCTAssertEqual(predicate, "age == %@ AND name == %@")
            XCTAssertEqual(offset, 4)
            XCTAssertEqual(message, "cannot compare int with the string \"three\"")
        }
        XCTAssertThrowsError(try all.filter("age == %@ AND name == %@", 3)) { error in
            guard case StrataError.invalidPredicate(_, let offset, let message) = error else {
                return XCTFail("expected invalidPredicate, got \(error)")
            }
            XCTAssertEqual(offset, 22)
            XCTAssertTrue(message.contains("more arguments than the 1 given"), message)
        }
    }

    func testBetweenArgumentNeedsExactlyTwoBounds() throws {
        let db = try openStaff()
        let all = db.objects(Employee.self)
        XCTAssertNoThrow(try all.filter("age BETWEEN %@", [20, 30]))
        for bounds: Any in [[20, 30, 40], 20] {
            XCTAssertThrowsError(try all.filter("age BETWEEN %@", bounds)) { error in
                guard case StrataError.invalidPredicate(_, let offset, let message) = error else {
                    return XCTFail("expected invalidPredicate, got \(error)")
                }
                XCTAssertEqual(offset, 4)
                XCTAssertTrue(message.contains("BETWEEN needs two bounds"), message)
            }
        }
    }
}
