import Foundation
import Hummingbird
import HummingbirdTesting
import PostgresNIO
import XCTest

@testable import StrataSyncServer

/// A download answered from the server's recent commits (`RecentChanges`) is the page a read of the log would give:
/// the same changes under the rules, none missed or doubled, and a number this process did not write (another
/// server's change) read from the log.
final class RecentChangesTests: XCTestCase {
    /// A shared `Tag` that only `admin` writes.
    private static func tag(_ index: Int, seq: Int64) -> SyncChange {
        SyncChange(
            seq: seq, hlc: Fixtures.hlc(5000 + Int64(index), "adm"), model: "Tag",
            object: .string(String(format: "6F9619FF-8B86-D011-B42D-00C04FC9%04X", index)), op: .create,
            value: .object(["name": .string("tag \(index)")]))
    }

    /// A title change of note `id`.
    private static func retitle(_ id: String, seq: Int64, client: String, title: String) -> SyncChange {
        SyncChange(
            seq: seq, hlc: Fixtures.hlc(9000 + seq, client), model: "Note", object: .string(id), op: .set,
            property: "title", value: .string(title))
    }

    func testPagesFromMemoryAreTheLogsPagesUnderTheRules() async throws {
        try await TestPostgres.withDatabase { client, schema in
            let harness = try await StoreHarness.make(client, schema: schema)
            try await harness.upload(
                [
                    StoreHarness.createNote("a1", seq: 1, hlc: Fixtures.hlc(1000, "pa")),
                    StoreHarness.createNote("a2", seq: 2, hlc: Fixtures.hlc(1001, "pa"), title: "ä \"quoted\""),
                ], client: "pa", user: "alice")
            try await harness.upload([Self.tag(1, seq: 1)], client: "adm", user: "admin")
            try await harness.upload(
                [StoreHarness.createNote("b1", seq: 1, hlc: Fixtures.hlc(1002, "pb"), owner: "bob")],
                client: "pb", user: "bob")
            try await harness.upload(
                [Self.retitle("a1", seq: 3, client: "pa", title: "second")], client: "pa", user: "alice")
            try await harness.upload([Self.tag(2, seq: 2)], client: "adm", user: "admin")
            // A retry adds nothing: its changes were applied before.
            try await harness.upload([Self.tag(2, seq: 2)], client: "adm", user: "admin")

            XCTAssertEqual(harness.store.recent.count, 6, "every applied change once")
            for user in ["alice", "bob", "carol", "admin"] {
                for after in Int64(0)...6 {
                    for limit in [1, 2, 100] {
                        let logPage = try await harness.store.download(after: after, user: user, limit: limit)
                        let memory = harness.store.recentPage(after: after, user: user, limit: limit)
                        if logPage.changes.isEmpty {
                            XCTAssertNil(memory, "\(user) after \(after): nothing to answer from memory")
                        } else {
                            XCTAssertEqual(memory, logPage, "\(user) after \(after), limit \(limit)")
                        }
                    }
                }
                let seen = harness.store.recentPage(after: 0, user: user, limit: 100)?.changes ?? []
                let owned: [String: Set<SyncValue>] = ["alice": [.string("a1"), .string("a2")], "bob": [.string("b1")]]
                let own = owned[user] ?? []
                for change in seen where change.change.model == "Note" {
                    XCTAssertTrue(own.contains(change.change.object), "\(user) never gets another user's note")
                }
            }
            XCTAssertEqual(
                harness.store.recentPage(after: 0, user: "bob", limit: 100)?.changes.map(\.serverSeq), [3, 4, 6],
                "bob: the shared tags and his own note only")
            XCTAssertNil(harness.store.recentPage(after: 6, user: "alice", limit: 100), "nothing after the last")
        }
    }

