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

/// One random change of the Syncbook models.
enum RandomChange {
    static func make(_ random: inout SeededRandom, in db: Database, round: Int) {
        let id = "n\(random.next(6))"
        let note = db.object(ofType: SyncNote.self, forPrimaryKey: id)
        switch random.next(16) {
        case 0, 1:
            if note == nil {
                let created = SyncNote(id: id, ownerId: "alice", title: "new \(round)", count: random.next(50))
                created.tags.append("t\(random.next(9))")
                db.add(created)
            }
        case 2:
            if let note { db.delete(note) }
        case 3: note?.title = "title \(round).\(random.next(100))"
        case 4: note?.count = random.next(1000)
        case 5: note?.rating = random.next(3) == 0 ? nil : Double(random.next(100)) / 4
        case 6: note?.done.toggle()
        case 7:
            note?.due = random.next(3) == 0 ? nil : Date(timeIntervalSince1970: Double(1_700_000_000 + random.next(1000)))
            note?.blob = Data([UInt8(random.next(256))])
            note?.price = Decimal(random.next(1000)) / 100
        case 8:
            if let note { note.tags.insert("t\(random.next(9))", at: random.next(note.tags.count + 1)) }
        case 9:
            if let note, !note.tags.isEmpty { note.tags.remove(at: random.next(note.tags.count)) }
        case 10:
            if let note, note.tags.count > 1 {
                note.tags.move(from: random.next(note.tags.count), to: random.next(note.tags.count))
            }
        case 11:
            if let note {
                let label = "l\(random.next(5))"
                note.labels.contains(label) ? note.labels.remove(label) : note.labels.insert(label)
            }
        case 12:
            if let note {
                let key = "k\(random.next(4))"
                random.next(3) == 0 ? note.scores.removeObject(for: key) : note.scores.updateValue(random.next(9), forKey: key)
            }
        case 13:
            let code = random.next(3)
            let topic = db.object(ofType: SyncTopic.self, forPrimaryKey: code)
                ?? db.create(SyncTopic.self, value: ["code": code, "name": "topic \(code)"])
            if random.next(2) == 0 { topic.name = "topic \(code) r\(round)" }
            note?.topic = topic
        case 14:
            let memos = db.objects(SyncMemo.self)
            if memos.count < 3 || random.next(3) == 0 {
                db.add(SyncMemo(text: "memo \(round)", steps: [random.next(9)]))
            } else if let memo = memos.first {
                random.next(2) == 0 ? db.delete(memo) : memo.steps.append(random.next(9))
            }
        default:
            if let note { note.tags.removeAll() }
        }
    }
}
