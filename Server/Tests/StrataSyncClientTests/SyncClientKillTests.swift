import Foundation
import Strata
import XCTest

@testable import StrataSyncServer

/// A client process (`strata-sync-test-client`) is killed with SIGKILL while it downloads and applies pages of
/// changes, several times, and then reopened: its download cursor and its data agree (each page, its objects and
/// its cursor are one write transaction), nothing is applied twice, and the session catches up.
final class SyncClientKillTests: XCTestCase {
    func testAClientKilledWhileApplyingReopensConsistentAndCatchesUp() async throws {
        try await SyncHarness.run { harness in
            guard ClientProcess.executable.map({ FileManager.default.isExecutableFile(atPath: $0.path) }) == true else {
                throw XCTSkip("strata-sync-test-client is not built beside the tests (swift build builds it)")
            }
            // The server's log: 3,000 note creates and 300 list inserts, three pages and more of 1,000.
            let laptop = try await harness.client("laptop", queue: DispatchQueue(label: "laptop"))
            try laptop.write { db in db.add(SyncMemo(text: "log")) }
            for batch in 0..<6 {
                try laptop.write { db in
                    for index in 0..<500 {
                        let number = batch * 500 + index
                        db.add(SyncNote(id: "n\(number)", ownerId: "alice", title: "note \(number)", count: number))
                    }
                    for step in 0..<50 { db.objects(SyncMemo.self).first?.steps.append(batch * 50 + step) }
                }
            }
            try await laptop.sync()
            let final = laptop.session.progress.downloadedThrough
            XCTAssertGreaterThan(final, 3_000)

            // Killed while it works: after it applied something more since the last kill, a moment later.
            let file = harness.directory.appendingPathComponent("tablet.strata")
            let token = try await SyncHarness.token(user: "alice")
            var killedAt: [Int64] = []
            var random = SystemRandomNumberGenerator()
            for _ in 0..<4 {
                let previous = killedAt.last ?? 0
                let client = try ClientProcess(file: file, server: harness.server, token: token)
                let deadline = Date().addingTimeInterval(60)
                while client.isRunning, (client.cursor ?? 0) <= previous, Date() < deadline {
                    try await Task.sleep(for: .milliseconds(5))
                }
                try await Task.sleep(for: .milliseconds(Int.random(in: 0...150, using: &random)))
                client.kill()
                guard let cursor = client.cursor, cursor < final else { break }
                killedAt.append(cursor)
            }
            XCTAssertFalse(killedAt.isEmpty, "the client was killed before it had everything")

            // Reopened, paused: the cursor and the data agree.
            var configuration = harness.clientConfiguration("tablet", token: token)
            configuration.sync?.startsImmediately = false
            let queue = DispatchQueue(label: "tablet")
            let database = try queue.sync { try Database(configuration: configuration, queue: queue) }
            let tablet = SyncClient(name: "tablet", database: database, queue: queue)
            defer { tablet.session.pause() }
            let cursor = tablet.session.progress.downloadedThrough
            XCTAssertGreaterThanOrEqual(cursor, killedAt.last ?? 0)
            let expectedNotes = try await harness.rows(
                "SELECT object_key::text FROM S.strata_sync_changes WHERE model = 'SyncNote' AND seq <= \(cursor)")
            let expected = Set(expectedNotes.compactMap { $0.first ?? nil }.map { $0.trimmingCharacters(in: ["\""]) })
            let local = Set(tablet.run { db in db.objects(SyncNote.self).map(\.id) })
            XCTAssertEqual(local, expected, "the notes are those of the log up to the cursor \(cursor)")
            let expectedSteps = try await harness.rows(
                "SELECT count(*)::text FROM S.strata_sync_changes WHERE op = 'listInsert' AND seq <= \(cursor)")
            let steps = tablet.run { db in db.objects(SyncMemo.self).first.map { Array($0.steps) } ?? [] }
            XCTAssertEqual([[String(steps.count)]], expectedSteps, "each list insert up to the cursor, once")

            // And it catches up.
            tablet.session.resume()
            try await tablet.session.waitForDownload()
            XCTAssertEqual(tablet.session.progress.downloadedThrough, final)
            XCTAssertEqual(tablet.contents(), laptop.contents())
        }
    }
}
