import Foundation
import Synchronization
import XCTest

@testable import Strata

/// What makes `NotificationToken` `Sendable`: its state sits behind a lock, so any thread may invalidate it (or
/// release it) while deliveries run on the observer's queue.
final class TokenSendabilityTests: NotificationTestCase {
    func testATokenInvalidatedByManyThreadsAtOnceStopsDeliveriesOnce() throws {
        let db = try openDatabase()
        let updates = Mutex(0)
        let token = onQueue {
            observerDatabase.objects(Person.self).observe { change in
                if case .update = change { updates.withLock { $0 += 1 } }
            }
        }
        startBarrier()
        let writer = Thread { [configuration] in
            guard let other = try? Database(configuration: configuration!) else { return }
            for i in 0..<50 { try? other.write { other.add(Person(id: i, name: "p\(i)")) } }
        }
        writer.start()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in token.invalidate() }
        // The invalidation has returned on every thread; a delivery already running on the queue ends first.
        onQueue {}
        let seen = updates.withLock { $0 }
        try db.write { db.add(Person(id: 100, name: "after")) }
        waitForDelivery(of: db.version)
        XCTAssertEqual(updates.withLock { $0 }, seen, "a delivery ran after the token was invalidated")
        while writer.isExecuting || !writer.isFinished { usleep(1_000) }
    }
}
