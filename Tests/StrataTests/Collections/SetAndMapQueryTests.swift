import Foundation
import StrataTestSupport
import XCTest

@testable import Strata

/// Queries over sets and maps on the Pantry models: string predicates, typed `where {}` members, errors, and what
/// `strata info` shows of their columns. (The conformance suite checks many more predicates against an oracle.)
final class SetAndMapQueryTests: PantryTestCase {
    private func fill(_ db: Database) throws {
        try db.write {
            let soup = Dish(name: "soup", price: 3)
            let pie = Dish(name: "pie", price: 8)
            db.add(Cook(id: 1, name: "Bea", nicknames: ["Bee", "B"], luckyNumbers: [3, 9], dishes: [soup],
                        scores: ["math": 18, "art": 4], notes: ["x": nil], signature: ["best": pie]))
            db.add(Cook(id: 2, name: "Al", nicknames: ["Al"], luckyNumbers: [1], dishes: [soup, pie],
                        scores: ["art": 12], signature: ["best": soup, "worst": nil]))
            db.add(Cook(id: 3, name: "Cy"))
        }
    }

    private func names(_ results: Results<Cook>) -> [String] { results.map(\.name).sorted() }

    func testStringPredicates() throws {
        let db = try openDatabase()
        try fill(db)
        let cooks = db.objects(Cook.self)
        XCTAssertEqual(names(try cooks.filter("ANY nicknames == 'Bee'")), ["Bea"])
        XCTAssertEqual(names(try cooks.filter("%@ IN nicknames", "Al")), ["Al"])
        XCTAssertEqual(names(try cooks.filter("ANY nicknames BEGINSWITH[c] 'b'")), ["Bea"])
        XCTAssertEqual(names(try cooks.filter("nicknames.@count == 0")), ["Cy"])
        XCTAssertEqual(names(try cooks.filter("luckyNumbers.@sum > 10")), ["Bea"])
        XCTAssertEqual(names(try cooks.filter("ALL luckyNumbers > 2")), ["Bea", "Cy"])
        XCTAssertEqual(names(try cooks.filter("ANY dishes.price > 5")), ["Al"])
        XCTAssertEqual(names(try cooks.filter("dishes.@avg.price > 5")), ["Al"])
        XCTAssertEqual(names(try cooks.filter("scores['math'] > 10")), ["Bea"])
        XCTAssertEqual(names(try cooks.filter("scores.art < 10")), ["Bea"])
        XCTAssertEqual(names(try cooks.filter("scores['math'] == nil")), ["Al", "Cy"])
        XCTAssertEqual(names(try cooks.filter("ANY scores > 15")), ["Bea"])
        XCTAssertEqual(names(try cooks.filter("scores.@count == 1")), ["Al"])
        XCTAssertEqual(names(try cooks.filter("scores.@max == 12")), ["Al"])
        XCTAssertEqual(names(try cooks.filter("ANY scores.@allKeys == 'math'")), ["Bea"])
        XCTAssertEqual(names(try cooks.filter("ALL scores.@allValues > 10")), ["Al", "Cy"])
        XCTAssertEqual(names(try cooks.filter("notes['x'] == nil AND notes.@count == 1")), ["Bea"])
        XCTAssertEqual(names(try cooks.filter("signature['best'].price < 5")), ["Al"])
        XCTAssertEqual(names(try cooks.filter("signature.name == nil")), ["Al", "Bea", "Cy"],
                       "map.key reads the key 'name', which no map has, not a property of its objects")
        XCTAssertEqual(names(try cooks.filter("ANY signature.@allValues.price > 5")), ["Bea"])
        let soup = try XCTUnwrap(db.objects(Dish.self).first { $0.name == "soup" })
        XCTAssertEqual(names(try cooks.filter("%@ IN dishes", soup)), ["Al", "Bea"])
        XCTAssertEqual(try cooks.filter("scores['math'] > 10").explain.contains("scores['math'] > 10"), true)
    }

