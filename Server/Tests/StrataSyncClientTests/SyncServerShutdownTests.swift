import Foundation
import Strata
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `strata-sync serve` stopped with SIGTERM (a deploy, an orchestrator's stop) while a device holds a long poll:
/// the server answers the poll and exits within seconds, not at the poll's deadline.
final class SyncServerShutdownTests: XCTestCase {
    func testSIGTERMAnswersALongPollAndExitsWithinSeconds() async throws {
        try await SyncHarness.withHarness { harness in
            let server = try ServerProcess(harness: harness)
            let token = try await SyncHarness.token(user: "alice")
            var request = URLRequest(url: URL(string: "http://127.0.0.1:\(server.port)/v1/download?after=0&wait=50")!)
            request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
            request.timeoutInterval = 120
            let poll = Task { () throws -> (Int, Date) in
                let (_, response) = try await URLSession.shared.data(for: request)
                return ((response as? HTTPURLResponse)?.statusCode ?? -1, Date())
            }
            // The poll is waiting on the server (nothing to download) when the signal comes.
            try await Self.waitForWaitingPoll(port: server.port)
            let signalled = Date()
            XCTAssertTrue(server.terminate(within: 10), "the server exits within 10 s of SIGTERM, not at the poll's 50 s")
            XCTAssertEqual(server.process.terminationReason, .exit)
            XCTAssertEqual(server.process.terminationStatus, 0)
            let (status, answered) = try await poll.value
            XCTAssertEqual(status, 200, "the long poll is answered (empty), not cut")
            XCTAssertLessThan(answered.timeIntervalSince(signalled), 10)
        }
    }

    /// Waits (at most 30 s) until the server's `/metrics` counts one long poll waiting.
    private static func waitForWaitingPoll(port: Int) async throws {
        let metrics = URL(string: "http://127.0.0.1:\(port)/metrics")!
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            let (data, _) = try await URLSession.shared.data(from: metrics)
            if String(decoding: data, as: UTF8.self).contains("strata_sync_long_polls_waiting 1") { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        XCTFail("the long poll never showed as waiting in /metrics")
    }
}
