import PostgresNIO
import Synchronization
import XCTest

@testable import StrataSyncServer

/// Group commit (`UploadGroups`, `UploadTransaction`): the uploads waiting at one moment are applied in one
/// transaction, each answered with its own outcome; a refused upload keeps nothing and takes no other down.
final class UploadGroupTests: XCTestCase {
    /// One group: a new upload, one that breaks a rule (after a change that alone would pass), the retry of an upload
    /// applied before, and one that changes the object the first creates. Each gets its own answer, and PostgreSQL
    /// holds exactly the applied changes, once, from one commit.
    func testEachUploadOfAGroupGetsItsOwnAnswerAndOnlyTheAppliedOnesAreKept() async throws {
        try await TestPostgres.withDatabase { client, schema in
            let harness = try await StoreHarness.make(client, schema: schema)
            let earlier = StoreHarness.createNote("n2", seq: 1, hlc: Fixtures.hlc(100, "a2"))
            try await harness.upload([earlier], client: "a2", user: "alice")
            let uploads = try [
                Self.upload(
                    [StoreHarness.createNote("n1", seq: 1, hlc: Fixtures.hlc(200, "a1"))], client: "a1", user: "alice",
                    harness),
                Self.upload(
                    [
                        StoreHarness.createNote("b", seq: 1, hlc: Fixtures.hlc(210, "b1"), owner: "bob"),
                        Self.setTitle("n2", "bob's", seq: 2, wall: 220, client: "b1"),
                    ], client: "b1", user: "bob", harness),
                Self.upload([earlier], client: "a2", user: "alice", harness),
                Self.upload(
                    [
                        Self.setTitle("n1", "set in the group", seq: 1, wall: 300, client: "a3"),
                        StoreHarness.createNote("n3", seq: 2, hlc: Fixtures.hlc(310, "a3")),
                    ], client: "a3", user: "alice", harness),
            ]
            let results = await harness.store.applyGroup(uploads)
            XCTAssertEqual(results.count, 4)
            let first = try results[0].get()
            XCTAssertEqual([first.accepted, first.duplicates], [1, 0])
            XCTAssertThrowsError(try results[1].get()) { error in
                XCTAssertEqual((error as? SyncError)?.kind, .forbidden, "\(error)")
                XCTAssertTrue("\(error)".contains("change 1"), "the refusal names the change: \(error)")
            }
            let retried = try results[2].get()
            XCTAssertEqual([retried.accepted, retried.duplicates], [0, 1])
            XCTAssertEqual(retried.acknowledged, 1)
            XCTAssertEqual(retried.serverSeq, 0)
            let last = try results[3].get()
            XCTAssertEqual([last.accepted, last.duplicates], [2, 0])
            XCTAssertEqual(last.acknowledged, 2)

            try await harness.expectRows(
                "SELECT id, title FROM S.\"Note\" ORDER BY id",
                [["n1", "set in the group"], ["n2", "t"], ["n3", "t"]], "bob's upload left nothing")
            let log = try await harness.rows(
                "SELECT client_id, client_seq::text, seq::text FROM S.strata_sync_changes ORDER BY seq")
            XCTAssertEqual(log.map { [$0[0], $0[1]] }, [["a2", "1"], ["a1", "1"], ["a3", "1"], ["a3", "2"]])
            XCTAssertEqual(log[1][2], String(first.serverSeq), "the first upload's answer names its change's number")
            XCTAssertEqual(log[3][2], String(last.serverSeq), "the last upload's answer names its last change's")
            try await harness.expectRows(
                "SELECT count(DISTINCT xmin::text)::text FROM S.strata_sync_changes WHERE client_id IN ('a1', 'a3')",
                [["1"]], "the group's changes come from one transaction")
            try await harness.expectRows(
                "SELECT client_id, user_id, last_seq::text FROM S.strata_sync_clients ORDER BY client_id",
                [["a1", "alice", "1"], ["a2", "alice", "1"], ["a3", "alice", "2"]])
            try await harness.expectRows(
                "SELECT count(*)::text FROM pg_catalog.pg_locks WHERE locktype = 'advisory' AND objsubid = 2 "
                    + "AND classid = hashtext('\(schema).strata_sync_objects')::oid", [["0"]], "the locks are released")
        }
    }

    /// Two uploads of one client in one group (a batch sent ahead right behind its predecessor): the second is
    /// decided on what the first applied, and the client's record is written once, with the higher number.
    func testAClientsBatchSentAheadIsAppliedAfterItsPredecessorInTheSameGroup() async throws {
        try await TestPostgres.withDatabase { client, schema in
            let harness = try await StoreHarness.make(client, schema: schema)
            var ahead = try Self.upload(
                [Self.setTitle("n1", "second", seq: 2, wall: 210, client: "a1")], client: "a1", user: "alice", harness)
            ahead.after = 1
            let uploads = try [
                ahead,
                Self.upload(
                    [StoreHarness.createNote("n1", seq: 1, hlc: Fixtures.hlc(200, "a1"))], client: "a1", user: "alice",
                    harness),
                ahead,
            ]
            let results = await harness.store.applyGroup(uploads)
            XCTAssertThrowsError(try results[0].get(), "sent ahead of a predecessor not applied yet") { error in
                XCTAssertEqual((error as? SyncError)?.kind, .predecessorMissing, "\(error)")
            }
            XCTAssertEqual(try results[1].get().acknowledged, 1)
            XCTAssertEqual(try results[2].get().acknowledged, 2)
            XCTAssertEqual(try results[2].get().accepted, 1)
            try await harness.expectRows("SELECT title FROM S.\"Note\"", [["second"]])
            try await harness.expectRows(
                "SELECT client_id, last_seq::text FROM S.strata_sync_clients", [["a1", "2"]])
        }
    }

