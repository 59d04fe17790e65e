import Foundation
import XCTest

@testable import Strata

/// The sessions' wake-up call (``SyncSignal``): a fire wakes a waiting task at once and ends its timeout, a fire
/// that came while nobody waited answers every later wait past an earlier reading (not only the first one), and a
/// wait nobody fires ends at its timeout.
final class SyncSignalTests: XCTestCase {
    func testAFireWakesTheWaiterAndEndsItsTimeout() async throws {
        let signal = SyncSignal()
        let started = Date()
        let seen = signal.generation
        async let waited: Void = signal.wait(past: seen, seconds: 30)
        while signal.runningTimeouts == 0, Date().timeIntervalSince(started) < 10 {
            try await Task.sleep(nanoseconds: 1_000_000)
        }
        XCTAssertEqual(signal.runningTimeouts, 1, "the wait registered its timeout")
        signal.fire()
        await waited
        XCTAssertLessThan(Date().timeIntervalSince(started), 10, "woken by the fire, not by the 30 s timeout")
        XCTAssertEqual(signal.runningTimeouts, 0, "the woken wait's timeout is cancelled")
    }

    func testAFireWithNoWaiterAnswersEveryCallerThatHadNotSeenItAndAnUnfiredWaitTimesOut() async {
        let signal = SyncSignal()
        // Two callers (a session's loop and a waitForUpload beside it) read the signal, then one fire comes while
        // neither waits yet.
        let loopSaw = signal.generation
        let callerSaw = signal.generation
        signal.fire()
        let started = Date()
        await signal.wait(past: loopSaw, seconds: 30)
        await signal.wait(past: callerSaw, seconds: 30)
        XCTAssertLessThan(
            Date().timeIntervalSince(started), 10, "the earlier fire answers both waits at once, not the first only")
        XCTAssertEqual(signal.runningTimeouts, 0)

        // A reading taken after the fire waits for the next one.
        await signal.wait(past: signal.generation, seconds: 0.05)
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(started), 0.05)
        XCTAssertEqual(signal.runningTimeouts, 0, "a timeout that ran out is forgotten")
    }

    func testOneFireWakesEveryWaiter() async throws {
        let signal = SyncSignal()
        let seen = signal.generation
        let started = Date()
        async let first: Void = signal.wait(past: seen, seconds: 30)
        async let second: Void = signal.wait(past: seen, seconds: 30)
        while signal.runningTimeouts < 2, Date().timeIntervalSince(started) < 10 {
            try await Task.sleep(nanoseconds: 1_000_000)
        }
        XCTAssertEqual(signal.runningTimeouts, 2, "both waits registered")
        signal.fire()
        _ = await (first, second)
        XCTAssertLessThan(Date().timeIntervalSince(started), 10, "both woken by the one fire")
        XCTAssertEqual(signal.runningTimeouts, 0)
    }
}
