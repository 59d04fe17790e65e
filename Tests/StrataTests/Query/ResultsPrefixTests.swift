import Foundation
import StrataTestSupport
import XCTest

@testable import Strata

/// `Results.prefix(_:)`: the same objects as taking the first n of the whole results, on random data, whether the
/// results are a scan, an index lookup, distinct or sorted (the bounded heap), and live.
final class ResultsPrefixTests: StaffDatabaseTestCase {
    /// Random employees of both models, with many equal ages and bonuses so that ties decide orders.
    private func fill(count: Int, seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        try db.write {
            for index in 0..<count {
                var fields: [String: Any] = [
                    "name": "e\(Int.random(in: 0..<40, using: &random))-\(index)",
                    "age": Int.random(in: 18..<30, using: &random), "hired": Bool.random(using: &random),
                    "salary": Double(Int.random(in: 0..<5, using: &random)) * 500, "badge": UUID(),
                ]
                if Bool.random(using: &random) { fields["bonus"] = Int.random(in: 0..<4, using: &random) }
                db.create(Employee.self, value: fields)
                db.create(IndexedEmployee.self, value: fields)
            }
        }
    }

    /// Checks `prefix(n)` against the first n of `results` for several n, names and count included.
    private func assertPrefixes<T: StaffMember>(
        _ results: Results<T>, _ what: String, file: StaticString = #filePath, line: UInt = #line
    ) {
        let all = results.map(\.badge)
        for length in [0, 1, 2, 7, 50, all.count - 1, all.count, all.count + 5] where length >= 0 {
            let limited = results.prefix(length)
            XCTAssertEqual(limited.map(\.badge), Array(all.prefix(length)), "\(what) prefix(\(length))",
                file: file, line: line)
            XCTAssertEqual(
                limited.count, min(length, all.count), "\(what) prefix(\(length)).count", file: file, line: line)
        }
    }

    func testPrefixEqualsTheFirstObjectsOfTheWholeResults() throws {
        try fill(count: 400, seed: 11)
        let people = db.objects(Employee.self)
        assertPrefixes(people, "all")
        assertPrefixes(try people.filter("age > 21 AND hired == true"), "scan")
        assertPrefixes(try people.filter("bonus == nil OR salary >= 1000"), "scan with nulls")
        assertPrefixes(people.sorted(byKeyPath: "age"), "sorted")
        assertPrefixes(people.sorted(byKeyPath: "bonus", ascending: false), "sorted by an optional, descending")
        assertPrefixes(
            try people.filter("hired == true").sorted(by: [
                SortDescriptor(keyPath: "salary", ascending: false), SortDescriptor(keyPath: "age"),
            ]), "filtered, two sort keys")
        assertPrefixes(people.distinct(by: ["age"]), "distinct")
        assertPrefixes(people.distinct(by: ["age", "hired"]).sorted(byKeyPath: "salary"), "distinct then sorted")
        let indexed = db.objects(IndexedEmployee.self)
        assertPrefixes(try indexed.filter("age == 22"), "index lookup")
        assertPrefixes(try indexed.filter("age == 22 AND salary > 500"), "index lookup, then per object")
        assertPrefixes(try indexed.filter("age BETWEEN {20, 25}").sorted(byKeyPath: "name"), "index, sorted")
    }

    func testPrefixIsTheLastStepAndKeepsTheSmallerLimit() throws {
        try fill(count: 120, seed: 5)
        let people = db.objects(Employee.self)
        let sortedAll = people.sorted(byKeyPath: "age").map(\.badge)
        XCTAssertEqual(people.prefix(10).sorted(byKeyPath: "age").map(\.badge), Array(sortedAll.prefix(10)))
        XCTAssertEqual(people.prefix(10).prefix(30).count, 10)
        XCTAssertEqual(people.prefix(30).prefix(10).limit, 10)
        let hired = try people.filter("hired == true").map(\.badge)
        XCTAssertEqual(try people.prefix(5).filter("hired == true").map(\.badge), Array(hired.prefix(5)))
        XCTAssertTrue(people.sorted(byKeyPath: "age").prefix(3).explain.hasSuffix("top 3 by a bounded heap"))
        XCTAssertTrue(people.prefix(3).explain.hasSuffix("first 3"))
        XCTAssertEqual(try people.sorted(byKeyPath: "age").prefix(4).fetch().map(\.badge), Array(sortedAll.prefix(4)))
    }

    func testPrefixedResultsFollowCommits() throws {
        try fill(count: 30, seed: 3)
        let youngest = db.objects(Employee.self).sorted(byKeyPath: "age").prefix(3)
        let before = youngest.map(\.badge)
        try db.write { db.delete(youngest[0]) }
        XCTAssertEqual(youngest.count, 3)
        XCTAssertEqual(youngest.map(\.badge).prefix(2), before.dropFirst().prefix(2))
        try db.write { db.create(Employee.self, value: ["name": "kid", "age": 1, "badge": UUID()]) }
        XCTAssertEqual(youngest.first?.name, "kid")
        let ages: Int = youngest.sum(ofProperty: "age")
        XCTAssertEqual(ages, youngest.map(\.age).reduce(0, +))
    }

    func testBoundedHeapKeepsTheFirstElementsOfAStableSort() {
        var random = SeededGenerator(seed: 99)
        for _ in 0..<200 {
            let count = Int.random(in: 0..<300, using: &random)
            let values = (0..<count).map { ($0, Int.random(in: 0..<20, using: &random)) }
            let capacity = Int.random(in: 0..<40, using: &random)
            var heap = BoundedHeap<(Int, Int)>(capacity: capacity) { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0 < $1.0 }
            for value in values { heap.offer(value) }
            let expected = values.sorted { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0 < $1.0 }.prefix(capacity)
            XCTAssertEqual(heap.sorted().map(\.0), expected.map(\.0))
        }
    }
}