    /// The uploads that arrive while a group is in flight wait, and form the next group in their order of arrival,
    /// up to the group's number of changes; each waiting upload gets its own result, an error included. A larger
    /// upload than a group takes goes alone, at once.
    func testTheUploadsWaitingWhileAGroupIsInFlightFormTheNextGroups() async throws {
        let schema = try Fixtures.schema([Fixtures.notesV1])
        let groups = UploadGroups(leaders: 1, maxChanges: 3, soloChanges: 1)
        let gate = Gate()
        let calls = Mutex<[[String]]>([])
        let apply: UploadGroups.Apply = { uploads in
            let count = calls.withLock { calls in
                calls.append(uploads.map(\.clientID))
                return calls.count
            }
            if count == 1 { await gate.wait() }
            return uploads.map { upload in
                guard upload.clientID != "C" else { return .failure(SyncError(.forbidden, "C is refused")) }
                return .success(
                    UploadTransaction.Outcome(
                        acknowledged: Int64(upload.changes.count), accepted: upload.changes.count, duplicates: 0,
                        serverSeq: Int64(upload.clientID.unicodeScalars.first?.value ?? 0), audience: nil))
            }
        }
        func upload(_ clientID: String, changes count: Int = 1) throws -> UploadTransaction.Upload {
            let validator = ChangeValidator(schema: schema, clientID: clientID)
            let changes = try (1...count).map { seq in
                try validator.validate(
                    StoreHarness.createNote(
                        "\(clientID)\(seq)", seq: Int64(seq), hlc: Fixtures.hlc(100 + Int64(seq), clientID)),
                    index: seq - 1)
            }
            return UploadTransaction.Upload(changes: changes, clientID: clientID, user: "alice", after: nil)
        }
        try await withThrowingTaskGroup(of: (String, Int64?).self) { tasks in
            let first = try upload("A")
            tasks.addTask { ("A", try await groups.submit(first, apply: apply).serverSeq) }
            try await waitUntil { calls.withLock { $0.count } == 1 }
            for name in ["B", "C", "D", "E"] {
                let next = try upload(name)
                tasks.addTask {
                    do {
                        return (name, try await groups.submit(next, apply: apply).serverSeq)
                    } catch {
                        return (name, nil)
                    }
                }
                try await waitUntil { groups.waitingCount == ["B", "C", "D", "E"].firstIndex(of: name)! + 1 }
            }
            let large = try upload("F", changes: 2)
            tasks.addTask { ("F", try await groups.submit(large, apply: apply).serverSeq) }
            try await waitUntil { calls.withLock { $0.count } == 2 }
            await gate.open()
            var answers: [String: Int64?] = [:]
            for try await (name, seq) in tasks { answers[name] = seq }
            for name in ["A", "B", "D", "E", "F"] {
                XCTAssertEqual(answers[name], Int64(name.unicodeScalars.first!.value), "\(name)'s own answer")
            }
            XCTAssertEqual(answers["C"], .some(nil), "C's own error")
        }
        XCTAssertEqual(calls.withLock { $0 }, [["A"], ["F"], ["B", "C", "D"], ["E"]])
        XCTAssertEqual(groups.waitingCount, 0)
    }

