import XCTest

@testable import StrataSyncServer

/// An upload's locks (`LockedLoad`, `UploadTransaction`): session-level locks taken before the read, held until the
/// writes are committed, and released whatever happens, so that racing uploads of one object decide on what the
/// other committed and no lock goes back to the pool.
final class UploadLockTests: XCTestCase {
    private static func setTitle(_ title: String, seq: Int64, wall: Int64, client: String) -> SyncChange {
        SyncChange(
            seq: seq, hlc: Fixtures.hlc(wall, client), model: "Note", object: .string("n1"), op: .set,
            property: "title", value: .string(title))
    }

    /// Asserts that no upload lock of the test's schema is held (`MetaTables.objectLockSpace` is their first key).
    private func expectNoLocks(
        _ harness: StoreHarness, _ message: String = "", file: StaticString = #filePath, line: UInt = #line
    ) async throws {
        try await harness.expectRows(
            """
            SELECT count(*)::text FROM pg_catalog.pg_locks AS l
            WHERE l.locktype = 'advisory' AND l.objsubid = 2
                AND l.classid = hashtext('\(harness.schema).strata_sync_objects')::oid
            """, [["0"]], message, file: file, line: line)
    }

    /// Two clients set one property at once, round after round; the later clock always wins. Whichever upload waits
    /// for the other's locks must read what the other committed: deciding on a read taken before the wait would let
    /// the earlier clock overwrite the later one (the stored reading would look older than it is).
    func testRacingUploadsOfOneObjectDecideOnWhatTheOtherCommitted() async throws {
        try await TestPostgres.withDatabase { client, schema in
            let harness = try await StoreHarness.make(client, schema: schema)
            try await harness.upload(
                [StoreHarness.createNote("n1", seq: 1, hlc: Fixtures.hlc(100, "c0"))], client: "c0", user: "alice")
            let store = harness.store
            for round in Int64(1)...40 {
                let early = Self.setTitle("early \(round)", seq: round, wall: 1000 + 10 * round, client: "c1")
                let late = Self.setTitle("late \(round)", seq: round, wall: 1000 + 10 * round + 5, client: "c2")
                try await withThrowingTaskGroup(of: UploadResponse.self) { group in
                    // The earlier clock is sent first in odd rounds and second in even ones.
                    let order = round % 2 == 1 ? [("c1", early), ("c2", late)] : [("c2", late), ("c1", early)]
                    for (clientID, change) in order {
                        group.addTask {
                            try await store.upload(UploadRequest(clientId: clientID, changes: [change]), user: "alice")
                        }
                    }
                    for try await answer in group { XCTAssertEqual(answer.accepted, 1) }
                }
                try await harness.expectRows(
                    "SELECT title FROM S.\"Note\"", [["late \(round)"]], "round \(round): the earlier clock won")
                try await harness.expectRows(
                    "SELECT hlc FROM S.strata_sync_versions WHERE field = 'title'",
                    [[Fixtures.hlc(1000 + 10 * round + 5, "c2")]], "round \(round)")
            }
            try await harness.expectRows(
                "SELECT count(*)::text FROM S.strata_sync_changes", [["81"]], "each change logged once")
            try await harness.expectRows(
                "SELECT count(DISTINCT seq)::text FROM S.strata_sync_changes", [["81"]])
            try await expectNoLocks(harness)
        }
    }

    /// The answer carries the log's number of the batch's last change, read after the commit.
    func testTheAnswerNamesTheLastChangesSequenceNumber() async throws {
        try await TestPostgres.withDatabase { client, schema in
            let harness = try await StoreHarness.make(client, schema: schema)
            let first = try await harness.upload(
                (1...3).map { StoreHarness.createNote("n\($0)", seq: $0, hlc: Fixtures.hlc(100 + $0, "c1")) },
                client: "c1", user: "alice")
            let second = try await harness.upload(
                [StoreHarness.createNote("m1", seq: 1, hlc: Fixtures.hlc(200, "c2"))], client: "c2", user: "alice")
            let retried = try await harness.upload(
                [StoreHarness.createNote("m1", seq: 1, hlc: Fixtures.hlc(200, "c2"))], client: "c2", user: "alice")
            let logged = try await harness.rows(
                "SELECT client_id || ':' || client_seq::text, seq::text FROM S.strata_sync_changes ORDER BY seq")
            XCTAssertEqual(logged.map { $0[0] }, ["c1:1", "c1:2", "c1:3", "c2:1"])
            XCTAssertEqual(logged[2][1], String(first.serverSeq))
            XCTAssertEqual(logged[3][1], String(second.serverSeq))
            XCTAssertEqual(retried.accepted, 0)
            XCTAssertEqual(retried.serverSeq, 0)
            try await expectNoLocks(harness)
        }
    }

    /// Refused uploads (by the rules, by a missing predecessor, by the client's owner) release their locks: the same
    /// object is then written at once, through every connection of the pool.
    func testRefusedAndFailedUploadsReleaseTheirLocks() async throws {
        try await TestPostgres.withDatabase { client, schema in
            let harness = try await StoreHarness.make(client, schema: schema)
            var store = harness.store
            store.predecessorWait = .milliseconds(30)
            try await harness.upload(
                [StoreHarness.createNote("n1", seq: 1, hlc: Fixtures.hlc(100, "a1"))], client: "a1", user: "alice")
            for attempt in Int64(1)...6 {
                // Bob may not write Alice's note.
                do {
                    _ = try await store.upload(
                        UploadRequest(
                            clientId: "b1", changes: [Self.setTitle("x", seq: attempt, wall: 200, client: "b1")]),
                        user: "bob")
                    XCTFail("bob wrote alice's note")
                } catch let error as SyncError {
                    XCTAssertEqual(error.kind, .forbidden)
                }
                // A batch sent ahead of changes the server never got.
                do {
                    _ = try await store.upload(
                        UploadRequest(
                            clientId: "a2", changes: [Self.setTitle("y", seq: 50 + attempt, wall: 300, client: "a2")],
                            after: 49 + attempt),
                        user: "alice")
                    XCTFail("a batch was applied before its predecessor")
                } catch let error as SyncError {
                    XCTAssertEqual(error.kind, .predecessorMissing)
                }
                try await expectNoLocks(harness, "attempt \(attempt)")
            }
            // A refusal after the read: the client id belongs to another user.
            do {
                _ = try await store.upload(
                    UploadRequest(clientId: "a1", changes: [Self.setTitle("z", seq: 2, wall: 400, client: "a1")]),
                    user: "bob")
                XCTFail("bob uploaded as alice's client")
            } catch let error as SyncError {
                XCTAssertEqual(error.kind, .conflict)
            }
            try await expectNoLocks(harness)
            // Every connection of the pool can take the note's and the client's locks again.
            let racing = store
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in Int64(1)...8 {
                    let clientID = "a\(index + 10)"
                    let change = Self.setTitle("t\(index)", seq: 1, wall: 500 + index, client: clientID)
                    group.addTask {
                        _ = try await racing.upload(UploadRequest(clientId: clientID, changes: [change]), user: "alice")
                    }
                }
                try await group.waitForAll()
            }
            try await harness.expectRows("SELECT title FROM S.\"Note\"", [["t8"]])
            try await expectNoLocks(harness)
        }
    }
}
