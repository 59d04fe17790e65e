import Foundation
import XCTest

@testable import Strata

final class MapTests: PantryTestCase {
    func testAnUnmanagedMapIsAPlainDictionaryCopiedInOnAdd() throws {
        let bea = Cook(id: 1, name: "Bea", scores: ["math": 18, "art": 12])
        XCTAssertFalse(bea.scores.isManaged)
        bea.scores["bio"] = 9
        bea.scores["art"] = nil
        XCTAssertEqual(bea.scores.keys, ["bio", "math"], "keys in key order")
        XCTAssertEqual(bea.scores.values, [9, 18])
        let db = try openDatabase()
        try db.write { db.add(bea) }
        XCTAssertTrue(bea.scores.isManaged)
        XCTAssertEqual(bea.scores["math"], 18)
        XCTAssertNil(bea.scores["art"])
        XCTAssertEqual(bea.scores.count, 2)
    }

    func testEveryOperationOnAManagedMap() throws {
        let db = try openDatabase()
        let bea = Cook(id: 1, name: "Bea")
        try db.write { db.add(bea) }
        let scores = bea.scores
        try db.write {
            scores["math"] = 18
            scores["Art"] = 3
            scores.updateValue(20, forKey: "math")
            scores.setValue(1, forKey: "é")
            scores["none"] = nil
        }
        XCTAssertEqual(scores.keys, ["Art", "math", "é"], "UTF-8 byte order: uppercase, lowercase, then é")
        XCTAssertEqual(scores.object(forKey: "math"), 20)
        XCTAssertEqual(Array(scores.map(\.key)), ["Art", "math", "é"])
        XCTAssertEqual(Array(scores.map(\.value)), [3, 20, 1])
        try db.write {
            scores.removeObject(for: "Art")
            scores.merge(["x": 5, "math": 0])
        }
        XCTAssertEqual(Dictionary(uniqueKeysWithValues: scores.map { ($0.key, $0.value) }), ["math": 0, "x": 5, "é": 1])
        try db.write { bea.scores = Map(["only": 1]) }
        XCTAssertEqual(bea.scores.keys, ["only"])
        try db.write { scores.removeAll() }
        XCTAssertEqual(scores.count, 0)
        XCTAssertEqual(scores.description, "Map<String, Int>[:]")
    }

    func testOptionalValuesDistinguishMissingFromNil() throws {
        let db = try openDatabase()
        let bea = Cook(id: 1, name: "Bea")
        try db.write {
            db.add(bea)
            bea.notes["a"] = "x"
            bea.notes["b"] = .some(nil)
        }
        XCTAssertEqual(bea.notes.count, 2)
        XCTAssertEqual(bea.notes["a"], .some("x"))
        XCTAssertEqual(bea.notes["b"], .some(nil), "a stored nil")
        XCTAssertTrue(bea.notes["c"] == nil, "a missing key")
        try db.write { bea.notes["b"] = nil }
        XCTAssertEqual(bea.notes.keys, ["a"])
    }

    func testMapsOfObjectsNilDeletedTargetsAndKeepTheirKeys() throws {
        let db = try openDatabase()
        let soup = Dish(name: "soup", price: 3)
        let pie = Dish(name: "pie", price: 5)
        let bea = Cook(id: 1, name: "Bea", signature: ["best": soup, "also": soup, "sweet": pie, "none": nil])
        try db.write { db.add(bea) }
        XCTAssertEqual(bea.signature.count, 4)
        XCTAssertEqual(bea.signature["best"]??.name, "soup")
        XCTAssertEqual(soup.signatureOf.count, 1, "one cook holds it under two keys")
        XCTAssertEqual(db.objects(Dish.self).count, 2)
        try db.write { db.delete(soup) }
        XCTAssertEqual(bea.signature.keys, ["also", "best", "none", "sweet"])
        XCTAssertTrue(bea.signature["best"].map { $0 == nil } ?? false, "a stored nil")
        XCTAssertEqual(bea.signature["sweet"]??.name, "pie")
        try db.verify()
        XCTAssertTrue(bea.debugDescription.contains("signature = [also: nil, best: nil, none: nil, sweet: Dish {"),
                      bea.debugDescription)
    }

    func testCreateFromDictionariesAndRefusedKeys() throws {
        let db = try openDatabase()
        let cook = try db.write {
            db.create(Cook.self, value: [
                "id": 1, "name": "Bea", "scores": ["math": 18], "notes": ["n": NSNull()],
                "signature": ["best": ["name": "stew", "price": 2.0]],
            ])
        }
        XCTAssertEqual(cook.scores["math"], 18)
        XCTAssertEqual(cook.notes["n"], .some(nil))
        XCTAssertEqual(cook.signature["best"]??.name, "stew")
        XCTAssertThrowsError(try db.write { _ = db.create(Cook.self, value: ["id": 2, "name": "x", "scores": ["a.b": 1]]) }) {
            XCTAssertTrue("\($0)".contains("contains '.'"), "\($0)")
        }
        XCTAssertThrowsError(try db.write { _ = db.create(Cook.self, value: ["id": 3, "name": "x", "scores": ["$a": 1]]) })
        XCTAssertThrowsError(try db.write { _ = db.create(Cook.self, value: ["id": 4, "name": "x", "scores": ["a": "b"]]) })
    }
}