    /// Two servers (each its own pool and its own groups, one group in flight at a time) on one database, with
    /// clients uploading through both at once, every batch twice, changes to the same objects: each change is
    /// applied once, the latest clock wins every property, and the groups wait for each other's locks.
    func testTwoServersGroupingAtOnceApplyEachChangeOnceAndKeepTheRules() async throws {
        try await TestPostgres.withDatabase { clientA, schema in
            let clientB = PostgresClient(
                configuration: try PostgresURL.configuration(TestPostgres.url), backgroundLogger: TestPostgres.logger)
            try await withThrowingTaskGroup(of: Void.self) { running in
                running.addTask { await clientB.run() }
                defer { running.cancelAll() }
                let seed = try await StoreHarness.make(clientA, schema: schema)
                let notes = ["n1", "n2", "n3"]
                try await seed.upload(
                    notes.enumerated().map {
                        StoreHarness.createNote($1, seq: Int64($0 + 1), hlc: Fixtures.hlc(100, "seed"))
                    }, client: "seed", user: "alice")
                var stores: [SyncStore] = []
                for client in [clientA, clientB] {
                    let store = SyncStore(
                        schema: seed.store.schema, rules: seed.store.rules, client: client, databaseSchema: schema,
                        logger: TestPostgres.logger, uploadGroupsInFlight: 1)
                    try await store.migrate()
                    stores.append(store)
                }
                let devices = (0..<8).map { "d\($0)" }
                let rounds = 10
                try await withThrowingTaskGroup(of: Void.self) { uploads in
                    for (index, device) in devices.enumerated() {
                        let store = stores[index % 2]
                        uploads.addTask {
                            for round in 1...rounds {
                                // Each device's clock is later in every round; device order breaks no tie.
                                let wall = Int64(1_000 + round * 10 + index)
                                var changes = notes.map { note in
                                    Self.setTitle(note, "\(device) \(round)", seq: 0, wall: wall, client: device)
                                }
                                changes.append(
                                    SyncChange(
                                        seq: 0, hlc: Fixtures.hlc(wall, device), model: "Note", object: .string("n1"),
                                        op: .listInsert, property: "tags", value: .string("\(device) \(round)"),
                                        element: "\(device)-\(round)", position: String(format: "%04d", wall)))
                                for offset in changes.indices {
                                    changes[offset].seq = Int64((round - 1) * changes.count + offset + 1)
                                }
                                // Refused by the rules: bob may not write alice's notes; nothing of it is kept.
                                let refused = UploadRequest(
                                    clientId: "bob-\(device)",
                                    changes: [
                                        Self.setTitle(
                                            "n2", "bob", seq: Int64(round), wall: 99_999, client: "bob-\(device)")
                                    ])
                                async let bob: UploadResponse = store.upload(refused, user: "bob")
                                for _ in 0..<2 {
                                    do {
                                        let answer = try await store.upload(
                                            UploadRequest(clientId: device, changes: changes), user: "alice")
                                        XCTAssertEqual(answer.acknowledged, Int64(round * changes.count))
                                    } catch {
                                        XCTFail("\(device), round \(round): \(String(reflecting: error))")
                                        throw error
                                    }
                                }
                                do {
                                    _ = try await bob
                                    XCTFail("bob wrote alice's note")
                                } catch let error as SyncError {
                                    XCTAssertEqual(error.kind, .forbidden)
                                }
                            }
                        }
                    }
                    try await uploads.waitForAll()
                }
                let last = devices.count - 1
                try await seed.expectRows(
                    "SELECT id, title FROM S.\"Note\" ORDER BY id",
                    notes.map { [$0, "d\(last) \(rounds)"] }, "the latest clock wins each title")
                let perDevice = rounds * (notes.count + 1)
                try await seed.expectRows(
                    "SELECT count(*)::text, count(DISTINCT (client_id, client_seq))::text FROM S.strata_sync_changes "
                        + "WHERE client_id LIKE 'd%'",
                    [[String(devices.count * perDevice), String(devices.count * perDevice)]], "each change once")
                try await seed.expectRows(
                    "SELECT count(*)::text FROM S.strata_sync_changes WHERE client_id LIKE 'bob%'", [["0"]])
                try await seed.expectRows(
                    "SELECT count(*)::text FROM S.\"Note.tags\"", [[String(devices.count * rounds)]],
                    "every list insert once")
                try await seed.expectRows(
                    "SELECT count(*)::text FROM S.strata_sync_clients WHERE client_id LIKE 'd%' AND last_seq = "
                        + "\(perDevice)", [[String(devices.count)]])
                let grouped = try await seed.rows(
                    "SELECT count(*)::text FROM (SELECT xmin::text AS x FROM S.strata_sync_changes GROUP BY xmin::text "
                        + "HAVING count(DISTINCT client_id) > 1) AS g")
                XCTAssertNotEqual(grouped, [["0"]], "no group of several uploads formed")
            }
        }
    }

    /// A validated upload of `changes` by `clientID` for `user`.
    private static func upload(_ changes: [SyncChange], client clientID: String, user: String, _ harness: StoreHarness)
        throws -> UploadTransaction.Upload
    {
        let validator = ChangeValidator(schema: harness.store.schema, clientID: clientID)
        return UploadTransaction.Upload(
            changes: try changes.enumerated().map { try validator.validate($1, index: $0) }, clientID: clientID,
            user: user, after: nil)
    }

    private static func setTitle(_ note: String, _ title: String, seq: Int64, wall: Int64, client: String)
        -> SyncChange
    {
        SyncChange(
            seq: seq, hlc: Fixtures.hlc(wall, client), model: "Note", object: .string(note), op: .set,
            property: "title", value: .string(title))
    }

    /// Waits (up to 10 s) until `condition` holds.
    private func waitUntil(_ condition: @Sendable () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while !condition() {
            guard ContinuousClock.now < deadline else { throw SyncError(.unavailable, "timed out waiting") }
            try await Task.sleep(for: .milliseconds(2))
        }
    }
}

/// Holds the first group's work until the test lets it go.
private actor Gate {
    private var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func wait() async {
        guard !isOpen else { return }
        await withCheckedContinuation { waiters.append($0) }
    }

    func open() {
        isOpen = true
        for waiter in waiters { waiter.resume() }
        waiters = []
    }
}
