import Foundation
import StrataStorage
import StrataTestSupport
import XCTest

@testable import Strata

/// `onDelete: nullify | cascade | deny` (docs/SCHEMA.md "Delete rules") on each kind of property of the `Graph`
/// schema, through each delete path.
final class DeleteRulesTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var db: Database!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
        db = try GraphRendering.open(in: directory)
    }

    override func tearDown() {
        db = nil
        directory = nil
    }

    /// Adds vertices with ids `ids` and returns them.
    private func vertices(_ ids: ClosedRange<Int>) throws -> [Vertex] {
        let made = ids.map { Vertex(id: $0) }
        try db.write { db.add(made) }
        return made
    }

    private var remaining: [Int] { db.objects(Vertex.self).map(\.id).sorted() }

    /// Asserts that `error` is the denial of `model.property` reaching `count` kept objects.
    private func assertDenied(
        _ error: Error, model: String = "Vertex", property: String, count: Int, line: UInt = #line
    ) {
        guard case StrataError.deleteDenied(let type, let name, let reached) = error else {
            return XCTFail("expected a denied delete, got \(error)", line: line)
        }
        XCTAssertEqual(type, model, line: line)
        XCTAssertEqual(name, property, line: line)
        XCTAssertEqual(reached, count, line: line)
        let message = "\(error)"
        XCTAssertTrue(message.contains("\(model).\(property)") && message.contains("\(count)"), message, line: line)
    }

    // MARK: Nullify

    func testNullifyEmptiesLinksListsAndSetsAndNilsMapValues() throws {
        // A rule applies when its holder is deleted: deleting what it points at nullifies, whatever the rule.
        let v = try vertices(1...3)
        try db.write {
            v[0].next = v[1]
            v[0].items.append(contentsOf: [v[1], v[2], v[1]])
            v[0].membersDeny.insert(v[1])
            v[0].slotsCascade["a"] = v[1]
            v[0].slotsCascade["b"] = v[2]
        }
        try db.write { db.delete(v[1]) }
        XCTAssertEqual(remaining, [1, 3])
        XCTAssertEqual(GraphRendering.line(v[0]), "next - - -; items [3] [] []; members {} {} {}; "
            + "slots {} {a:-,b:3} {}; sticker - []; spare -")
        try db.write { v[0].slotsCascade.removeAll() }
        try db.write { db.delete(v[0]) }
        XCTAssertEqual(remaining, [3], "deleting the holder of nullify links deletes nothing else")
    }

    // MARK: Cascade

    func testCascadeFollowsLinksListsSetsAndMaps() throws {
        let v = try vertices(1...9)
        try db.write {
            v[0].nextCascade = v[1]
            v[0].itemsCascade.append(contentsOf: [v[2], v[3]])
            v[0].membersCascade.insert(objectsIn: [v[4], v[5]])
            v[0].slotsCascade["a"] = v[6]
            v[0].slotsCascade["b"] = nil
            v[8].next = v[1]
        }
        try db.write { db.delete(v[0]) }
        XCTAssertEqual(remaining, [8, 9])
        XCTAssertNil(v[8].next, "a link from outside the delete to a cascaded object is nullified")
        XCTAssertTrue(v[1].isInvalidated)
    }

    func testCascadeIsTransitiveAndDeletesACycleOnce() throws {
        let v = try vertices(1...5)
        try db.write {
            v[0].nextCascade = v[1]
            v[1].itemsCascade.append(contentsOf: [v[2], v[0]])
            v[2].membersCascade.insert(v[0])
            v[2].slotsCascade["x"] = v[1]
            v[3].itemsCascade.append(v[2])
        }
        try db.write { db.delete(v[1]) }
        XCTAssertEqual(remaining, [4, 5])
        XCTAssertTrue(v[3].itemsCascade.isEmpty)
        XCTAssertNoThrow(try db.verify())
    }

    func testLinkingObjectsCascadeDeletesTheObjectsThatLinkHere() throws {
        let v = try vertices(1...4)
        try db.write {
            v[0].members.insert(v[3])
            v[1].members.insert(v[3])
            v[2].items.append(v[3])
        }
        try db.write { db.delete(v[3]) }
        XCTAssertEqual(remaining, [3], "memberOfCascade deletes the vertices whose members held vertex 4")
    }

    func testEmbeddedObjectsCascadeAndTheirOwnRulesApply() throws {
        let v = try vertices(1...5)
        try db.write {
            v[0].sticker = Sticker(label: "one", target: v[1])
            v[0].stickers.append(Sticker(label: "two", target: v[2]))
            v[2].stickers.append(Sticker(label: "three", target: v[3]))
        }
        try db.write { db.delete(v[0]) }
        XCTAssertEqual(remaining, [5], "each sticker's target cascades, through a second owner's stickers too")
    }

    func testAHundredThousandObjectsCascadeInOneDelete() throws {
        let root = Carton(label: 0)
        try db.write {
            for parent in 1...1_000 {
                root.contents.append(Carton(label: parent, contents: (1..<100).map { Carton(label: parent * 1_000 + $0) }))
            }
            db.add(root)
            db.add(Carton(label: -1))
        }
        XCTAssertEqual(db.objects(Carton.self).count, 100_002)
        // Processor time as well as the clock's: on a loaded machine the first says what the delete costs.
        let started = (Date(), clock())
        try db.write { db.delete(root) }
        let seconds = Date().timeIntervalSince(started.0)
        let processor = Double(clock() - started.1) / Double(CLOCKS_PER_SEC)
        XCTAssertEqual(db.objects(Carton.self).map(\.label), [-1])
        print("cascade of 100,001 objects in one delete: \(String(format: "%.2f", seconds)) s, "
            + "\(String(format: "%.2f", processor)) s of processor time")
        XCTAssertNoThrow(try db.verify())
    }

    // MARK: Deny

    func testDenyOnEachKindFailsTheWriteAndKeepsNothing() throws {
        let cases: [(String, Int, ([Vertex]) -> Void)] = [
            ("nextDeny", 1, { $0[0].nextDeny = $0[1] }),
            ("itemsDeny", 2, { $0[0].itemsDeny.append(contentsOf: [$0[1], $0[2], $0[1]]) }),
            ("membersDeny", 2, { $0[0].membersDeny.insert(objectsIn: [$0[1], $0[2]]) }),
            ("slotsDeny", 1, { $0[0].slotsDeny["a"] = $0[2]; $0[0].slotsDeny["b"] = nil }),
        ]
        for (offset, (property, count, setUp)) in cases.enumerated() {
            let v = try vertices(offset * 10 + 1...offset * 10 + 3)
            try db.write { setUp(v) }
            let before = GraphRendering.render(db)
            XCTAssertThrowsError(try db.write {
                db.add(Vertex(id: 100))
                db.delete(v[0])
            }) { self.assertDenied($0, property: property, count: count) }
            XCTAssertEqual(GraphRendering.render(db), before, "\(property): the denied write keeps nothing")
            try db.write { db.delete(v) }
        }
        XCTAssertEqual(remaining, [])
    }

    func testDenyIsSatisfiedWhenEverythingItReachesIsDeletedToo() throws {
        let v = try vertices(1...4)
        try db.write {
            v[0].itemsDeny.append(v[1])
            v[0].nextCascade = v[1]
            v[2].nextDeny = v[3]
        }
        try db.write { db.delete(v[0]) }
        XCTAssertEqual(remaining, [3, 4])
        XCTAssertThrowsError(try db.write { db.delete(v[2]) }) { self.assertDenied($0, property: "nextDeny", count: 1) }
        try db.write { db.delete([v[2], v[3]]) }
        XCTAssertEqual(remaining, [])
    }

    func testDenyFurtherDownACascadeFailsTheWholeDelete() throws {
        let v = try vertices(1...4)
        try db.write {
            v[0].itemsCascade.append(v[1])
            v[1].stickers.append(Sticker(label: "pin", pin: v[3]))
        }
        XCTAssertThrowsError(try db.write { db.delete(v[0]) }) {
            self.assertDenied($0, model: "Sticker", property: "pin", count: 1)
        }
        XCTAssertEqual(remaining, [1, 2, 3, 4])
        try db.write { db.delete(v[3]) }
        try db.write { db.delete(v[0]) }
        XCTAssertEqual(remaining, [3])
    }

    func testLinkingObjectsDenyKeepsAnObjectWhileSomethingLinksToIt() throws {
        let v = try vertices(1...3)
        try db.write {
            v[0].slots["a"] = v[2]
            v[1].slots["b"] = v[2]
        }
        XCTAssertThrowsError(try db.write { db.delete(v[2]) }) {
            self.assertDenied($0, property: "slotOfDeny", count: 2)
        }
        try db.write { db.delete([v[0], v[1], v[2]]) }
        XCTAssertEqual(remaining, [], "the vertices that link are deleted by the same delete")
    }

    func testTheCatchableFailureIsRecordedAndTheWriteThrowsIt() throws {
        let v = try vertices(1...2)
        try db.write { v[0].nextDeny = v[1] }
        db.beginWrite()
        db.delete(v[0])
        db.add(Vertex(id: 3))
        XCTAssertThrowsError(try db.commitWrite()) { self.assertDenied($0, property: "nextDeny", count: 1) }
        XCTAssertEqual(remaining, [1, 2])
    }

    // MARK: Delete paths

    func testDeleteOfResultsAndListsIsOneDelete() throws {
        let v = try vertices(1...6)
        try db.write {
            v[0].itemsDeny.append(v[1])
            v[1].nextCascade = v[4]
            v[5].items.append(contentsOf: [v[0], v[1]])
        }
        XCTAssertThrowsError(try db.write { db.delete(try db.objects(Vertex.self).filter("id == 1")) }) {
            self.assertDenied($0, property: "itemsDeny", count: 1)
        }
        try db.write { db.delete(try db.objects(Vertex.self).filter("id <= 2")) }
        XCTAssertEqual(remaining, [3, 4, 6])
        try db.write {
            v[2].itemsCascade.append(v[3])
            v[5].items.append(v[2])
        }
        try db.write { db.delete(v[5].items) }
        XCTAssertEqual(remaining, [6])
    }

    func testDeleteAllOfAModelAppliesTheRules() throws {
        let v = try vertices(1...4)
        let warden = Warden(name: "w")
        try db.write {
            db.add(warden)
            warden.owned.insert(v[0])
            warden.guarded.append(v[1])
            v[0].nextCascade = v[2]
        }
        XCTAssertThrowsError(try db.write { db.deleteAll(Warden.self) }) {
            self.assertDenied($0, model: "Warden", property: "guarded", count: 1)
        }
        try db.write { warden.guarded.removeAll() }
        try db.write { db.deleteAll(Warden.self) }
        XCTAssertEqual(remaining, [2, 4])
        XCTAssertEqual(db.objects(Warden.self).count, 0)
        try db.write {
            v[1].nextDeny = v[3]
            v[3].itemsDeny.append(v[1])
        }
        try db.write { db.deleteAll(Vertex.self) }
        XCTAssertEqual(remaining, [], "denials among the deleted objects are satisfied")
    }

    func testDeleteAllOfEveryModelIgnoresDenials() throws {
        let v = try vertices(1...2)
        try db.write {
            let warden = Warden(name: "w")
            db.add(warden)
            warden.guarded.append(v[0])
            v[0].nextDeny = v[1]
        }
        try db.write { db.deleteAll() }
        XCTAssertEqual(remaining, [])
    }

    // MARK: strata info

    func testStrataInfoListsEachModelsDeleteRules() throws {
        try db.write { db.add(Warden(name: "w")) }
        let path = directory.url.appendingPathComponent("graph.strata").path
        db = nil
        let info = try BuiltExecutable(named: "strata").run(["info", path])
        XCTAssertEqual(info.status, 0, info.errorOutput)
        XCTAssertTrue(info.output.contains("    onDelete: guarded deny; owned cascade\n"), info.output)
        XCTAssertTrue(info.output.contains("    onDelete: pin deny; target cascade\n"), info.output)
        XCTAssertTrue(info.output.contains("    onDelete: contents cascade\n"), info.output)
        XCTAssertTrue(info.output.contains("    onDelete: itemsCascade cascade; itemsDeny deny; memberOfCascade "
            + "cascade; membersCascade cascade; membersDeny deny; nextCascade cascade; nextDeny deny; slotOfDeny "
            + "deny; slotsCascade cascade; slotsDeny deny; spare cascade\n"), info.output)
    }
}
