import Foundation
import XCTest

@testable import Strata

/// The sessions' wake-up call (``SyncSignal``): a fire wakes a waiting task at once and ends its timeout, a fire
/// with no waiter is kept for the next wait, and a wait nobody fires ends at its timeout.
final class SyncSignalTests: XCTestCase {
    func testAFireWakesTheWaiterAndEndsItsTimeout() async throws {
        let signal = SyncSignal()
        let started = Date()
        async let waited: Void = signal.wait(seconds: 30)
        while signal.runningTimeouts == 0, Date().timeIntervalSince(started) < 10 {
            try await Task.sleep(nanoseconds: 1_000_000)
        }
        XCTAssertEqual(signal.runningTimeouts, 1, "the wait registered its timeout")
        signal.fire()
        await waited
        XCTAssertLessThan(Date().timeIntervalSince(started), 10, "woken by the fire, not by the 30 s timeout")
        XCTAssertEqual(signal.runningTimeouts, 0, "the woken wait's timeout is cancelled")
    }

    func testAFireWithNoWaiterIsKeptForTheNextWaitAndAnUnfiredWaitTimesOut() async {
        let signal = SyncSignal()
        signal.fire()
        let started = Date()
        await signal.wait(seconds: 30)
        XCTAssertLessThan(Date().timeIntervalSince(started), 10, "the earlier fire answers the wait at once")
        XCTAssertEqual(signal.runningTimeouts, 0)

        await signal.wait(seconds: 0.05)
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(started), 0.05)
        XCTAssertEqual(signal.runningTimeouts, 0, "a timeout that ran out is forgotten")
    }
}
