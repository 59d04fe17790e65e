import Foundation
import Strata
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@testable import StrataSyncServer

/// The server process (`strata-sync serve`, spawned) is killed with SIGKILL while a client uploads many small
/// batches, and started again: the client retries the batch it was sending, nothing acknowledged is lost, and the
/// change log holds every change exactly once.
final class SyncFaultTests: XCTestCase {
    func testAServerKilledMidUploadLosesNothingAndAppliesNothingTwice() async throws {
        try await SyncHarness.withHarness { harness in
            let port = try ServerProcess.freePort()
            var server: ServerProcess? = try ServerProcess(harness: harness, port: port)
            harness.setServer(URL(string: "http://127.0.0.1:\(port)")!)
            let phone = try await harness.client("phone", queue: DispatchQueue(label: "phone"), uploadBatchSize: 5)
            let laptop = try await harness.client("laptop", queue: DispatchQueue(label: "laptop"))
            // One note per commit; the background loop uploads batches of 5 as they come, and the server dies
            // halfway through.
            let total = 400
            var atKill: SyncSession.Progress?
            for index in 0..<total {
                try phone.write { db in
                    db.add(SyncNote(id: "n\(index)", ownerId: "alice", title: "note \(index)", count: index))
                }
                if index == total / 2 {
                    server?.kill()
                    atKill = phone.session.progress
                    server = nil
                } else if index % 20 == 0 {
                    try await Task.sleep(for: .milliseconds(5))
                }
            }
            try phone.write { db in db.add(SyncNote(id: "after", ownerId: "alice", title: "while down")) }
            do {
                try await phone.session.waitForUpload()
                XCTFail("uploading to a dead server fails")
            } catch let error as Strata.SyncError {
                XCTAssertNil(error.status, error.message)
            }
            server = try ServerProcess(harness: harness, port: port)
            var uploaded = false
            for _ in 0..<50 where !uploaded {
                do {
                    try await phone.session.waitForUpload()
                    uploaded = true
                } catch {
                    try await Task.sleep(for: .milliseconds(200))
                }
            }
            XCTAssertTrue(uploaded, "the upload goes through once the server is back")
            try await laptop.session.waitForDownload()
            XCTAssertEqual(laptop.contents(), phone.contents())
            XCTAssertEqual(laptop.run { $0.objects(SyncNote.self).count }, total + 1)
            let log = try await harness.rows(
                "SELECT count(*)::text, count(DISTINCT (client_id, client_seq))::text FROM S.strata_sync_changes")
            XCTAssertEqual(log, [[String(total + 1), String(total + 1)]], "each change once (killed at \(String(describing: atKill)))")
            XCTAssertGreaterThan(atKill?.acknowledgedChange ?? 0, 0, "the server died during the uploads")
            let noteCount = try await harness.rows("SELECT count(*)::text FROM S.\"SyncNote\"")
            XCTAssertEqual(noteCount, [[String(total + 1)]])
            server?.kill()
        }
    }
}
