import Foundation
import StrataStorage
import StrataSyncWire
import StrataTestSupport
import XCTest

@testable import Strata

/// The sync client's outbox without a server (docs/SYNC.md, "The client"): local writes record their changes in
/// the same transaction (a rolled-back write records nothing), changes applied from the server are not echoed
/// into the outbox, and downloaded changes resolve conflicts as the server does. The session is created paused
/// (`startsImmediately = false`), so nothing is sent anywhere.
final class SyncOutboxTests: XCTestCase {
    private var directory: TemporaryDirectory!

    override func setUpWithError() throws { directory = try TemporaryDirectory() }
    override func tearDown() { directory = nil }

    private func open(_ name: String = "a") throws -> Database { try PausedSyncDatabase.open(name, in: directory) }

    private func remote(
        _ seq: Int64, _ op: SyncOperation, _ object: SyncValue, model: String = "SyncNote", wall: Int64,
        client: String = "remote", property: String? = nil, value: SyncValue? = nil, element: String? = nil,
        position: String? = nil
    ) -> ServerChange {
        PausedSyncDatabase.remote(
            seq, op, object, model: model, wall: wall, client: client, property: property, value: value,
            element: element, position: position)
    }

    private func page(_ changes: [ServerChange]) -> DownloadResponse {
        DownloadResponse(changes: changes, last: changes.map(\.serverSeq).max() ?? 0, more: false)
    }

    func testAWriteRecordsItsChangesInOrderInTheSameTransaction() throws {
        let db = try open()
        XCTAssertEqual(db.syncSession?.state, .paused)
        try db.write {
            let note = SyncNote(id: "n1", ownerId: "alice", title: "Groceries", count: 2)
            note.tags.append(contentsOf: ["a", "b"])
            note.labels.insert("red")
            note.scores["x"] = 1
            db.add(note)
        }
        let created = try db.pendingSyncChanges()
        XCTAssertEqual(created.map(\.op), [.create, .listInsert, .listInsert, .setAdd, .mapSet])
        XCTAssertEqual(created.map(\.seq), [1, 2, 3, 4, 5])
        XCTAssertEqual(created.first?.object, .string("n1"))
        guard case .object(let values)? = created.first?.value else { return XCTFail("create carries no values") }
        XCTAssertEqual(values["title"], .string("Groceries"))
        XCTAssertEqual(values["count"], .integer(2))
        XCTAssertNil(values["id"], "the key travels as the object, not as a value")
        let readings = created.map(\.hlc)
        XCTAssertEqual(readings, readings.sorted(), "readings grow with change numbers")
        XCTAssertEqual(Set(readings).count, readings.count)
        let client = try XCTUnwrap(db.syncClientID())
        XCTAssertTrue(readings.allSatisfy { $0.hasSuffix("-" + client) })
        // Positions keep the list's order.
        let positions = created.compactMap(\.position)
        XCTAssertEqual(positions, positions.sorted())

        let note = try XCTUnwrap(db.object(ofType: SyncNote.self, forPrimaryKey: "n1"))
        try db.write {
            note.title = "Shopping"
            note.tags.insert("first", at: 0)
            note.labels.remove("red")
            note.scores.removeObject(for: "x")
        }
        let updated = try db.pendingSyncChanges().dropFirst(5)
        XCTAssertEqual(updated.map(\.op), [.set, .listInsert, .setRemove, .mapRemove])
        XCTAssertEqual(updated.first?.value, .string("Shopping"))
        let inserted = try XCTUnwrap(updated.first { $0.op == .listInsert }?.position)
        XCTAssertTrue(inserted.syncPrecedes(positions[0]), "\(inserted) sorts before \(positions[0])")

        try db.write { db.delete(note) }
        XCTAssertEqual(try db.pendingSyncChanges().last?.op, .delete)
        XCTAssertEqual(try db.pendingSyncChanges().map(\.seq), Array(1...10))
    }