    /// `ANY set == x`, `x IN set` and `NONE set == x` run as column scans that binary-search each stored set in
    /// place; their results must be those of the object-by-object check, at both ends of a set, between its
    /// elements, on prefixes and on negative numbers.
    func testSetMembershipScansColumns() throws {
        let db = try openDatabase()
        try fill(db)
        let many = (0..<40).map { "n\($0 * 2)" }
        try db.write {
            db.add(Cook(id: 4, name: "Di", nicknames: many + ["", "Be", "Beef", "a\u{0}b"],
                        luckyNumbers: [-5, 0, Int.max, Int.min, 42]))
        }
        let cooks = db.objects(Cook.self)
        let cases: [(String, [Any], [String])] = [
            ("ANY nicknames == %@", ["Bee"], ["Bea"]),
            ("%@ IN nicknames", ["B"], ["Bea"]),
            ("ANY nicknames == %@", ["Be"], ["Di"]),
            ("ANY nicknames == %@", [""], ["Di"]),
            ("ANY nicknames == %@", ["a\u{0}b"], ["Di"]),
            ("ANY nicknames == %@", ["a"], []),
            ("ANY nicknames == %@", ["n0"], ["Di"]),
            ("ANY nicknames == %@", ["n78"], ["Di"]),
            ("ANY nicknames == %@", ["n41"], []),
            ("ANY nicknames == %@", ["bee"], []),
            ("NONE nicknames == %@", ["Bee"], ["Al", "Cy", "Di"]),
            ("NONE nicknames == %@", ["zzz"], ["Al", "Bea", "Cy", "Di"]),
            ("ANY luckyNumbers == %@", [-5], ["Di"]),
            ("ANY luckyNumbers == %@", [Int.min], ["Di"]),
            ("ANY luckyNumbers == %@", [Int.max], ["Di"]),
            ("%@ IN luckyNumbers", [9], ["Bea"]),
            ("ANY luckyNumbers == %@", [2], []),
            ("NONE luckyNumbers == %@", [1], ["Bea", "Cy", "Di"]),
            ("ANY luckyNumbers == 1 OR ANY nicknames == 'Bee'", [], ["Al", "Bea"]),
            ("NOT (ANY nicknames == 'Al') AND name != 'Cy'", [], ["Bea", "Di"]),
        ]
        for (format, arguments, expected) in cases {
            let results = try cooks.filter(format, arguments: arguments)
            XCTAssertEqual(names(results), expected, "\(format) \(arguments)")
            XCTAssertFalse(results.explain.contains("per object"), "\(format): \(results.explain)")
        }
        XCTAssertTrue(try cooks.filter("ANY nicknames ==[c] 'bee'").explain.contains("per object"),
                      "options keep the object-by-object check")
        XCTAssertEqual(names(try cooks.filter("ANY nicknames ==[c] 'bee'")), ["Bea"])
    }

    func testTypedMembers() throws {
        let db = try openDatabase()
        try fill(db)
        let cooks = db.objects(Cook.self)
        XCTAssertEqual(names(try cooks.where { $0.nicknames.any { $0.value == "Bee" } }), ["Bea"])
        XCTAssertEqual(names(try cooks.where { $0.scores["math"] > 10 }), ["Bea"])
        XCTAssertEqual(names(try cooks.where { $0.scores.count == 0 }), ["Cy"])
        XCTAssertEqual(names(try cooks.where { $0.scores.allKeys.any { $0.value == "art" } }), ["Al", "Bea"])
        XCTAssertEqual(names(try cooks.where { $0.scores.allValues.sum() >= 12 }), ["Al", "Bea"])
        XCTAssertEqual(names(try cooks.where { $0.dishes.count == 2 && $0.signature["best"].name == "soup" }), ["Al"])
    }

    func testMistakesAreNamed() throws {
        let db = try openDatabase()
        let cooks = db.objects(Cook.self)
        XCTAssertThrowsError(try cooks.filter("name['x'] == 'a'")) {
            XCTAssertTrue("\($0)".contains("'name' is not a map"), "\($0)")
        }
        XCTAssertThrowsError(try cooks.filter("scores[3] == 1")) {
            XCTAssertTrue("\($0)".contains("quoted map key"), "\($0)")
        }
        XCTAssertThrowsError(try cooks.filter("scores['x' == 1"))
        XCTAssertThrowsError(try cooks.filter("scores.@allKeys > 3")) {
            XCTAssertTrue("\($0)".contains("cannot compare string with the int 3"), "\($0)")
        }
        XCTAssertThrowsError(try cooks.filter("nicknames.@sum > 3"))
        XCTAssertThrowsError(try cooks.filter("ANY name == 'x'"))
    }

    func testStrataInfoShowsTheColumnKinds() throws {
        let db = try openDatabase()
        try fill(db)
        let info = try BuiltExecutable(named: "strata").run(["info", configuration.fileURL.path])
        XCTAssertEqual(info.status, 0, info.errorOutput)
        for column in ["nicknames: set<string>", "maybeRatings: set<double>", "friends: set<link>", "scores: map<int>",
                       "signature: map<link>"] {
            XCTAssertTrue(info.output.contains(column), "'\(column)' not in: \(info.output)")
        }
    }
}
