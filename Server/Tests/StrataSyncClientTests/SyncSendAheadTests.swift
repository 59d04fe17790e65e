import Foundation
import Strata
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@testable import StrataSyncServer

/// A session sends batches ahead of the previous one's answer to a server that keeps order (docs/SYNC.md, "Sending
/// ahead"): every change still lands once, in the order the device made it.
final class SyncSendAheadTests: XCTestCase {
    func testCommitsMadeWhileUploadsAreUnderWayAreSentAheadAndLandOnceInOrder() async throws {
        try await SyncHarness.run { harness in
            // Sending ahead is off by default (SyncConfiguration.uploadsAhead): this device sends up to two ahead.
            var configuration = harness.clientConfiguration("phone", token: try await SyncHarness.token(user: "alice"))
            configuration.sync?.uploadsAhead = 2
            let queue = DispatchQueue(label: "phone")
            let database = try queue.sync { [configuration] in try Database(configuration: configuration, queue: queue) }
            defer { database.syncSession?.pause() }
            let phone = SyncClient(name: "phone", database: database, queue: queue)
            let laptop = try await harness.client("laptop", queue: DispatchQueue(label: "laptop"))
            // The first answer tells the session that the server keeps order.
            try phone.write { db in db.add(SyncNote(id: "n0", ownerId: "alice", title: "first")) }
            try await phone.session.waitForUpload()
            // Commits in quick succession, left to the background session: while one batch is on its way, the next
            // leaves too.
            let count = 200
            for index in 1...count {
                try phone.write { db in db.add(SyncNote(id: "n\(index)", ownerId: "alice", title: "t\(index)")) }
                if index % 20 == 0 { try await Task.sleep(for: .milliseconds(5)) }
            }
            let deadline = Date().addingTimeInterval(60)
            var logged = 0
            while logged <= count, Date() < deadline {
                try await Task.sleep(for: .milliseconds(50))
                logged = Int(try await harness.rows("SELECT count(*)::text FROM S.strata_sync_changes")[0][0] ?? "") ?? 0
            }
            // Once each, in the device's order (a batch applied before the one it follows would have made that one's
            // changes look like duplicates, and they would be missing).
            let order = try await harness.rows("SELECT client_seq::text FROM S.strata_sync_changes ORDER BY seq")
            XCTAssertEqual(order, (1...(count + 1)).map { [String($0)] })
            let metrics = try await Self.text(of: harness.server.appendingPathComponent("metrics"))
            let sentAhead = metrics.split(separator: "\n").first { $0.hasPrefix("strata_sync_uploads_sent_ahead_total ") }
            let sent = sentAhead.flatMap { Int($0.split(separator: " ").last ?? "") } ?? 0
            XCTAssertGreaterThan(sent, 0, "no batch was sent ahead:\n\(metrics)")
            try await phone.session.waitForUpload()
            XCTAssertEqual(phone.session.progress.pendingUploads, 0)
            try await laptop.session.waitForDownload()
            XCTAssertEqual(laptop.contents(), phone.contents())
        }
    }

    /// One batch at a time (the default), in small batches left to the background session: each next batch leaves
    /// after the previous one's answer (`SyncSession.uploadAhead`). Every change lands once, in the device's order,
    /// none with `after`, and the device ends with nothing pending.
    func testSmallBatchesOneAtATimeLandOnceInOrderWithoutAfter() async throws {
        try await SyncHarness.run { harness in
            var configuration = harness.clientConfiguration("phone", token: try await SyncHarness.token(user: "alice"))
            configuration.sync?.uploadBatchSize = 3
            let queue = DispatchQueue(label: "phone")
            let database = try queue.sync { [configuration] in try Database(configuration: configuration, queue: queue) }
            defer { database.syncSession?.pause() }
            let phone = SyncClient(name: "phone", database: database, queue: queue)
            let laptop = try await harness.client("laptop", queue: DispatchQueue(label: "laptop"))
            let count = 120
            for index in 1...count {
                try phone.write { db in db.add(SyncNote(id: "n\(index)", ownerId: "alice", title: "t\(index)")) }
                if index % 30 == 0 { try await Task.sleep(for: .milliseconds(5)) }
            }
            // Left to the background session alone: no waitForUpload, whose own uploads would mask its loop's.
            let deadline = Date().addingTimeInterval(60)
            var logged = 0
            while (logged < count || phone.session.progress.pendingUploads > 0), Date() < deadline {
                try await Task.sleep(for: .milliseconds(50))
                logged = Int(try await harness.rows("SELECT count(*)::text FROM S.strata_sync_changes")[0][0] ?? "") ?? 0
            }
            let order = try await harness.rows("SELECT client_seq::text FROM S.strata_sync_changes ORDER BY seq")
            XCTAssertEqual(order, (1...count).map { [String($0)] })
            XCTAssertEqual(phone.session.progress.pendingUploads, 0)
            let metrics = try await Self.text(of: harness.server.appendingPathComponent("metrics"))
            let uploads = Self.counter("strata_sync_uploads_total", in: metrics)
            XCTAssertGreaterThanOrEqual(uploads, count / 3, "fewer uploads than batches of 3:\n\(metrics)")
            XCTAssertEqual(Self.counter("strata_sync_uploads_sent_ahead_total", in: metrics), 0)
            try await laptop.session.waitForDownload()
            XCTAssertEqual(laptop.contents(), phone.contents())
        }
    }

    /// A counter's value in the server's `/metrics` text (0 when it is absent).
    private static func counter(_ name: String, in metrics: String) -> Int {
        let line = metrics.split(separator: "\n").first { $0.hasPrefix(name + " ") }
        return line.flatMap { Int($0.split(separator: " ").last ?? "") } ?? 0
    }

    private static func text(of url: URL) async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            URLSession.shared.dataTask(with: url) { data, _, error in
                if let error { continuation.resume(throwing: error) } else {
                    continuation.resume(returning: String(decoding: data ?? Data(), as: UTF8.self))
                }
            }.resume()
        }
    }
}