    func testARolledBackWriteRecordsNothing() throws {
        let db = try open()
        try db.write { db.add(SyncNote(id: "n1", ownerId: "alice", title: "kept")) }
        XCTAssertEqual(try db.pendingSyncChanges().count, 1)
        struct Stop: Error {}
        XCTAssertThrowsError(
            try db.write {
                db.add(SyncNote(id: "n2", ownerId: "alice", title: "dropped"))
                throw Stop()
            })
        db.beginWrite()
        db.add(SyncNote(id: "n3", ownerId: "alice", title: "cancelled"))
        db.cancelWrite()
        XCTAssertEqual(try db.pendingSyncChanges().map(\.object), [.string("n1")])
        try db.write { db.add(SyncNote(id: "n4", ownerId: "alice", title: "next")) }
        XCTAssertEqual(try db.pendingSyncChanges().map(\.seq), [1, 2], "a rolled-back write uses no change number")
    }

    func testChangesFromTheServerAreAppliedAndNotEchoed() throws {
        let db = try open()
        let topic = SyncValue.integer(7)
        try db.applyDownloadedPage(
            page([
                remote(1, .create, topic, model: "SyncTopic", wall: 1000, value: .object(["name": .string("Home")])),
                remote(
                    2, .create, .string("n1"), wall: 1001,
                    value: .object(["ownerId": .string("alice"), "title": .string("Remote"), "count": .integer(3)])),
                remote(3, .set, .string("n1"), wall: 1002, property: "topic", value: topic),
                remote(4, .listInsert, .string("n1"), wall: 1003, property: "tags", value: .string("b"),
                    element: "e2", position: "m"),
                remote(5, .listInsert, .string("n1"), wall: 1004, property: "tags", value: .string("a"),
                    element: "e1", position: "c"),
                remote(6, .setAdd, .string("n1"), wall: 1005, property: "labels", value: .string("red")),
                remote(7, .create, .string("7b4f61a2-0d55-4a5b-9c1e-3f8a2b1c0d9e"), model: "SyncMemo", wall: 1006,
                    value: .object(["text": .string("memo")])),
            ]))
        XCTAssertEqual(try db.pendingSyncChanges(), [], "applied changes are not echoed")
        let note = try XCTUnwrap(db.object(ofType: SyncNote.self, forPrimaryKey: "n1"))
        XCTAssertEqual(note.title, "Remote")
        XCTAssertEqual(note.count, 3)
        XCTAssertEqual(note.topic?.name, "Home")
        XCTAssertEqual(Array(note.tags), ["a", "b"], "elements sort by position")
        XCTAssertEqual(Array(note.labels), ["red"])
        XCTAssertEqual(db.objects(SyncMemo.self).first?.text, "memo")

        // A local change after it is recorded, with a reading later than every downloaded one.
        try db.write { note.title = "Local" }
        let local = try XCTUnwrap(try db.pendingSyncChanges().first)
        XCTAssertEqual(local.op, .set)
        XCTAssertTrue(HybridClock.reading(wall: 1006, counter: 0, clientID: "remote").syncPrecedes(local.hlc))

        // The same page again changes nothing (its entries are at or below the cursor).
        try db.applyDownloadedPage(
            page([remote(2, .set, .string("n1"), wall: 9999, property: "title", value: .string("Again"))]))
        XCTAssertEqual(note.title, "Local")
    }

