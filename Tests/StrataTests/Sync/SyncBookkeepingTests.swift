import Foundation
import StrataStorage
import StrataSyncWire
import StrataTestSupport
import XCTest

@testable import Strata

/// The client's bookkeeping on the device path (docs/SYNC.md, "The client"): a page's own changes leave the outbox
/// in one batch, object states are written back into the rows they were read from (a model without a primary key's
/// new object is found by its sync id within the page that creates it), a new object's empty state is not written
/// (its create in the outbox keeps it known), and the client state stores only the metadata values a write changed.
final class SyncBookkeepingTests: XCTestCase {
    private var directory: TemporaryDirectory!

    override func setUpWithError() throws { directory = try TemporaryDirectory() }
    override func tearDown() { directory = nil }

    private func page(_ changes: [ServerChange]) -> DownloadResponse {
        DownloadResponse(changes: changes, last: changes.map(\.serverSeq).max() ?? 0, more: false)
    }

    /// A local change coming back from the server in the log, at position `serverSeq`.
    private func own(_ change: SyncChange, at serverSeq: Int64, client: String) -> ServerChange {
        ServerChange(serverSeq: serverSeq, clientId: client, change: change)
    }

    func testOwnChangesLeaveTheOutboxInOneBatchAndStatesKeepTheirRows() throws {
        let db = try PausedSyncDatabase.open("a", in: directory)
        try db.write { db.add(SyncNote(id: "n1", ownerId: "alice", title: "one")) }
        try db.write { db.add(SyncNote(id: "n2", ownerId: "alice", title: "two")) }
        try db.write { db.add(SyncMemo(text: "memo")) }
        let recorded = try db.pendingSyncChanges()
        XCTAssertEqual(recorded.map(\.seq), [1, 2, 3])
        let client = try XCTUnwrap(db.syncClientID())
        let memoKey = try XCTUnwrap(recorded[2].object)
        let statesBefore = try stateRowCount(db)

        // The server's log: n1's and the memo's creates come back around another client's change of the memo and a
        // create of n9; a number already gone from the outbox is skipped.
        let remoteSet = PausedSyncDatabase.remote(
            12, .set, memoKey, model: "SyncMemo", wall: Int64(Date().timeIntervalSince1970 * 1000) + 60_000,
            property: "text", value: .string("edited elsewhere"))
        try db.applyDownloadedPage(
            page([
                own(recorded[0], at: 10, client: client),
                own(recorded[2], at: 11, client: client),
                remoteSet,
                PausedSyncDatabase.remote(
                    13, .create, .string("n9"), model: "SyncNote", wall: 2000,
                    value: .object(["title": .string("nine")])),
                own(
                    SyncChange(seq: 99, hlc: recorded[1].hlc, model: "SyncNote", object: .string("n1"), op: .set,
                        property: "count", value: .integer(4)),
                    at: 14, client: client),
            ]))
        XCTAssertEqual(try db.pendingSyncChanges().map(\.seq), [2], "n2's create has not come back yet")
        XCTAssertEqual(db.objects(SyncMemo.self).first?.text, "edited elsewhere")
        XCTAssertEqual(db.objects(SyncMemo.self).count, 1)
        XCTAssertEqual(db.object(ofType: SyncNote.self, forPrimaryKey: "n1")?.count, 4)
        XCTAssertEqual(db.object(ofType: SyncNote.self, forPrimaryKey: "n9")?.title, "nine")
        // One state row per object: recording wrote the memo's only (it is found by its sync id; a new note's empty
        // state is known by its create in the outbox), the page wrote the memo's into that row, n1's and n9's anew.
        XCTAssertEqual(statesBefore, 1)
        XCTAssertEqual(try stateRowCount(db), statesBefore + 2)
        let catalog = try db.catalog()
        let tables = try XCTUnwrap(try SyncTables.existing(in: catalog))
        let n1 = try XCTUnwrap(try tables.state(model: "SyncNote", key: .string("n1")))
        XCTAssertEqual(n1.created, recorded[0].hlc, "the confirmed create is the own one")
        let memo = try XCTUnwrap(try tables.state(model: "SyncMemo", key: memoKey))
        XCTAssertEqual(memo.fields["text"]?.value, .string("edited elsewhere"))
        XCTAssertNotNil(memo.local, "a model without a primary key keeps its local key")

        // A later local edit of the memo is recorded against the state the page wrote.
        let local = try XCTUnwrap(db.objects(SyncMemo.self).first)
        try db.write { local.text = "mine again" }
        XCTAssertEqual(try db.pendingSyncChanges().map(\.op), [.create, .set])
        XCTAssertEqual(try db.pendingSyncChanges().last?.object, memoKey)
    }

