import Foundation
import StrataTestSupport
import XCTest

@testable import Strata

/// A differential conformance suite for key paths through embedded objects: random residents with homes, past
/// homes and nested coordinates, and predicates built from every combination of path, operator and constant, each
/// run by Strata and by a brute-force oracle over plain Swift values; sorting by embedded key paths as well.
final class EmbeddedConformanceTests: EmbeddedTestCase {
    /// A resident as plain values.
    private struct Plain {
        struct Home {
            var city: String
            var street: String
            var lat: Double?
        }

        var id: Int
        var home: Home?
        var pastHomes: [Home]
    }

    private let cities = ["Paris", "Lyon", "Nice", "Oslo", "paris", "Rome"]

    private func makeResidents(seed: UInt64, count: Int) -> [Plain] {
        var random = SeededGenerator(seed: seed)
        func makeHome() -> Plain.Home {
            Plain.Home(
                city: cities.randomElement(using: &random)!, street: "\(Int.random(in: 1...40, using: &random)) Main",
                lat: Bool.random(using: &random) ? Double(Int.random(in: -60...60, using: &random)) : nil)
        }
        return (0..<count).map { id in
            let home = Int.random(in: 0..<4, using: &random) == 0 ? nil : makeHome()
            let past = (0..<Int.random(in: 0...3, using: &random)).map { _ in makeHome() }
            return Plain(id: id, home: home, pastHomes: past)
        }
    }

    private func store(_ residents: [Plain]) throws {
        func address(_ home: Plain.Home) -> Address {
            Address(street: home.street, city: home.city, geo: home.lat.map { Geo(lat: $0, lon: 0) })
        }
        try db.write {
            for plain in residents {
                db.add(Resident(
                    id: plain.id, name: "r\(plain.id)", home: plain.home.map(address),
                    pastHomes: plain.pastHomes.map(address)))
            }
        }
    }

    /// (predicate, oracle) pairs over every path, operator and constant.
    private func cases() -> [(String, (Plain) -> Bool)] {
        var cases: [(String, (Plain) -> Bool)] = []
        for city in cities {
            cases.append(("home.city == '\(city)'", { $0.home?.city == city }))
            cases.append(("home.city != '\(city)'", { $0.home?.city != city }))
            cases.append(("home.city ==[c] '\(city)'", { $0.home?.city.lowercased() == city.lowercased() }))
            cases.append(("ANY pastHomes.city == '\(city)'", { $0.pastHomes.contains { $0.city == city } }))
            cases.append(("NONE pastHomes.city == '\(city)'", { !$0.pastHomes.contains { $0.city == city } }))
            cases.append(("ALL pastHomes.city != '\(city)'", { $0.pastHomes.allSatisfy { $0.city != city } }))
            cases.append(("home.city BEGINSWITH '\(city.prefix(2))'", { $0.home?.city.hasPrefix(city.prefix(2)) == true }))
            cases.append((
                "home.city == '\(city)' OR ANY pastHomes.city == '\(city)'",
                { $0.home?.city == city || $0.pastHomes.contains { $0.city == city } }))
        }
        for bound in [-30.0, 0, 25] {
            cases.append(("home.geo.lat > \(bound)", { ($0.home?.lat).map { $0 > bound } ?? false }))
            cases.append(("home.geo.lat <= \(bound)", { ($0.home?.lat).map { $0 <= bound } ?? false }))
            cases.append(("ANY pastHomes.geo.lat < \(bound)", { $0.pastHomes.contains { ($0.lat ?? .infinity) < bound } }))
        }
        for count in 0...3 {
            cases.append(("pastHomes.@count == \(count)", { $0.pastHomes.count == count }))
            cases.append((
                "SUBQUERY(pastHomes, $h, $h.city == 'Lyon').@count >= \(count)",
                { $0.pastHomes.filter { $0.city == "Lyon" }.count >= count }))
        }
        cases.append(("home == nil", { $0.home == nil }))
        cases.append(("home != nil AND home.geo == nil", { $0.home != nil && $0.home?.lat == nil }))
        cases.append(("home.street ENDSWITH '1 Main'", { $0.home?.street.hasSuffix("1 Main") == true }))
        return cases
    }

    func testPredicatesThroughEmbeddedObjectsMatchTheOracle() throws {
        let residents = makeResidents(seed: 26, count: 160)
        try store(residents)
        let all = db.objects(Resident.self)
        let cases = cases()
        XCTAssertGreaterThan(cases.count, 60)
        var selective = 0
        var indexed = 0
        for (predicate, oracle) in cases {
            let expected = residents.filter(oracle).map(\.id)
            let results = try all.filter(predicate)
            XCTAssertEqual(results.map(\.id).sorted(), expected.sorted(), "\(predicate): \(results.explain)")
            XCTAssertEqual(results.count, expected.count, predicate)
            if !expected.isEmpty && expected.count < residents.count { selective += 1 }
            if results.explain.hasPrefix("index ") { indexed += 1 }
        }
        XCTAssertGreaterThan(selective, cases.count * 2 / 3, "too few predicates separate the residents")
        XCTAssertGreaterThan(indexed, 10, "too few predicates go through the index of Address.city")
    }

    func testSortingByEmbeddedKeyPathsMatchesTheOracle() throws {
        let residents = makeResidents(seed: 62, count: 80)
        try store(residents)
        let sorted = db.objects(Resident.self).sorted(by: ["home.city", "id"])
        // By city in the store's string order (Unicode code points), then by id; no home (a nil link on the way)
        // last, as Realm sorts nil links.
        let expected = residents.sorted { left, right in
            switch (left.home?.city, right.home?.city) {
            case (nil, nil): return left.id < right.id
            case (nil, _): return false
            case (_, nil): return true
            case (let a?, let b?): return a == b ? left.id < right.id : a < b
            }
        }
        XCTAssertEqual(sorted.map(\.id), expected.map(\.id))
    }
}
