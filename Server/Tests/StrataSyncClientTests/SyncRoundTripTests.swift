import Foundation
import Strata
import XCTest

@testable import StrataSyncServer

/// Strata databases syncing through a real server (in this process) into PostgreSQL: a round trip of every value
/// kind, notifications on the receiving device, offline edits, the conflict rules, and a refused token.
final class SyncRoundTripTests: XCTestCase {
    func testARoundTripReachesTheOtherDeviceAndItsObservers() async throws {
        try await SyncHarness.run { harness in
            let phone = try await harness.client("phone", queue: DispatchQueue(label: "phone"))
            let laptop = try await harness.client("laptop", queue: DispatchQueue(label: "laptop"))
            let notified = Flag()
            let token = laptop.run { db in
                db.objects(SyncNote.self).observe { change in
                    if case .update(let results, _, let insertions, _) = change, !insertions.isEmpty,
                        results.first?.title == "Groceries"
                    {
                        notified.set()
                    }
                }
            }
            try await Task.sleep(for: .milliseconds(200))
            let due = Date(timeIntervalSince1970: 1_732_623_789)
            let ref = UUID()
            try phone.write { db in
                let topic = SyncTopic(code: 7, name: "Home")
                let note = SyncNote(
                    id: "n1", ownerId: "alice", title: "Groceries", count: 3, rating: 4.5, done: true, due: due,
                    blob: Data([1, 2, 3]), ref: ref, price: Decimal(string: "12.50"))
                note.tags.append(contentsOf: ["milk", "eggs"])
                note.labels.insert(objectsIn: ["red", "blue"])
                note.scores["x"] = 1
                note.topic = topic
                db.add(note)
                db.add(SyncMemo(text: "no key", steps: [1, 2, 3]))
            }
            try await phone.session.waitForUpload()
            XCTAssertEqual(phone.session.progress.pendingUploads, 0)
            // The background session delivers it without being asked.
            let deadline = Date().addingTimeInterval(20)
            while !notified.isSet, Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
            XCTAssertTrue(notified.isSet, "the laptop's observer sees the note")
            try await laptop.session.waitForDownload()
            XCTAssertEqual(laptop.contents(), phone.contents())
            let note = try XCTUnwrap(laptop.run { $0.object(ofType: SyncNote.self, forPrimaryKey: "n1") })
            laptop.run { _ in
                XCTAssertEqual(note.due, due)
                XCTAssertEqual(note.ref, ref)
                XCTAssertEqual(note.price, Decimal(string: "12.50"))
                XCTAssertEqual(note.topic?.name, "Home")
            }
            let rows = try await harness.rows(
                "SELECT id, title, count::text, done::text FROM S.\"SyncNote\" ORDER BY id")
            XCTAssertEqual(rows, [["n1", "Groceries", "3", "true"]])
            let tags = try await harness.rows("SELECT value FROM S.\"SyncNote.tags\" ORDER BY position, element")
            XCTAssertEqual(tags, [["milk"], ["eggs"]])
            let memos = try await harness.rows("SELECT text FROM S.\"SyncMemo\"")
            XCTAssertEqual(memos, [["no key"]])
            laptop.run { _ in token.invalidate() }
        }
    }

    func testOfflineEditsReachEveryoneAfterReconnecting() async throws {
        try await SyncHarness.run { harness in
            let phone = try await harness.client("phone", queue: DispatchQueue(label: "phone"))
            let laptop = try await harness.client("laptop", queue: DispatchQueue(label: "laptop"))
            try phone.write { db in db.add(SyncNote(id: "n1", ownerId: "alice", title: "v1")) }
            try await phone.sync()
            try await laptop.sync()
            phone.session.pause()
            XCTAssertEqual(phone.session.state, .paused)
            try phone.write { db in
                for index in 2...5 { db.add(SyncNote(id: "n\(index)", ownerId: "alice", title: "offline \(index)")) }
                db.object(ofType: SyncNote.self, forPrimaryKey: "n1")?.count = 10
            }
            try laptop.write { db in db.object(ofType: SyncNote.self, forPrimaryKey: "n1")?.title = "laptop" }
            try await laptop.sync()
            do {
                try await phone.session.waitForUpload()
                XCTFail("a paused session does not upload")
            } catch let error as Strata.SyncError {
                XCTAssertNil(error.status)
            }
            XCTAssertEqual(phone.session.progress.pendingUploads, 5)
            phone.session.resume()
            try await phone.sync()
            try await laptop.sync()
            XCTAssertEqual(laptop.contents(), phone.contents())
            XCTAssertTrue(phone.contents().contains("note n1 owner=alice title=laptop count=10"), phone.contents())
            let noteCount = try await harness.rows("SELECT count(*)::text FROM S.\"SyncNote\"")
            XCTAssertEqual(noteCount, [["5"]])
        }
    }