    func testANumberAnotherServerWroteIsReadFromTheLog() async throws {
        try await TestPostgres.withDatabase { client, schema in
            let serverA = HTTPHarness(harness: try await StoreHarness.make(client, schema: schema))
            let storeB = try await StoreHarness.make(client, schema: schema)
            let alice = try await Fixtures.token(user: "alice")
            try await serverA.harness.upload(
                [StoreHarness.createNote("n1", seq: 1, hlc: Fixtures.hlc(1000, "pa"))], client: "pa", user: "alice")
            try await storeB.upload(
                [StoreHarness.createNote("n2", seq: 1, hlc: Fixtures.hlc(1001, "pb"))], client: "pb", user: "alice")
            try await serverA.harness.upload(
                [StoreHarness.createNote("n3", seq: 2, hlc: Fixtures.hlc(1002, "pa"))], client: "pa", user: "alice")
            let store = serverA.harness.store
            XCTAssertEqual(store.recentPage(after: 0, user: "alice", limit: 100)?.last, 1, "up to the gap only")
            XCTAssertNil(store.recentPage(after: 1, user: "alice", limit: 100), "2 is another server's")
            XCTAssertEqual(store.recentPage(after: 2, user: "alice", limit: 100)?.changes.map(\.serverSeq), [3])

            // A device long-polling through server A gets every change once, in order: the woken reads of A's own
            // commits from memory, the one of B's from the log.
            try await serverA.application().test(.live) { http in
                var cursor: Int64 = 3
                var seqs: [Int64] = []
                for (index, viaA) in [true, false, true].enumerated() {
                    let seq = Int64(index + 4)
                    let uri = "/v1/download?after=\(cursor)&wait=10"
                    async let waiting = http.send(.get, uri, token: alice)
                    try await Task.sleep(for: .milliseconds(300))
                    let note = StoreHarness.createNote("m\(seq)", seq: seq, hlc: Fixtures.hlc(2000 + seq, "pa"))
                    if viaA {
                        try await serverA.harness.upload([note], client: "pa", user: "alice")
                    } else {
                        try await storeB.upload([note], client: "pa", user: "alice")
                    }
                    let answer = try await waiting
                    XCTAssertEqual(answer.status, .ok, answer.text)
                    let page = try http.decode(DownloadResponse.self, answer.text)
                    seqs += page.changes.map(\.serverSeq)
                    cursor = page.last
                }
                XCTAssertEqual(seqs, [4, 5, 6])
                XCTAssertEqual(cursor, 6)
                XCTAssertTrue(
                    serverA.metrics.exposition().contains("strata_sync_downloads_from_memory_total 2"),
                    "the pages of 4 and 6 from memory, 5 from the log: \(serverA.metrics.exposition())")
            }
        }
    }

