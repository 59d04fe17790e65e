import Foundation
import XCTest

@testable import Strata

final class MutableSetTests: PantryTestCase {
    func testAnUnmanagedSetIsAPlainCollectionCopiedInOnAdd() throws {
        let bea = Cook(id: 1, name: "Bea", nicknames: ["b", "a", "b"])
        XCTAssertFalse(bea.nicknames.isManaged)
        XCTAssertEqual(Array(bea.nicknames), ["b", "a"], "unmanaged: insertion order, no repeats")
        bea.nicknames.insert("c")
        bea.nicknames.remove("b")
        XCTAssertTrue(bea.nicknames.contains("c"))
        XCTAssertEqual(bea.nicknames.count, 2)
        let db = try openDatabase()
        try db.write { db.add(bea) }
        XCTAssertTrue(bea.nicknames.isManaged)
        XCTAssertEqual(Array(bea.nicknames), ["a", "c"], "managed: the store's element order")
    }

    func testEveryOperationOnAManagedSet() throws {
        let db = try openDatabase()
        let bea = Cook(id: 1, name: "Bea", luckyNumbers: [7, -2, 40])
        try db.write { db.add(bea) }
        let lucky = bea.luckyNumbers
        XCTAssertEqual(Array(lucky), [-2, 7, 40])
        try db.write {
            lucky.insert(7)
            lucky.insert(3)
            lucky.remove(40)
            lucky.remove(1000)
        }
        XCTAssertEqual(Array(lucky), [-2, 3, 7])
        XCTAssertTrue(lucky.contains(3))
        XCTAssertFalse(lucky.contains(40))
        XCTAssertTrue(lucky.intersects([1, 3]))
        XCTAssertFalse(lucky.intersects([1, 2]))
        XCTAssertTrue(lucky.isSubset(of: [-2, 3, 7, 8]))
        XCTAssertFalse(lucky.isSubset(of: [3, 7]))
        try db.write { lucky.formUnion([1, 3, 9]) }
        XCTAssertEqual(Array(lucky), [-2, 1, 3, 7, 9])
        try db.write { lucky.formIntersection([1, 3, 7, 100]) }
        XCTAssertEqual(Array(lucky), [1, 3, 7])
        try db.write { lucky.subtract([3]) }
        XCTAssertEqual(Array(lucky), [1, 7])
        XCTAssertEqual(lucky[1], 7)
        try db.write { bea.luckyNumbers = MutableSet([5, 5, 6]) }
        XCTAssertEqual(Array(bea.luckyNumbers), [5, 6])
        try db.write { bea.luckyNumbers = bea.luckyNumbers }
        XCTAssertEqual(Array(bea.luckyNumbers), [5, 6], "assigning a set to itself keeps it")
        try db.write { lucky.removeAll() }
        XCTAssertEqual(lucky.count, 0)
        XCTAssertEqual(lucky.description, "MutableSet<Int>[]")
    }

    func testOptionalElementsAndNil() throws {
        let db = try openDatabase()
        let bea = Cook(id: 1, name: "Bea", maybeRatings: [2.5, nil, 1.0, nil])
        try db.write { db.add(bea) }
        XCTAssertEqual(Array(bea.maybeRatings), [nil, 1.0, 2.5], "nil sorts first and is held once")
        XCTAssertTrue(bea.maybeRatings.contains(nil))
        try db.write { bea.maybeRatings.remove(nil) }
        XCTAssertFalse(bea.maybeRatings.contains(nil))
    }

    func testSetsOfObjectsHoldEachOnceAndLoseDeletedOnes() throws {
        let db = try openDatabase()
        let soup = Dish(name: "soup")
        let pie = Dish(name: "pie")
        let bea = Cook(id: 1, name: "Bea", dishes: [soup, pie, soup])
        try db.write { db.add(bea) }
        XCTAssertEqual(bea.dishes.count, 2)
        XCTAssertEqual(db.objects(Dish.self).count, 2)
        XCTAssertTrue(bea.dishes.contains(soup))
        XCTAssertFalse(bea.dishes.contains(Dish(name: "soup")), "an unmanaged object is in no stored set")
        XCTAssertEqual(soup.fans.count, 1)
        XCTAssertEqual(soup.fans.first?.name, "Bea")
        let al = Cook(id: 2, name: "Al")
        try db.write {
            db.add(al)
            al.dishes.insert(soup)
            al.friends.insert(bea)
            al.friends.insert(al)
        }
        XCTAssertEqual(soup.fans.count, 2)
        XCTAssertEqual(Set(al.friends.map(\.name)), ["Al", "Bea"])
        try db.write { db.delete(soup) }
        XCTAssertEqual(bea.dishes.map(\.name), ["pie"])
        XCTAssertEqual(al.dishes.count, 0)
        try db.write { db.delete(bea) }
        XCTAssertEqual(al.friends.map(\.name), ["Al"])
        try db.verify()
    }