    func testTheClientStateStoresOnlyWhatChanged() throws {
        let db = try PausedSyncDatabase.open("a", in: directory)
        try db.write { db.add(SyncNote(id: "n1", ownerId: "alice", title: "one")) }
        db.beginWrite()
        defer { db.cancelWrite() }
        let catalog = try XCTUnwrap(db.writeCatalog)
        let loaded = try XCTUnwrap(try SyncState.load(from: catalog))
        // A value the state leaves alone is not written again (this one was changed behind its back).
        try catalog.setMetadata(Array("77".utf8), forKey: SyncState.cursorKey)
        var state = loaded
        state.nextSeq += 5
        _ = state.clock.tick()
        try state.store(in: catalog, over: loaded)
        var expected = state
        expected.cursor = 77
        XCTAssertEqual(try SyncState.load(from: catalog), expected)

        // Unchanged: nothing written.
        try catalog.setMetadata(Array("88".utf8), forKey: SyncState.nextSeqKey)
        try state.store(in: catalog, over: state)
        XCTAssertEqual(try SyncState.load(from: catalog)?.nextSeq, 88)

        // Another client id: everything is written.
        var other = state
        other.clientID = "other"
        try other.store(in: catalog, over: state)
        XCTAssertEqual(try SyncState.load(from: catalog)?.clientID, "other")
        XCTAssertEqual(try SyncState.load(from: catalog)?.nextSeq, state.nextSeq)
        XCTAssertEqual(try SyncState.load(from: catalog)?.cursor, state.cursor)
    }

    func testACreateWritesNoStateRowAndItsCreateInTheOutboxKeepsTheObjectKnown() throws {
        let db = try PausedSyncDatabase.open("a", in: directory)
        try db.write { db.add(SyncNote(id: "n1", ownerId: "alice", title: "one")) }
        try db.write { db.add(SyncNote(id: "n2", ownerId: "alice", title: "two")) }
        XCTAssertEqual(try stateRowCount(db), 0, "a new object's empty state is not written")

        // Updated and deleted before their creates come back: recorded as a set and a delete, not sent whole again.
        let n1 = try XCTUnwrap(db.object(ofType: SyncNote.self, forPrimaryKey: "n1"))
        try db.write { n1.title = "one, edited" }
        let n2 = try XCTUnwrap(db.object(ofType: SyncNote.self, forPrimaryKey: "n2"))
        try db.write { db.delete(n2) }
        XCTAssertEqual(try db.pendingSyncChanges().map(\.op), [.create, .create, .set, .delete])
        // Another database of the file (an outbox cache of its own) finds the create too.
        let other = try PausedSyncDatabase.open("a", in: directory)
        let n1There = try XCTUnwrap(other.object(ofType: SyncNote.self, forPrimaryKey: "n1"))
        try other.write { n1There.count = 7 }
        _ = db.refresh()
        let recorded = try db.pendingSyncChanges()
        XCTAssertEqual(recorded.map(\.op), [.create, .create, .set, .delete, .set])
        XCTAssertEqual(try stateRowCount(db), 0)

        // n1's create comes back: the page writes its row, with the changes still waiting on top.
        let client = try XCTUnwrap(db.syncClientID())
        try db.applyDownloadedPage(page([own(recorded[0], at: 1, client: client)]))
        XCTAssertEqual(try stateRowCount(db), 1)
        _ = db.refresh()
        let n1Now = try XCTUnwrap(db.object(ofType: SyncNote.self, forPrimaryKey: "n1"))
        XCTAssertEqual(n1Now.title, "one, edited")
        XCTAssertEqual(n1Now.count, 7)
        try db.write { db.delete(n1Now) }
        XCTAssertEqual(try db.pendingSyncChanges().last?.op, .delete)
        XCTAssertEqual(try db.pendingSyncChanges().last?.object, .string("n1"))
    }

    func testAnObjectMadeBeforeSyncIsSentWholeAndAnOlderVersionsStateRowStillCounts() throws {
        let configuration = Configuration(schema: Syncbook.self)
            .scratch(at: directory.url.appendingPathComponent("a.strata"))
        do {
            let plain = try Database(configuration: configuration)
            try plain.write {
                plain.add(SyncNote(id: "old", ownerId: "alice", title: "before sync"))
                plain.add(SyncNote(id: "older", ownerId: "alice", title: "before sync too"))
            }
        }
        let db = try PausedSyncDatabase.open("a", in: directory)
        try db.write { db.add(SyncNote(id: "new", ownerId: "alice", title: "after")) }
        // "older" got an empty state row, as versions that wrote one for every created object left it.
        db.beginWrite()
        let tables = try SyncTables.open(in: try XCTUnwrap(db.writeCatalog))
        try tables.setState(ObjectSyncState(), model: "SyncNote", key: .string("older"))
        try db.commitWrite()

        let old = try XCTUnwrap(db.object(ofType: SyncNote.self, forPrimaryKey: "old"))
        let older = try XCTUnwrap(db.object(ofType: SyncNote.self, forPrimaryKey: "older"))
        try db.write {
            old.count = 1
            older.count = 2
        }
        let changes = try db.pendingSyncChanges().dropFirst()
        XCTAssertEqual(changes.count, 2)
        let oldChange = try XCTUnwrap(changes.first { $0.object == .string("old") })
        XCTAssertEqual(oldChange.op, .create, "unknown to the server: sent whole")
        guard case .object(let values)? = oldChange.value else { return XCTFail("the create carries no values") }
        XCTAssertEqual(values["title"], .string("before sync"))
        XCTAssertEqual(values["count"], .integer(1))
        let olderChange = try XCTUnwrap(changes.first { $0.object == .string("older") })
        XCTAssertEqual(olderChange.op, .set, "its state row says the server knows it")
        XCTAssertEqual(olderChange.value, .integer(2))
    }

    private func stateRowCount(_ db: Database) throws -> Int {
        let catalog = try db.catalog()
        return try XCTUnwrap(catalog.table(named: SyncTables.objectsName)).count()
    }
}