    func testConflictsResolveTheSameWayEverywhere() async throws {
        try await SyncHarness.run { harness in
            let phone = try await harness.client("phone", queue: DispatchQueue(label: "phone"))
            let laptop = try await harness.client("laptop", queue: DispatchQueue(label: "laptop"))
            try phone.write { db in
                let note = SyncNote(id: "n1", ownerId: "alice", title: "start")
                note.tags.append(contentsOf: ["a", "z"])
                db.add(note)
                db.add(SyncNote(id: "n2", ownerId: "alice", title: "doomed"))
            }
            try await phone.sync()
            try await laptop.sync()
            phone.session.pause()
            laptop.session.pause()
            // Last writer wins per property; both insert between the same two elements; the phone deletes n2
            // while the laptop (later) edits it.
            try phone.write { db in
                let note = db.object(ofType: SyncNote.self, forPrimaryKey: "n1")!
                note.title = "phone"
                note.count = 1
                note.tags.insert("phone", at: 1)
                db.delete(db.object(ofType: SyncNote.self, forPrimaryKey: "n2")!)
            }
            try await Task.sleep(for: .milliseconds(5))
            try laptop.write { db in
                let note = db.object(ofType: SyncNote.self, forPrimaryKey: "n1")!
                note.title = "laptop"
                note.tags.insert("laptop", at: 1)
                db.object(ofType: SyncNote.self, forPrimaryKey: "n2")!.title = "edited after the delete"
            }
            laptop.session.resume()
            phone.session.resume()
            try await laptop.sync()
            try await phone.sync()
            try await laptop.sync()
            XCTAssertEqual(laptop.contents(), phone.contents())
            let tags = phone.run { db in Array(db.object(ofType: SyncNote.self, forPrimaryKey: "n1")!.tags) }
            XCTAssertEqual(tags.count, 4)
            XCTAssertEqual(tags.first, "a")
            XCTAssertEqual(tags.last, "z")
            XCTAssertEqual(Set(tags[1...2]), ["phone", "laptop"])
            XCTAssertTrue(phone.contents().contains("title=laptop count=1"), phone.contents())
            XCTAssertNil(phone.run { $0.object(ofType: SyncNote.self, forPrimaryKey: "n2") })
            let serverTags = try await harness.rows(
                "SELECT value FROM S.\"SyncNote.tags\" WHERE owner = 'n1' ORDER BY position, element")
            XCTAssertEqual(serverTags.map { $0[0] ?? "" }, tags)
            let notes = try await harness.rows("SELECT id, title FROM S.\"SyncNote\"")
            XCTAssertEqual(notes, [["n1", "laptop"]])
        }
    }

    func testARefusedTokenStopsTheSessionUntilANewOne() async throws {
        try await SyncHarness.run { harness in
            let forged = try await SyncHarness.token(user: "alice", key: Array("another key, 32 bytes or more!!!!".utf8))
            let queue = DispatchQueue(label: "forged")
            let configuration = harness.clientConfiguration("forged", token: forged)
            let database = try queue.sync { try Database(configuration: configuration, queue: queue) }
            let client = SyncClient(name: "forged", database: database, queue: queue)
            try client.write { db in db.add(SyncNote(id: "n1", ownerId: "alice", title: "t")) }
            do {
                try await client.session.waitForUpload()
                XCTFail("a forged token is refused")
            } catch let error as Strata.SyncError {
                XCTAssertEqual(error.status, 401)
                XCTAssertTrue(error.isTokenRefused)
            }
            XCTAssertEqual(client.session.state, .needsToken)
            XCTAssertEqual(client.session.lastError?.status, 401)
            XCTAssertEqual(client.session.progress.pendingUploads, 1, "nothing is lost")
            client.session.updateToken(try await SyncHarness.token(user: "alice"))
            try await client.session.waitForUpload()
            XCTAssertEqual(client.session.state, .active)
            XCTAssertNil(client.session.lastError)
            let notes = try await harness.rows("SELECT id FROM S.\"SyncNote\"")
            XCTAssertEqual(notes, [["n1"]])
            client.session.pause()
        }
    }
}

/// A flag one thread sets and another reads.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}
