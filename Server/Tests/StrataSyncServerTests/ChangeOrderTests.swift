import Synchronization
import XCTest

@testable import StrataSyncServer

/// The change log's order under concurrent uploads (docs/SYNC.md, "Order of the change log"): numbers drawn at
/// commit become visible in order, so a download that went past a number never misses a change committed later
/// with a smaller one.
final class ChangeOrderTests: XCTestCase {
    /// Eight clients upload 30 batches each, all at once (some batches wait for each other on a shared note's lock),
    /// while four readers download in small pages from their cursors as fast as they can. Every reader must see
    /// every change of the log exactly once, in increasing order, and every upload's `serverSeq` must be the number
    /// of its last change.
    func testConcurrentUploadsNeverLetADownloadSkipAChange() async throws {
        try await TestPostgres.withDatabase { client, schema in
            let harness = try await StoreHarness.make(client, schema: schema)
            try await harness.upload(
                [StoreHarness.createNote("shared", seq: 1, hlc: Fixtures.hlc(1000, "setup"))], client: "setup",
                user: "alice")
            let uploading = Flag()
            let answers = Answers()
            let seen = try await withThrowingTaskGroup(of: [Int64]?.self) { group in
                for reader in 0..<4 {
                    group.addTask {
                        var cursor: Int64 = 0
                        var seen: [Int64] = []
                        while true {
                            // Read whether uploads are still running before the download, so that the last page
                            // read after they ended holds everything.
                            let running = uploading.isSet
                            let page = try await harness.store.download(
                                after: cursor, user: "alice", limit: 1 + reader * 2)
                            seen += page.changes.map(\.serverSeq)
                            cursor = page.last
                            if !running, !page.more { return seen }
                        }
                    }
                }
                group.addTask {
                    try await withThrowingTaskGroup(of: Void.self) { uploads in
                        for index in 0..<8 {
                            uploads.addTask {
                                let device = "c\(index)"
                                var seq: Int64 = 0
                                for batch in 0..<30 {
                                    var changes: [SyncChange] = []
                                    for item in 0...(batch % 3) {
                                        seq += 1
                                        let hlc = Fixtures.hlc(2000 + seq, device)
                                        if batch % 4 == 0, item == 0 {
                                            changes.append(
                                                SyncChange(
                                                    seq: seq, hlc: hlc, model: "Note", object: .string("shared"),
                                                    op: .listInsert, property: "tags", value: .string(device),
                                                    element: "\(device)-\(seq)", position: "m"))
                                        } else {
                                            changes.append(
                                                StoreHarness.createNote("\(device)-\(seq)", seq: seq, hlc: hlc))
                                        }
                                    }
                                    let answer = try await harness.upload(changes, client: device, user: "alice")
                                    XCTAssertEqual(answer.accepted, changes.count)
                                    answers.add(client: device, change: seq, serverSeq: answer.serverSeq)
                                }
                            }
                        }
                        try await uploads.waitForAll()
                    }
                    uploading.clear()
                    return nil
                }
                var seen: [[Int64]] = []
                for try await result in group {
                    if let result { seen.append(result) }
                }
                return seen
            }
            let log = try await harness.rows("SELECT seq::text AS number FROM S.strata_sync_changes ORDER BY seq")
                .map { Int64($0[0] ?? "") ?? -1 }
            XCTAssertEqual(log.count, 481, "the setup change and 8 clients × 60 changes (30 batches of 1 to 3)")
            XCTAssertEqual(seen.count, 4)
            for (reader, sequence) in seen.enumerated() {
                XCTAssertEqual(sequence.count, log.count, "reader \(reader) missed or repeated a change")
                XCTAssertEqual(sequence, sequence.sorted(), "reader \(reader) read out of order")
                XCTAssertEqual(
                    Set(log).subtracting(sequence).sorted(), [], "reader \(reader) missed these sequence numbers")
            }
            let numbers = try await harness.rows(
                "SELECT client_id, client_seq::text, seq::text FROM S.strata_sync_changes WHERE client_id <> 'setup'")
            var byChange: [String: Int64] = [:]
            for row in numbers { byChange["\(row[0] ?? "") \(row[1] ?? "")"] = Int64(row[2] ?? "") }
            for answer in answers.all {
                XCTAssertEqual(answer.serverSeq, byChange["\(answer.client) \(answer.change)"], "\(answer)")
            }
            try await harness.expectRows("SELECT count(*)::text FROM S.strata_sync_appends", [["0"]])
        }
    }

    /// An appender that registered and drew its number but has not committed (what `ChangeNumbering`'s trigger does,
    /// stopped before the commit) holds every download below its number, even after a later number committed; once
    /// it commits, the next download returns both.
    func testADownloadStopsBelowAnAppenderStillCommitting() async throws {
        try await TestPostgres.withDatabase { client, schema in
            let harness = try await StoreHarness.make(client, schema: schema)
            let first = try await harness.upload(
                [StoreHarness.createNote("first", seq: 1, hlc: Fixtures.hlc(1000, "a"))], client: "a", user: "alice")
            let quoted = "\"\(schema)\""
            try await client.withConnection { connection in
                let slow = SQLSession(connection: connection, logger: TestPostgres.logger)
                try await slow.execute("BEGIN")
                _ = try await slow.rows(
                    """
                    SELECT pg_advisory_xact_lock_shared(
                        CASE WHEN is_called THEN last_value + 1 ELSE last_value END)::text
                    FROM \(quoted).strata_sync_changes_seq_seq
                    """)
                let drawn = try await slow.value(
                    """
                    INSERT INTO \(quoted).strata_sync_changes (client_id, client_seq, user_id, owner_id, hlc, model,
                        object_key, op) VALUES ('slow', 1, 'alice', 'alice', 'h', 'Note', '"late"', 'create')
                    RETURNING seq::text
                    """)
                let later = try await harness.upload(
                    [StoreHarness.createNote("second", seq: 1, hlc: Fixtures.hlc(2000, "b"))], client: "b",
                    user: "alice")
                XCTAssertEqual(drawn, String(first.serverSeq + 1))
                XCTAssertEqual(later.serverSeq, first.serverSeq + 2, "the later upload committed first")

                let held = try await harness.store.downloadPage(after: 0, user: "alice", limit: 100)
                XCTAssertEqual(held.response.changes.map(\.serverSeq), [first.serverSeq])
                XCTAssertEqual(held.response.last, first.serverSeq, "no download passes a number still committing")
                XCTAssertTrue(held.heldBack, "the later upload's number is in the log, above the watermark")

                try await slow.execute("COMMIT")
                let after = try await harness.store.downloadPage(after: held.response.last, user: "alice", limit: 100)
                XCTAssertEqual(after.response.changes.map(\.serverSeq), [first.serverSeq + 1, later.serverSeq])
                XCTAssertEqual(after.response.last, later.serverSeq)
                XCTAssertFalse(after.heldBack)
            }
        }
    }
}

/// Whether the uploads are still running, shared by the test's tasks.
private final class Flag: Sendable {
    private let value = Mutex(true)

    var isSet: Bool { value.withLock { $0 } }

    func clear() { value.withLock { $0 = false } }
}

/// Every upload's answer: the client, its last change number and the `serverSeq` answered.
private final class Answers: Sendable {
    private let values = Mutex<[(client: String, change: Int64, serverSeq: Int64)]>([])

    var all: [(client: String, change: Int64, serverSeq: Int64)] { values.withLock { $0 } }

    func add(client: String, change: Int64, serverSeq: Int64) {
        values.withLock { $0.append((client, change, serverSeq)) }
    }
}
