import Foundation
import Strata
import XCTest

@testable import StrataSyncServer

/// PostgreSQL goes away in the middle of a session and comes back (the server reaches it through a `TCPProxy`
/// that the test cuts, as a restart does: every connection closed, new ones refused for a while). Meanwhile two
/// devices keep committing, uploading and downloading. The server answers 503 instead of keeping requests waiting,
/// its pool drops the dead connections, its `LISTEN` connection comes back, the devices retry with backoff, and
/// once PostgreSQL is back they converge: nothing acknowledged is lost, nothing applied twice.
final class SyncPostgresRestartTests: XCTestCase {
    func testPostgreSQLGoingAwayAndComingBackLosesNothingAndAppliesNothingTwice() async throws {
        guard let upstream = URLComponents(string: SyncHarness.postgresURL), let host = upstream.host else {
            throw XCTSkip("STRATA_SYNC_TEST_POSTGRES is not a postgres:// URL")
        }
        let proxy = try TCPProxy(upstreamHost: host, upstreamPort: upstream.port ?? 5432)
        defer { proxy.stop() }
        try await SyncHarness.run(configure: { configuration in
            configuration.postgresURL = proxy.proxying(configuration.postgresURL)
            configuration.connectionTimeout = .seconds(1)
            configuration.idleTimeout = .seconds(5)
        }) { harness in
            let phone = try await harness.client("phone", queue: DispatchQueue(label: "phone"), uploadBatchSize: 5)
            let laptop = try await harness.client("laptop", queue: DispatchQueue(label: "laptop"), uploadBatchSize: 5)
            try phone.write { db in db.add(SyncMemo(text: "log")) }
            try await phone.sync()
            try await laptop.sync()
            XCTAssertEqual(laptop.contents(), phone.contents())

            let rounds = 60
            var answeredUnavailable = false
            var acknowledgedAtCut: Int64 = 0
            for round in 0..<rounds {
                try phone.write { db in
                    db.add(SyncNote(id: "p\(round)", ownerId: "alice", title: "phone \(round)", count: round))
                    db.objects(SyncMemo.self).first?.steps.append(round)
                }
                try laptop.write { db in
                    db.add(SyncNote(id: "l\(round)", ownerId: "alice", title: "laptop \(round)", count: round))
                    db.objects(SyncMemo.self).first?.steps.append(1000 + round)
                }
                if round == 20 {
                    acknowledgedAtCut = phone.session.progress.acknowledgedChange
                    proxy.cut()
                }
                if round == 40 {
                    // Down for a while: the server must have answered the devices' requests with 503 (retryable)
                    // rather than keeping them waiting for a connection.
                    let deadline = Date().addingTimeInterval(10)
                    while !answeredUnavailable, Date() < deadline {
                        answeredUnavailable = phone.session.lastError?.status == 503
                            || laptop.session.lastError?.status == 503
                        if !answeredUnavailable { try await Task.sleep(for: .milliseconds(100)) }
                    }
                    proxy.restore()
                }
                try await Task.sleep(for: .milliseconds(20))
            }
            XCTAssertTrue(answeredUnavailable, "the server answered 503 while PostgreSQL was away")
            XCTAssertGreaterThan(acknowledgedAtCut, 0, "uploads went through before the cut")

            // Back: both devices finish without the test's help beyond waiting, within seconds.
            let deadline = Date().addingTimeInterval(30)
            var synced = false
            while !synced, Date() < deadline {
                do {
                    try await phone.sync()
                    try await laptop.sync()
                    try await phone.sync()
                    synced = true
                } catch {
                    try await Task.sleep(for: .milliseconds(200))
                }
            }
            XCTAssertTrue(synced, "the devices sync once PostgreSQL is back (\(phone.session.lastError as Any))")
            XCTAssertEqual(laptop.contents(), phone.contents())
            XCTAssertEqual(phone.run { $0.objects(SyncNote.self).count }, 2 * rounds)
            let steps = phone.run { $0.objects(SyncMemo.self).first.map { Array($0.steps) } ?? [] }
            XCTAssertEqual(steps.count, 2 * rounds, "every list insert once")
            XCTAssertEqual(Set(steps).count, 2 * rounds)
            let log = try await harness.rows(
                "SELECT count(*)::text, count(DISTINCT (client_id, client_seq))::text FROM S.strata_sync_changes")
            XCTAssertEqual(log.first?[0], log.first?[1], "each change once in the log")
            let notes = try await harness.rows("SELECT count(*)::text FROM S.\"SyncNote\"")
            XCTAssertEqual(notes, [[String(2 * rounds)]])
            let stepRows = try await harness.rows("SELECT count(*)::text FROM S.\"SyncMemo.steps\"")
            XCTAssertEqual(stepRows, [[String(2 * rounds)]])

            // The server's LISTEN connection came back: PostgreSQL shows a session listening on the log's channel.
            var listening = false
            let listenDeadline = Date().addingTimeInterval(10)
            while !listening, Date() < listenDeadline {
                let rows = try await harness.rows(
                    "SELECT count(*)::text FROM pg_stat_activity WHERE query LIKE 'LISTEN %' AND query LIKE '%"
                        + harness.databaseSchema + "%'")
                listening = rows.first?.first.flatMap { $0.flatMap(Int.init) } ?? 0 > 0
                if !listening { try await Task.sleep(for: .milliseconds(200)) }
            }
            XCTAssertTrue(listening, "the LISTEN connection reconnected")
            for client in [phone, laptop] { client.session.pause() }
            // The server then shuts down with its PostgreSQL connections still open through the proxy: the HTTP
            // server finishes its requests, the LISTEN loop and the pool stop and close their connections.
        }
    }
}
