import Foundation
import Hummingbird
import HummingbirdTesting
import XCTest

@testable import StrataSyncServer

/// The HTTP endpoints, on a server listening on a random loopback port in this process.
final class HTTPEndpointTests: XCTestCase {
    func testHealthUploadDownloadAndMetrics() async throws {
        try await TestPostgres.withDatabase { client, schema in
            let server = HTTPHarness(harness: try await StoreHarness.make(client, schema: schema))
            let token = try await Fixtures.token(user: "alice")
            try await server.application().test(.live) { http in
                let health = try await http.send(.get, "/health", token: nil)
                XCTAssertEqual(health.status, .ok)
                let batch = UploadRequest(
                    clientId: "c1", changes: [StoreHarness.createNote("n1", seq: 1, hlc: Fixtures.hlc(1000, "c1"))])
                let upload = try await http.send(.post, "/v1/upload", token: token, json: batch)
                XCTAssertEqual(upload.status, .ok, upload.text)
                XCTAssertEqual(try http.decode(UploadResponse.self, upload.text).acknowledged, 1)
                let download = try await http.send(.get, "/v1/download?after=0", token: token)
                XCTAssertEqual(download.status, .ok, download.text)
                let changes = try http.decode(DownloadResponse.self, download.text)
                XCTAssertEqual(changes.changes.map(\.change), batch.changes)

                let refused = try await http.send(
                    .post, "/v1/upload", token: token,
                    json: UploadRequest(
                        clientId: "c1",
                        changes: [
                            SyncChange(
                                seq: 2, hlc: Fixtures.hlc(1001, "c1"), model: "Note", object: .string("n1"),
                                op: .set, property: "count", value: .string("many"))
                        ]))
                XCTAssertEqual(refused.status, .badRequest)
                XCTAssertTrue(refused.text.contains("Note.count is int"), refused.text)
                let garbage = try await http.send(.post, "/v1/upload", token: token, json: ["nope": 1])
                XCTAssertEqual(garbage.status, .badRequest)

                let metrics = try await http.send(.get, "/metrics", token: nil)
                XCTAssertEqual(metrics.status, .ok)
                XCTAssertTrue(metrics.text.contains("strata_sync_uploads_total 1"), metrics.text)
                XCTAssertTrue(metrics.text.contains("strata_sync_changes_accepted_total 1"), metrics.text)
                XCTAssertTrue(metrics.text.contains("strata_sync_downloads_total 1"), metrics.text)
                XCTAssertTrue(metrics.text.contains(#"strata_sync_errors_total{status="400"} 2"#), metrics.text)
            }
        }
    }

    func testForgedExpiredAndWrongKeyTokensAreRefused() async throws {
        try await TestPostgres.withDatabase { client, schema in
            let server = HTTPHarness(harness: try await StoreHarness.make(client, schema: schema))
            let valid = try await Fixtures.token(user: "alice")
            let parts = valid.split(separator: ".").map(String.init)
            // Forged: the payload says "mallory" but the signature is Alice's.
            let forgedPayload = Data(#"{"sub":"mallory","exp":4102444800}"#.utf8).base64EncodedString()
                .replacingOccurrences(of: "=", with: "").replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_")
            let forged = [parts[0], forgedPayload, parts[2]].joined(separator: ".")
            let unsigned = [
                Data(#"{"alg":"none","typ":"JWT"}"#.utf8).base64EncodedString().replacingOccurrences(of: "=", with: ""),
                forgedPayload, "",
            ].joined(separator: ".")
            let cases: [(String?, String)] = [
                (nil, "missing token"),
                (forged, "signature does not match"),
                (unsigned, "token refused"),
                (try await Fixtures.token(user: "alice", expiresIn: -60), "expired"),
                (
                    try await Fixtures.token(user: "alice", key: Array("another-key-another-key-another-key".utf8)),
                    "signature does not match"
                ),
                ("not-a-jwt", "token refused"),
            ]
            try await server.application().test(.live) { http in
                for (token, expected) in cases {
                    for uri in ["/v1/download?after=0", "/v1/upload"] {
                        let method: HTTPRequest.Method = uri == "/v1/upload" ? .post : .get
                        let answer = try await http.send(
                            method, uri, token: token, json: UploadRequest(clientId: "c1", changes: []))
                        XCTAssertEqual(answer.status, .unauthorized, "\(token ?? "nil") on \(uri)")
                        XCTAssertTrue(answer.text.contains(expected), "\(answer.text) lacks '\(expected)'")
                    }
                }
                let ok = try await http.send(.get, "/v1/download?after=0", token: valid)
                XCTAssertEqual(ok.status, .ok)
            }
            try await server.harness.expectRows("SELECT count(*)::text FROM S.strata_sync_clients", [["0"]])
        }
    }

    func testLongPollDownloadWakesOnUpload() async throws {
        try await TestPostgres.withDatabase { client, schema in
            let server = HTTPHarness(harness: try await StoreHarness.make(client, schema: schema))
            let token = try await Fixtures.token(user: "alice")
            try await server.application().test(.live) { http in
                let started = ContinuousClock.now
                async let waiting = http.send(.get, "/v1/download?after=0&wait=20", token: token)
                try await Task.sleep(for: .milliseconds(300))
                try await server.harness.upload(
                    [StoreHarness.createNote("n1", seq: 1, hlc: Fixtures.hlc(1000, "c1"))], client: "c1", user: "alice")
                let answer = try await waiting
                let elapsed = ContinuousClock.now - started
                XCTAssertEqual(answer.status, .ok)
                XCTAssertEqual(try http.decode(DownloadResponse.self, answer.text).changes.count, 1)
                XCTAssertGreaterThanOrEqual(elapsed, .milliseconds(300), "the download waited for the upload")
                XCTAssertLessThan(elapsed, .seconds(10), "the download returned once the change committed")
            }
        }
    }

    /// A long poll that names its client (`client=`) is not woken by that client's own uploads (the device has
    /// those changes): it gets them at its next read (here its deadline, the recheck set beyond it), while another
    /// device of the same user is woken at once; a bad `client` is refused.
    func testLongPollIsNotWokenByItsOwnClientsUpload() async throws {
        try await TestPostgres.withDatabase { client, schema in
            let server = HTTPHarness(
                harness: try await StoreHarness.make(client, schema: schema), recheckInterval: .seconds(30))
            let token = try await Fixtures.token(user: "alice")
            try await server.application().test(.live) { http in
                // (The test client sends one request at a time: the two long polls run one after the other.)
                let started = ContinuousClock.now
                async let own = http.send(.get, "/v1/download?after=0&wait=3&client=c1", token: token)
                try await Task.sleep(for: .milliseconds(300))
                try await server.harness.upload(
                    [StoreHarness.createNote("n1", seq: 1, hlc: Fixtures.hlc(1000, "c1"))], client: "c1", user: "alice")
                let ownAnswer = try await own
                let ownElapsed = ContinuousClock.now - started
                XCTAssertEqual(ownAnswer.status, .ok)
                let page = try http.decode(DownloadResponse.self, ownAnswer.text)
                XCTAssertEqual(page.changes.map(\.clientId), ["c1"], "c1 still gets its change back, at its deadline")
                XCTAssertEqual(page.last, 1)
                XCTAssertGreaterThanOrEqual(ownElapsed, .seconds(3), "c1's own upload did not wake its long poll")

                let otherStarted = ContinuousClock.now
                async let other = http.send(.get, "/v1/download?after=1&wait=20&client=c2", token: token)
                try await Task.sleep(for: .milliseconds(300))
                try await server.harness.upload(
                    [StoreHarness.createNote("n2", seq: 2, hlc: Fixtures.hlc(2000, "c1"))], client: "c1", user: "alice")
                let otherAnswer = try await other
                XCTAssertEqual(try http.decode(DownloadResponse.self, otherAnswer.text).changes.count, 1)
                XCTAssertLessThan(
                    ContinuousClock.now - otherStarted, .seconds(15), "c2's long poll was woken by c1's upload")

                let empty = try await http.send(.get, "/v1/download?after=0&client=", token: token)
                XCTAssertEqual(empty.status, .badRequest)
                XCTAssertTrue(empty.text.contains("'client'"), empty.text)
            }
        }
    }

    func testLongPollSkipsChangesTheUserMayNotSee() async throws {
        try await TestPostgres.withDatabase { client, schema in
            let server = HTTPHarness(harness: try await StoreHarness.make(client, schema: schema))
            let bob = try await Fixtures.token(user: "bob")
            try await server.application().test(.live) { http in
                let started = ContinuousClock.now
                async let waiting = http.send(.get, "/v1/download?after=0&wait=2", token: bob)
                try await Task.sleep(for: .milliseconds(300))
                // Alice's own note: not bob's to see, so bob's long poll keeps waiting until its deadline.
                try await server.harness.upload(
                    [StoreHarness.createNote("n1", seq: 1, hlc: Fixtures.hlc(1000, "c1"))], client: "c1", user: "alice")
                let answer = try await waiting
                let elapsed = ContinuousClock.now - started
                XCTAssertEqual(answer.status, .ok)
                let page = try http.decode(DownloadResponse.self, answer.text)
                XCTAssertEqual(page.changes, [])
                XCTAssertEqual(page.last, 1, "the answer moves past the hidden change")
                XCTAssertGreaterThanOrEqual(elapsed, .seconds(2), "the hidden change did not answer the long poll")
            }
        }
    }

    /// An upload PostgreSQL refuses for now because its lock table is full (the upload locks every object it
    /// changes; many large uploads at once can fill it) is answered 503, which clients retry, with what to change;
    /// nothing of it is applied, and the same upload passes once the locks are free.
    func testAnUploadRefusedForAFullLockTableIsAnsweredRetryLater() async throws {
        try await TestPostgres.withDatabase { client, schema in
            let server = HTTPHarness(harness: try await StoreHarness.make(client, schema: schema))
            let token = try await Fixtures.token(user: "alice")
            let batch = UploadRequest(
                clientId: "c1",
                changes: (1...1_000).map {
                    StoreHarness.createNote("n\($0)", seq: Int64($0), hlc: Fixtures.hlc(1000 + $0, "c1"))
                })
            try await server.application().test(.live) { http in
                try await client.withConnection { connection in
                    // Another session fills the shared lock table, 200 advisory locks at a time, each step under a
                    // savepoint: the step that finds the table full is rolled back, leaving fewer than 200 free.
                    let hog = SQLSession(connection: connection, logger: TestPostgres.logger)
                    try await hog.execute("BEGIN")
                    var full = false
                    var steps = 0
                    for step in 0..<1_000 where !full {
                        try await hog.execute("SAVEPOINT fill")
                        do {
                            _ = try await hog.rows(
                                "SELECT count(pg_advisory_xact_lock(7001, g))::text FROM generate_series("
                                    + "\(step * 200), \(step * 200 + 199)) AS g")
                            try await hog.execute("RELEASE SAVEPOINT fill")
                            steps += 1
                        } catch {
                            XCTAssertTrue("\(String(reflecting: error))".contains("53200"), "\(error)")
                            try await hog.execute("ROLLBACK TO SAVEPOINT fill")
                            full = true
                        }
                    }
                    XCTAssertTrue(full && steps > 5, "the lock table never filled (\(steps) steps)")
                    let refused = try await http.send(.post, "/v1/upload", token: token, json: batch)
                    XCTAssertEqual(refused.status, .serviceUnavailable, refused.text)
                    XCTAssertTrue(refused.text.contains("max_locks_per_transaction"), refused.text)
                    try await hog.execute("ROLLBACK")
                }
                let download = try await http.send(.get, "/v1/download?after=0", token: token)
                XCTAssertEqual(try http.decode(DownloadResponse.self, download.text).changes.count, 0)
                let upload = try await http.send(.post, "/v1/upload", token: token, json: batch)
                XCTAssertEqual(upload.status, .ok, upload.text)
                XCTAssertEqual(try http.decode(UploadResponse.self, upload.text).accepted, 1_000)
            }
        }
    }
}
