import Foundation
import XCTest

@testable import Strata

/// The differential conformance suite: hundreds of predicates, each run by Strata (through index lookups,
/// column scans and per-object evaluation) and by a brute-force oracle over plain Swift values, on a model
/// without indexes and on the same data in a model with indexes.
final class QueryConformanceTests: StaffTestCase {
    func testPredicatesMatchTheOracleWithoutIndexes() throws {
        try checkConformance(Employee.self)
    }

    func testPredicatesMatchTheOracleWithIndexes() throws {
        try checkConformance(IndexedEmployee.self)
    }

    func testSecondDataSetMatchesTheOracle() throws {
        try checkConformance(IndexedEmployee.self, seed: 99, count: 140)
    }

    private func checkConformance<T: StaffMember>(_ type: T.Type, seed: UInt64 = 7, count: Int = 90) throws {
        let staff = makeStaff(seed: seed, count: count)
        let db = try openStaff()
        try store(staff, as: type, in: db)
        let cases = ConformanceCases.all(staff: staff)
        XCTAssertGreaterThanOrEqual(cases.count, 300)
        var failures = 0
        var selective = 0
        var indexed = 0
        for testCase in cases {
            let expected = staff.alive.filter { testCase.expected($0, staff) }.map(\.badge)
            do {
                let results = try db.objects(type).filter(testCase.predicate, arguments: testCase.arguments)
                let counted = results.count
                if !expected.isEmpty, expected.count < staff.alive.count { selective += 1 }
                if results.explain.hasPrefix("index ") { indexed += 1 }
                let actual = results.map(\.badge)
                if Set(actual) != Set(expected) || actual.count != expected.count || counted != expected.count {
                    failures += 1
                    if failures <= 15 {
                        XCTFail("\(T.self) `\(testCase.predicate)` \(testCase.arguments): Strata selects \(actual.count) "
                                + "(count \(counted)), the oracle \(expected.count); plan: \(results.explain)")
                    }
                }
            } catch {
                failures += 1
                XCTFail("\(T.self) `\(testCase.predicate)` threw \(error)")
            }
        }
        XCTAssertEqual(failures, 0, "\(failures) of \(cases.count) predicates disagree with the oracle")
        // The suite only means something if most predicates select some objects but not all of them, and if the
        // indexed model really goes through its indexes.
        XCTAssertGreaterThan(selective, cases.count * 2 / 3, "too few predicates separate the objects")
        if T.self == IndexedEmployee.self { XCTAssertGreaterThan(indexed, 60, "too few predicates use an index") }
        if T.self == Employee.self { XCTAssertEqual(indexed, 0, "a model without indexes cannot use one") }
    }

    func testAggregatesMatchTheOracle() throws {
        let staff = makeStaff()
        let db = try openStaff()
        try store(staff, as: Employee.self, in: db)
        for (predicate, keep) in [("TRUEPREDICATE", { (_: PlainEmployee) in true }), ("hired == true AND age < 40", { $0.hired && $0.age < 40 }),
                                  ("age > 1000", { _ in false })] {
            let plain = staff.alive.filter(keep)
            let results = try db.objects(Employee.self).filter(predicate)
            // Column aggregates (table query) and per-object aggregates (after distinct by badge) must agree.
            for candidate in [results, results.distinct(by: ["badge"])] {
                XCTAssertEqual(candidate.sum(ofProperty: "age") as Int, plain.map(\.age).reduce(0, +), predicate)
                XCTAssertEqual(candidate.sum(ofProperty: "bonus") as Int, plain.compactMap(\.bonus).reduce(0, +), predicate)
                XCTAssertEqual(candidate.min(ofProperty: "bonus") as Int?, plain.compactMap(\.bonus).min(), predicate)
                XCTAssertEqual(candidate.max(ofProperty: "age") as Int?, plain.map(\.age).max(), predicate)
                XCTAssertEqual(candidate.max(ofProperty: "rating") as Float?, plain.compactMap(\.rating).max(), predicate)
                XCTAssertEqual(candidate.min(ofProperty: "started") as Date?, plain.map(\.started).min(), predicate)
                let ratings = plain.compactMap(\.rating).map(Double.init)
                let average = candidate.average(ofProperty: "rating")
                XCTAssertEqual(average == nil, ratings.isEmpty, predicate)
                if let average { XCTAssertEqual(average, ratings.reduce(0, +) / Double(ratings.count), accuracy: 1e-9, predicate) }
                XCTAssertEqual(candidate.sum(ofProperty: "salary") as Double, plain.map(\.salary).reduce(0, +), accuracy: 1e-6, predicate)
            }
        }
    }

    func testLinkingObjectsPredicatesMatchTheOracle() throws {
        let staff = makeStaff()
        for indexed in [false, true] {
            let db = try openStaff(indexed ? "indexed" : "plain")
            if indexed { try store(staff, as: IndexedEmployee.self, in: db) } else { try store(staff, as: Employee.self, in: db) }
            let members = indexed ? "indexedMembers" : "members"
            let cases: [(String, ([PlainEmployee], PlainTeam) -> Bool)] = [
                ("\(members).@count > 15", { m, _ in m.count > 15 }),
                ("\(members).@count == 0", { m, _ in m.isEmpty }),
                ("ANY \(members).age > 65", { m, _ in m.contains { $0.age > 65 } }),
                ("ALL \(members).age >= 19", { m, _ in m.allSatisfy { $0.age >= 19 } }),
                ("NONE \(members).name BEGINSWITH 'A'", { m, _ in !m.contains { $0.name.hasPrefix("A") } }),
                ("\(members).@avg.salary > 5000", { m, _ in m.isEmpty ? false : m.map(\.salary).reduce(0, +) / Double(m.count) > 5000 }),
                ("\(members).@max.age < 69 AND budget > 0", { m, t in (m.map(\.age).max().map { $0 < 69 } ?? false) && t.budget > 0 }),
                ("SUBQUERY(\(members), $m, $m.hired == false AND $m.age < 40).@count >= 2", { m, _ in
                    m.filter { !$0.hired && $0.age < 40 }.count >= 2
                }),
                ("title BEGINSWITH[cd] 'e' OR \(members).@sum.age > 700", { m, t in
                    Oracle.string(t.title, "BEGINSWITH", "e", options: "cd") || m.map(\.age).reduce(0, +) > 700
                }),
            ]
            for (predicate, expected) in cases {
                let want = staff.teams.indices.filter { !staff.teams[$0].isDeleted && expected(staff.members(of: $0), staff.teams[$0]) }
                    .map { staff.teams[$0].code }
                let got = try db.objects(Team.self).filter(predicate).map(\.code)
                XCTAssertEqual(Set(got), Set(want), "`\(predicate)`")
            }
        }
    }
}
