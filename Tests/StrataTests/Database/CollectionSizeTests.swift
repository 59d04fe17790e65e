import Foundation
import XCTest

@testable import Strata

/// Lists and object graphs at sizes where per-element work that grows with the whole (a list decoded once per
/// element read, a recursion per link) shows: issue #23, item 4.
final class CollectionSizeTests: DatabaseTestCase {
    private let length = 200_000

    private func personWithScores(_ db: Database) throws -> Person {
        let person = Person(id: 1, name: "Ana", scores: (0..<length).map { $0 * 3 })
        try db.write { db.add(person) }
        return person
    }

    /// Iterating a stored list of 200,000 integers reads every element in order; decoding the list once per
    /// element (as before) would take hours at this size.
    func testIteratingALongStoredListReadsEveryElement() throws {
        let db = try openDatabase()
        let scores = try personWithScores(db).scores
        XCTAssertTrue(scores.isManaged)
        XCTAssertEqual(scores.count, length)
        var expected = 0
        var total = 0
        var wrong: [Int] = []
        for score in scores {
            if score != expected * 3 { wrong.append(expected) }
            expected += 1
            total &+= score
        }
        XCTAssertEqual(wrong.prefix(5), [], "elements read wrong")
        XCTAssertEqual(expected, length)
        XCTAssertEqual(total, 3 * (length - 1) * length / 2)
        XCTAssertEqual(Array(scores).count, length)
        XCTAssertEqual(scores.reduce(0, +), total)
    }

    func testIndexingAndSlicingALongStoredList() throws {
        let db = try openDatabase()
        let scores = try personWithScores(db).scores
        XCTAssertEqual(scores[0], 0)
        XCTAssertEqual(scores[length - 1], (length - 1) * 3)
        XCTAssertEqual(scores[123_456], 123_456 * 3)
        XCTAssertEqual(Array(scores[1_000..<1_005]), [3_000, 3_003, 3_006, 3_009, 3_012])
        let tail = scores[(length - 3)...]
        XCTAssertEqual(Array(tail), [(length - 3) * 3, (length - 2) * 3, (length - 1) * 3])
        XCTAssertEqual(scores.suffix(2).first, (length - 2) * 3)
        XCTAssertEqual(Array(scores.reversed().prefix(2)), [(length - 1) * 3, (length - 2) * 3])
        XCTAssertEqual(scores.firstIndex(of: 150_000 * 3), 150_000)
        XCTAssertEqual(scores.last, (length - 1) * 3)
        // Strided reads across the whole list: random access, not a walk from the start each time.
        var index = 0
        while index < length {
            XCTAssertEqual(scores[index], index * 3)
            index += 997
        }
    }

    /// The decoded elements a list keeps are dropped by every change, through this list or another handle on the
    /// same list, inside a write, after it and after another database's commit.
    func testAListReadsItsChangesWhereverTheyAreMade() throws {
        let db = try openDatabase()
        let person = Person(id: 1, name: "Ana", scores: [1, 2, 3])
        try db.write { db.add(person) }
        let scores = person.scores
        let sameList = try XCTUnwrap(db.object(ofType: Person.self, forPrimaryKey: 1)).scores
        XCTAssertEqual(Array(scores), [1, 2, 3])
        XCTAssertEqual(Array(sameList), [1, 2, 3])
        try db.write {
            scores[1] = 20
            XCTAssertEqual(scores[1], 20)
            XCTAssertEqual(sameList[1], 20)
            sameList.append(4)
            XCTAssertEqual(Array(scores), [1, 20, 3, 4])
            scores.move(from: 3, to: 0)
            XCTAssertEqual(Array(sameList), [4, 1, 20, 3])
            person.scores = List([7, 8])
            XCTAssertEqual(Array(scores), [7, 8])
        }
        XCTAssertEqual(Array(sameList), [7, 8])
        try db.write { scores.removeAll() }
        XCTAssertTrue(sameList.isEmpty)

        let other = try openDatabase()
        try other.write { try XCTUnwrap(other.object(ofType: Person.self, forPrimaryKey: 1)).scores.append(9) }
        XCTAssertEqual(Array(scores), [], "the database still reads the version before the other's commit")
        db.refresh()
        XCTAssertEqual(Array(scores), [9])
    }

    /// A list of links to a long list of new objects, set in one assignment, is written once.
    func testAssigningALongListOfNewObjects() throws {
        let db = try openDatabase()
        let person = Person(id: 1, name: "Ana")
        try db.write { db.add(person) }
        let dogs = List((0..<20_000).map { Dog(name: "d\($0)") })
        try db.write { person.dogs = dogs }
        XCTAssertEqual(person.dogs.count, 20_000)
        XCTAssertEqual(person.dogs[19_999].name, "d19999")
        XCTAssertEqual(person.dogs.map(\.name).last, "d19999")
        XCTAssertEqual(db.objects(Dog.self).count, 20_000)
    }
}

/// `Database.add` of a long chain of unmanaged objects linked one to the next.
final class LongChainTests: DatabaseTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        configuration = Configuration(schema: Chain.self)
            .scratch(at: directory.url.appendingPathComponent("chain.strata"))
    }

    /// Adding the head adds all 100,000 objects (the recursion it replaced overflowed the stack at 40,000), in
    /// the order a depth-first walk of the links meets them.
    func testAddingTheHeadOfA100000ObjectChainAddsEveryObject() throws {
        let count = 100_000
        // Kept in an array: releasing the chain from its head would release it one nested call per link.
        var chain: [ChainLink] = []
        chain.reserveCapacity(count)
        for number in 0..<count { chain.append(ChainLink(number: number)) }
        for index in 0..<(count - 1) { chain[index].next = chain[index + 1] }
        let db = try openDatabase()
        try db.write { db.add(chain[0]) }
        XCTAssertTrue(chain.allSatisfy(\.isManaged))
        XCTAssertEqual(db.objects(ChainLink.self).count, count)

        var link: ChainLink? = db.objects(ChainLink.self).first
        var expected = 0
        var wrong: [Int] = []
        while let current = link {
            if current.number != expected { wrong.append(expected) }
            expected += 1
            link = current.next
        }
        XCTAssertEqual(wrong.prefix(5), [], "links followed wrong")
        XCTAssertEqual(expected, count)
        XCTAssertEqual(db.objects(ChainLink.self).map(\.number), Array(0..<count), "keys follow the chain")
    }

    /// A cycle (the last object links back to the first) is added once per object.
    func testAddingACycleAddsEachObjectOnce() throws {
        let chain = (0..<1_000).map { ChainLink(number: $0) }
        for index in chain.indices { chain[index].next = chain[(index + 1) % chain.count] }
        let db = try openDatabase()
        try db.write { db.add(chain[500]) }
        XCTAssertEqual(db.objects(ChainLink.self).count, 1_000)
        XCTAssertEqual(chain[999].next?.number, 0)
        XCTAssertTrue(chain[999].next?.isSameObject(as: chain[0]) == true)
        XCTAssertEqual(
            "\(chain[0])",
            "ChainLink { number = 0; next = ChainLink { number = 1; next = ChainLink { number = 2; "
                + "next = ChainLink { … } } } }",
            "printing an object of a cycle stops a few links deep")
    }
}