    func testLongPollsAnsweredWhileUploadsCommitMissAndDoubleNothing() async throws {
        try await TestPostgres.withDatabase { client, schema in
            let server = HTTPHarness(harness: try await StoreHarness.make(client, schema: schema))
            let alice = try await Fixtures.token(user: "alice")
            try await server.application().test(.live) { http in
                try await server.harness.upload(
                    [StoreHarness.createNote("n1", seq: 1, hlc: Fixtures.hlc(1000, "p0"))], client: "p0", user: "alice")
                // Two devices of alice upload 30 batches each, concurrently, then one of them 20 more, one at a time,
                // while a third long-polls from the start: the poller's answers are the log, each change once, in
                // order (the concurrent uploads' pages often from the log, one waiting for the other's number; the
                // later ones' from memory). The uploads go to the store directly: the test client sends one request
                // at a time.
                let total = 81
                async let polled: [ServerChange] = {
                    var cursor: Int64 = 0
                    var changes: [ServerChange] = []
                    while changes.count < total {
                        let answer = try await http.send(
                            .get, "/v1/download?after=\(cursor)&wait=5&client=p9", token: alice)
                        XCTAssertEqual(answer.status, .ok, answer.text)
                        let page = try http.decode(DownloadResponse.self, answer.text)
                        guard page.last > cursor || !page.changes.isEmpty else { continue }
                        // The answer's members are the protocol's, whether it came from memory or from the log.
                        let members = try JSONSerialization.jsonObject(with: Data(answer.text.utf8)) as? [String: Any]
                        XCTAssertEqual(Set(members?.keys.map { $0 } ?? []), ["changes", "last", "more"])
                        changes += page.changes
                        cursor = page.last
                    }
                    return changes
                }()
                try await withThrowingTaskGroup(of: Void.self) { uploads in
                    for device in ["p1", "p2"] {
                        uploads.addTask {
                            for index in 1...30 {
                                let batch = UploadRequest(
                                    clientId: device,
                                    changes: [Self.retitle("n1", seq: Int64(index), client: device, title: "\(index)")])
                                let answer = try await server.harness.store.upload(batch, user: "alice")
                                XCTAssertEqual(answer.accepted, 1)
                            }
                        }
                    }
                    try await uploads.waitForAll()
                }
                for index in 31...50 {
                    try await Task.sleep(for: .milliseconds(30))
                    let change = Self.retitle("n1", seq: Int64(index), client: "p1", title: "\(index)")
                    let batch = UploadRequest(clientId: "p1", changes: [change])
                    let answer = try await server.harness.store.upload(batch, user: "alice")
                    XCTAssertEqual(answer.accepted, 1)
                }
                let changes = try await polled
                let log = try await server.harness.store.download(after: 0, user: "alice", limit: 1000)
                XCTAssertEqual(changes, log.changes, "each change once, in the log's order")
                XCTAssertEqual(Set(changes.map(\.serverSeq)).count, total)
                let fromMemory = server.metrics.exposition().split(separator: "\n")
                    .first { $0.hasPrefix("strata_sync_downloads_from_memory_total ") }
                    .flatMap { Int($0.split(separator: " ").last ?? "") }
                XCTAssertGreaterThan(fromMemory ?? 0, 0, "some of the poller's pages came from memory")
            }
        }
    }

    func testAPageNeedsEveryNumberAfterTheCursor() {
        let rules = AccessRules(models: ["Board": .shared(writers: nil)])
        let recent = RecentChanges(capacity: 4)
        func entry(_ seq: Int64) -> RecentChanges.Entry {
            RecentChanges.Entry(
                change: ServerChange(
                    serverSeq: seq, clientId: "c",
                    change: SyncChange(
                        seq: seq, hlc: Fixtures.hlc(seq, "c"), model: "Board", object: .integer(seq), op: .create,
                        value: .object(["title": .string("b")]))),
                owner: nil)
        }
        recent.add([entry(1), entry(2), entry(3), entry(5)])
        XCTAssertEqual(recent.page(after: 0, user: "u", rules: rules, limit: 10)?.last, 3, "stops at the gap")
        XCTAssertEqual(recent.page(after: 0, user: "u", rules: rules, limit: 10)?.more, true, "5 is held beyond")
        XCTAssertEqual(recent.page(after: 0, user: "u", rules: rules, limit: 2)?.last, 2)
        XCTAssertEqual(recent.page(after: 0, user: "u", rules: rules, limit: 2)?.more, true)
        XCTAssertNil(recent.page(after: 3, user: "u", rules: rules, limit: 10), "4 is not held")
        XCTAssertEqual(recent.page(after: 4, user: "u", rules: rules, limit: 10)?.changes.map(\.serverSeq), [5])
        XCTAssertEqual(recent.page(after: 4, user: "u", rules: rules, limit: 10)?.more, false)
        XCTAssertNil(
            recent.page(after: 0, user: "u", rules: AccessRules(models: [:]), limit: 10), "a model without a rule")
        recent.add([entry(4), entry(6)])
        XCTAssertEqual(recent.count, 4, "the oldest dropped past the capacity")
        XCTAssertNil(recent.page(after: 0, user: "u", rules: rules, limit: 10), "1 was dropped")
        XCTAssertEqual(recent.page(after: 2, user: "u", rules: rules, limit: 10)?.last, 6)
    }
}
