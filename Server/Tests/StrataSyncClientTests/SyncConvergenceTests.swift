import Foundation
import Strata
import XCTest

@testable import StrataSyncServer

/// Three clients make seeded random changes of every kind (scalars of each type, links, list inserts, removes and
/// moves, set adds and removes, map sets and removes, deletes and re-creations, objects without a primary key)
/// while going offline and online at random; once all are online and synced, every client holds the same data,
/// and so do the PostgreSQL tables. `STRATA_LONG_TESTS=1` runs 400 rounds instead of 40.
final class SyncConvergenceTests: XCTestCase {
    func testRandomChangesConverge() async throws {
        let long = ProcessInfo.processInfo.environment["STRATA_LONG_TESTS"] == "1"
        let rounds = long ? 400 : 40
        let seed = UInt64(ProcessInfo.processInfo.environment["STRATA_SYNC_SEED"] ?? "") ?? 20_261_126
        try await SyncHarness.run { harness in
            let clients = try await harness.randomRounds(
                rounds, seed: seed, count: { random in random.next(4) },
                change: { random, db, round in RandomChange.make(&random, in: db, round: round) })
            let expected = clients[0].contents()
            for client in clients.dropFirst() {
                XCTAssertEqual(client.contents(), expected, "client \(client.name) differs from client a (seed \(seed))")
            }
            // The server's typed tables hold the same notes, titles, counts and list orders.
            let notes = try await harness.rows(
                "SELECT id, title, count::text FROM S.\"SyncNote\" ORDER BY id COLLATE \"C\"")
            let local = clients[0].run { db in
                db.objects(SyncNote.self).sorted { Array($0.id.utf8).lexicographicallyPrecedes(Array($1.id.utf8)) }
                    .map { [$0.id, $0.title, String($0.count)] as [String?] }
            }
            XCTAssertEqual(notes, local)
            let tags = try await harness.rows(
                "SELECT owner, value FROM S.\"SyncNote.tags\" ORDER BY owner COLLATE \"C\", position, element")
            let localTags = clients[0].run { db in
                db.objects(SyncNote.self).sorted { Array($0.id.utf8).lexicographicallyPrecedes(Array($1.id.utf8)) }
                    .flatMap { note in note.tags.map { [note.id, $0] as [String?] } }
            }
            XCTAssertEqual(tags, localTags)
            let memos = try await harness.rows("SELECT count(*)::text FROM S.\"SyncMemo\"")
            XCTAssertEqual(memos, [[String(clients[0].run { $0.objects(SyncMemo.self).count })]])
            XCTAssertFalse(expected.isEmpty)
        }
    }
}
