import Foundation
import Hummingbird
import HummingbirdTesting
import PostgresNIO
import XCTest

@testable import StrataSyncServer

/// Two server instances, each with its own connection pool, on one PostgreSQL serve the same clients: a change
/// through one reaches clients of the other, and concurrent uploads through both keep one order.
final class TwoServerTests: XCTestCase {
    func testTwoServersOnOnePostgreSQL() async throws {
        try await TestPostgres.withDatabase { clientA, schema in
            let clientB = PostgresClient(
                configuration: try PostgresURL.configuration(TestPostgres.url), backgroundLogger: TestPostgres.logger)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await clientB.run() }
                defer { group.cancelAll() }
                let serverA = HTTPHarness(harness: try await StoreHarness.make(clientA, schema: schema))
                // The second server migrates the same tables again: a no-op under the migration lock.
                let serverB = HTTPHarness(harness: try await StoreHarness.make(clientB, schema: schema))
                let alice = try await Fixtures.token(user: "alice")
                try await serverA.application().test(.live) { httpA in
                    try await serverB.application().test(.live) { httpB in
                        // A change through A reaches a long-polling client of B.
                        async let waiting = httpB.send(.get, "/v1/download?after=0&wait=20", token: alice)
                        try await Task.sleep(for: .milliseconds(200))
                        let first = UploadRequest(
                            clientId: "phone",
                            changes: [StoreHarness.createNote("n1", seq: 1, hlc: Fixtures.hlc(1000, "phone"))])
                        let uploaded = try await httpA.send(.post, "/v1/upload", token: alice, json: first)
                        XCTAssertEqual(uploaded.status, .ok, uploaded.text)
                        let seen = try httpB.decode(DownloadResponse.self, try await waiting.text)
                        XCTAssertEqual(seen.changes.map(\.change), first.changes)

                        // Concurrent uploads through both servers, 20 batches each, with retries of every batch.
                        try await withThrowingTaskGroup(of: Void.self) { uploads in
                            for (http, device) in [(httpA, "laptop"), (httpB, "tablet")] {
                                uploads.addTask {
                                    for index in 1...20 {
                                        let change = SyncChange(
                                            seq: Int64(index), hlc: Fixtures.hlc(2000 + Int64(index), device),
                                            model: "Note", object: .string("n1"), op: .listInsert, property: "tags",
                                            value: .string("\(device) \(index)"), element: "\(device)-\(index)",
                                            position: String(format: "%04d", index))
                                        let batch = UploadRequest(clientId: device, changes: [change])
                                        for _ in 0..<2 {
                                            let answer = try await http.send(
                                                .post, "/v1/upload", token: alice, json: batch)
                                            XCTAssertEqual(answer.status, .ok, answer.text)
                                        }
                                    }
                                }
                            }
                            try await uploads.waitForAll()
                        }
                        let viaA = try httpA.decode(
                            DownloadResponse.self, try await httpA.send(.get, "/v1/download?after=0", token: alice).text
                        )
                        let viaB = try httpB.decode(
                            DownloadResponse.self, try await httpB.send(.get, "/v1/download?after=0", token: alice).text
                        )
                        XCTAssertEqual(viaA, viaB)
                        XCTAssertEqual(viaA.changes.count, 41, "every change once, retries skipped")
                        let sequence = viaA.changes.map(\.serverSeq)
                        XCTAssertEqual(sequence, sequence.sorted())
                        let tags = try await serverA.harness.rows("SELECT count(*)::text FROM S.\"Note.tags\"")
                        XCTAssertEqual(tags, [["40"]])
                    }
                }
            }
        }
    }
}
