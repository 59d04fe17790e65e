import XCTest

@testable import StrataSyncServer

/// Batches sent ahead (`UploadRequest.after`, docs/SYNC.md "Sending ahead"): applied only after the changes before
/// them, whatever order they arrive in, and once.
final class UploadOrderTests: XCTestCase {
    /// The harness's store, with a batch sent ahead waiting `wait` for its predecessor.
    private static func store(of harness: StoreHarness, waiting wait: Duration) -> SyncStore {
        var store = harness.store
        store.predecessorWait = wait
        return store
    }

    private static func notes(_ seqs: ClosedRange<Int64>, client: String = "c1") -> [SyncChange] {
        seqs.map { StoreHarness.createNote("n\($0)", seq: $0, hlc: Fixtures.hlc(1000 + $0, client)) }
    }

    func testABatchWhosePredecessorNeverComesIsRefusedKeepingNothing() async throws {
        try await TestPostgres.withDatabase { client, schema in
            let harness = try await StoreHarness.make(client, schema: schema)
            let store = Self.store(of: harness, waiting: .milliseconds(100))
            do {
                _ = try await store.upload(
                    UploadRequest(clientId: "c1", changes: Self.notes(3...4), after: 2), user: "alice")
                XCTFail("a batch after change 2 was applied before change 2")
            } catch let error as SyncError {
                XCTAssertEqual(error.kind, .predecessorMissing)
                XCTAssertEqual(error.status.code, 412)
                XCTAssertTrue(error.message.contains("applied its changes up to 0"), error.message)
            }
            try await harness.expectRows("SELECT count(*)::text FROM S.strata_sync_changes", [["0"]])
            try await harness.expectRows("SELECT count(*)::text FROM S.\"Note\"", [["0"]])
            try await harness.expectRows("SELECT count(*)::text FROM S.strata_sync_clients", [["0"]])
        }
    }

    func testABatchThatArrivesFirstWaitsForTheOneBeforeIt() async throws {
        try await TestPostgres.withDatabase { client, schema in
            let harness = try await StoreHarness.make(client, schema: schema)
            let store = Self.store(of: harness, waiting: .seconds(30))
            // The second batch arrives first and waits; the first then commits and lets it through.
            let second = Task {
                try await store.upload(UploadRequest(clientId: "c1", changes: Self.notes(3...5), after: 2), user: "alice")
            }
            try await Task.sleep(for: .milliseconds(150))
            let first = try await store.upload(
                UploadRequest(clientId: "c1", changes: Self.notes(1...2)), user: "alice")
            let answer = try await second.value
            XCTAssertEqual(first.acknowledged, 2)
            XCTAssertTrue(first.keepsOrder)
            XCTAssertEqual(answer.acknowledged, 5)
            XCTAssertEqual(answer.accepted, 3)
            XCTAssertEqual(answer.duplicates, 0)
            // The log holds the client's changes in its order.
            try await harness.expectRows(
                "SELECT client_seq::text FROM S.strata_sync_changes ORDER BY seq", (1...5).map { [String($0)] })
            // A retry of the second batch, still sent ahead, is applied once.
            let retried = try await store.upload(
                UploadRequest(clientId: "c1", changes: Self.notes(3...5), after: 2), user: "alice")
            XCTAssertEqual(retried.accepted, 0)
            XCTAssertEqual(retried.duplicates, 3)
            try await harness.expectRows("SELECT count(*)::text FROM S.\"Note\"", [["5"]])
        }
    }

    func testManyBatchesSentAheadAtOnceLandInTheClientsOrder() async throws {
        try await TestPostgres.withDatabase { client, schema in
            let harness = try await StoreHarness.make(client, schema: schema)
            let store = Self.store(of: harness, waiting: .seconds(30))
            // Twenty batches of three changes, each naming the one before, all sent at once: whatever order they
            // reach the server in, each is applied after its predecessor.
            try await withThrowingTaskGroup(of: UploadResponse.self) { group in
                for batch in Int64(0)..<20 {
                    let seqs = (batch * 3 + 1)...(batch * 3 + 3)
                    group.addTask {
                        try await store.upload(
                            UploadRequest(
                                clientId: "c1", changes: Self.notes(seqs), after: batch == 0 ? nil : batch * 3),
                            user: "alice")
                    }
                }
                var accepted = 0
                for try await answer in group { accepted += answer.accepted }
                XCTAssertEqual(accepted, 60)
            }
            try await harness.expectRows(
                "SELECT client_seq::text FROM S.strata_sync_changes ORDER BY seq", (1...60).map { [String($0)] })
            try await harness.expectRows("SELECT last_seq::text FROM S.strata_sync_clients", [["60"]])
        }
    }
}