    func testServerChangesFollowTheConflictRules() throws {
        let db = try open()
        try db.applyDownloadedPage(
            page([
                remote(1, .create, .string("n1"), wall: 1000, value: .object(["ownerId": .string("a"), "title": .string("v1")])),
                remote(2, .set, .string("n1"), wall: 3000, property: "title", value: .string("late")),
                // Older than the last write: loses.
                remote(3, .set, .string("n1"), wall: 2000, property: "title", value: .string("early")),
                // Another property concurrently: both stay.
                remote(4, .set, .string("n1"), wall: 2500, property: "count", value: .integer(5)),
            ]))
        let note = try XCTUnwrap(db.object(ofType: SyncNote.self, forPrimaryKey: "n1"))
        XCTAssertEqual(note.title, "late")
        XCTAssertEqual(note.count, 5)
        // Equal wall and counter: the higher client id wins.
        try db.applyDownloadedPage(
            page([
                remote(5, .set, .string("n1"), wall: 4000, client: "b", property: "title", value: .string("from b")),
                remote(6, .set, .string("n1"), wall: 4000, client: "a", property: "title", value: .string("from a")),
            ]))
        XCTAssertEqual(note.title, "from b")
        // Delete wins over a later update; only a later create starts a new, empty life.
        try db.applyDownloadedPage(
            page([
                remote(7, .delete, .string("n1"), wall: 5000),
                remote(8, .set, .string("n1"), wall: 9000, property: "title", value: .string("zombie")),
                remote(9, .create, .string("n1"), wall: 4500, value: .object(["title": .string("older life")])),
            ]))
        XCTAssertNil(db.object(ofType: SyncNote.self, forPrimaryKey: "n1"))
        try db.applyDownloadedPage(
            page([remote(10, .create, .string("n1"), wall: 6000, value: .object(["title": .string("new life")]))]))
        let reborn = try XCTUnwrap(db.object(ofType: SyncNote.self, forPrimaryKey: "n1"))
        XCTAssertEqual(reborn.title, "new life")
        XCTAssertEqual(reborn.count, 0, "nothing of the old life comes back")
        XCTAssertEqual(try db.pendingSyncChanges(), [])
    }

    func testALocalDeleteWinsOverALaterRemoteUpdate() throws {
        let db = try open()
        try db.applyDownloadedPage(
            page([remote(1, .create, .string("n1"), wall: 1000, value: .object(["title": .string("v1")]))]))
        let note = try XCTUnwrap(db.object(ofType: SyncNote.self, forPrimaryKey: "n1"))
        try db.write { db.delete(note) }
        XCTAssertEqual(try db.pendingSyncChanges().map(\.op), [.delete])
        let far = Int64(Date().timeIntervalSince1970 * 1000) + 100_000
        try db.applyDownloadedPage(
            page([remote(2, .set, .string("n1"), wall: far, property: "title", value: .string("concurrent"))]))
        XCTAssertNil(db.object(ofType: SyncNote.self, forPrimaryKey: "n1"))
    }

    func testObserversSeeServerChanges() throws {
        let db = try open()
        let queue = DispatchQueue(label: "observer")
        let observed = expectation(description: "notified")
        observed.assertForOverFulfill = false
        var observer: Database?
        let token: NotificationToken = try queue.sync {
            let opened = try Database(configuration: db.configuration, queue: queue)
            observer = opened
            return opened.objects(SyncNote.self).observe { change in
                if case .update(let results, _, let insertions, _) = change, insertions == [0],
                    results.first?.title == "seen"
                {
                    observed.fulfill()
                }
            }
        }
        Thread.sleep(forTimeInterval: 0.2)
        try db.applyDownloadedPage(
            page([remote(1, .create, .string("n1"), wall: 1000, value: .object(["title": .string("seen")]))]))
        wait(for: [observed], timeout: 10)
        queue.sync {
            token.invalidate()
            withExtendedLifetime(observer) {}
        }
    }

    func testPositionIdentifiersFitBetweenAnyTwo() {
        var positions: [String] = []
        var lower: String?
        for _ in 0..<50 {
            let next = PositionIdentifier.between(lower, nil)!
            positions.append(next)
            lower = next
        }
        XCTAssertEqual(positions, positions.sorted())
        for _ in 0..<200 {
            let index = Int.random(in: 0..<(positions.count - 1))
            let middle = PositionIdentifier.between(positions[index], positions[index + 1])!
            XCTAssertTrue(positions[index].syncPrecedes(middle) && middle.syncPrecedes(positions[index + 1]))
            positions.insert(middle, at: index + 1)
        }
        let first = PositionIdentifier.between(nil, positions[0])!
        XCTAssertTrue(first.syncPrecedes(positions[0]))
        XCTAssertNil(PositionIdentifier.between("b", "b"))
    }
}
