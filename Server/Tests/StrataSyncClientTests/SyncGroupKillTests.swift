import Foundation
import Strata
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@testable import StrataSyncServer

/// The server process (`strata-sync serve --upload-groups 1`, spawned) is killed with SIGKILL while four devices
/// upload at once, so that its uploads are applied in groups (docs/SYNC.md, "Group commit"), and started again:
/// every device retries what it was sending, nothing acknowledged is lost, and the change log holds every change
/// exactly once.
final class SyncGroupKillTests: XCTestCase {
    func testAServerKilledDuringGroupCommitsLosesNothingAndAppliesNothingTwice() async throws {
        try await SyncHarness.withHarness { harness in
            let port = try ServerProcess.freePort()
            let arguments = ["--upload-groups", "1"]
            var server: ServerProcess? = try ServerProcess(harness: harness, port: port, arguments: arguments)
            harness.setServer(URL(string: "http://127.0.0.1:\(port)")!)
            var phones: [SyncClient] = []
            for index in 0..<4 {
                phones.append(
                    try await harness.client(
                        "phone\(index)", queue: DispatchQueue(label: "phone\(index)"), uploadBatchSize: 3))
            }
            let laptop = try await harness.client("laptop", queue: DispatchQueue(label: "laptop"))
            let perPhone = 120
            var acknowledgedAtKill: [Int64] = []
            for index in 0..<perPhone {
                for (number, phone) in phones.enumerated() {
                    try phone.write { db in
                        db.add(SyncNote(id: "p\(number)-\(index)", ownerId: "alice", title: "\(index)", count: index))
                    }
                }
                if index == perPhone / 2 {
                    server?.kill()
                    acknowledgedAtKill = phones.map { $0.session.progress.acknowledgedChange }
                    server = nil
                } else if index % 10 == 0 {
                    try await Task.sleep(for: .milliseconds(5))
                }
            }
            server = try ServerProcess(harness: harness, port: port, arguments: arguments)
            for phone in phones {
                var uploaded = false
                for _ in 0..<50 where !uploaded {
                    do {
                        try await phone.session.waitForUpload()
                        uploaded = true
                    } catch {
                        try await Task.sleep(for: .milliseconds(200))
                    }
                }
                XCTAssertTrue(uploaded, "\(phone.name)'s upload goes through once the server is back")
            }
            try await laptop.session.waitForDownload()
            let total = phones.count * perPhone
            XCTAssertEqual(laptop.run { $0.objects(SyncNote.self).count }, total)
            for phone in phones { XCTAssertEqual(laptop.contents(), phone.contents(), phone.name) }
            let log = try await harness.rows(
                "SELECT count(*)::text, count(DISTINCT (client_id, client_seq))::text FROM S.strata_sync_changes")
            XCTAssertEqual(log, [[String(total), String(total)]], "each change once (killed at \(acknowledgedAtKill))")
            XCTAssertGreaterThan(acknowledgedAtKill.reduce(0, +), 0, "the server died during the uploads")
            let grouped = try await harness.rows(
                "SELECT count(*)::text FROM (SELECT xmin::text AS x FROM S.strata_sync_changes GROUP BY xmin::text "
                    + "HAVING count(DISTINCT client_id) > 1) AS g")
            XCTAssertNotEqual(grouped, [["0"]], "the uploads were applied in groups")
            let noteCount = try await harness.rows("SELECT count(*)::text FROM S.\"SyncNote\"")
            XCTAssertEqual(noteCount, [[String(total)]])
            server?.kill()
        }
    }
}