    func testCreateFromArraysAndDescription() throws {
        let db = try openDatabase()
        let cook = try db.write {
            db.create(Cook.self, value: [
                "id": 3, "name": "Cy", "nicknames": ["z", "y", "z"], "luckyNumbers": Set([4, 2]),
                "dishes": [["name": "tart", "price": 4.5]],
            ])
        }
        XCTAssertEqual(Array(cook.nicknames), ["y", "z"])
        XCTAssertEqual(Array(cook.luckyNumbers), [2, 4])
        XCTAssertEqual(cook.dishes.first?.price, 4.5)
        XCTAssertTrue(cook.debugDescription.contains("nicknames = [y, z]"), cook.debugDescription)
        XCTAssertEqual(cook.nicknames.description, "MutableSet<String>[\"y\", \"z\"]")
        XCTAssertThrowsError(try db.write { _ = db.create(Cook.self, value: ["id": 4, "name": "D", "nicknames": "x"]) })
    }

    func testChangesOutsideAWriteAreRefusedAndTheWriteRollsBack() throws {
        let db = try openDatabase()
        let bea = Cook(id: 1, name: "Bea", nicknames: ["a"])
        try db.write { db.add(bea) }
        db.beginWrite()
        bea.nicknames.insert("b")
        XCTAssertEqual(bea.nicknames.count, 2)
        db.cancelWrite()
        XCTAssertEqual(Array(bea.nicknames), ["a"])
    }

    func testASetOfObjectsQueriesLikeAList() throws {
        let db = try openDatabase()
        let bea = Cook(id: 1, name: "Bea", dishes: [Dish(name: "soup", price: 3), Dish(name: "pie", price: 8),
                                                     Dish(name: "tart", price: 5)])
        try db.write { db.add(bea) }
        XCTAssertEqual(try bea.dishes.filter("price > 4").map(\.name).sorted(), ["pie", "tart"])
        XCTAssertEqual(try bea.dishes.where { $0.price < 4 }.map(\.name), ["soup"])
        XCTAssertEqual(bea.dishes.sorted(byKeyPath: "price").map(\.name), ["soup", "tart", "pie"])
        XCTAssertEqual(bea.dishes.sum(ofProperty: "price") as Double, 16)
        XCTAssertThrowsError(try Cook(id: 2, name: "x").dishes.filter("price > 4"), "an unmanaged set cannot be queried")
    }
}

extension MutableSetTests {
    /// `MutableSet.map(_:)` (what generated code maps a set's elements with): an unmanaged set maps its elements
    /// in insertion order, a managed one in the store's order, and a throwing transform's error comes through.
    func testMapFollowsTheSetsOrderManagedOrNot() throws {
        let bea = Cook(id: 1, name: "Bea", nicknames: ["b", "a", "b", "c"])
        XCTAssertEqual(bea.nicknames.map { $0.uppercased() }, ["B", "A", "C"])
        let persisted = bea.nicknames.map(\.persistedValue)
        XCTAssertEqual(persisted.map { value -> String in
            if case .string(let text) = value { return text }
            return "?"
        }, ["b", "a", "c"])
        let db = try openDatabase()
        try db.write { db.add(bea) }
        XCTAssertTrue(bea.nicknames.isManaged)
        XCTAssertEqual(bea.nicknames.map { $0.uppercased() }, ["A", "B", "C"])
        struct Refused: Error {}
        XCTAssertThrowsError(try bea.nicknames.map { text throws(Refused) -> String in
            if text == "b" { throw Refused() }
            return text
        }) { error in XCTAssertTrue(error is Refused) }
        XCTAssertEqual(MutableSet<Int>().map { $0 + 1 }, [])
    }
}
