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
