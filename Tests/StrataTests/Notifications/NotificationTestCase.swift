import Foundation
import StrataTestSupport
import XCTest

@_spi(StrataGenerated) @testable import Strata

/// A test case whose observers live on a database confined to a private serial queue, while the test thread
/// writes through its own database; a database observer registered last on the queue tells the test when every
/// observer has seen a version (one delivery runs all observers of a database in registration order).
class NotificationTestCase: DatabaseTestCase {
    var queue: DispatchQueue!
    /// Confined to `queue`: touch it only inside `onQueue`.
    var observerDatabase: Database!
    private let seenLock = NSLock()
    private var seenVersion: UInt64 = 0
    private var barrier: NotificationToken?

    override func setUpWithError() throws {
        try super.setUpWithError()
        queue = DispatchQueue(label: "notification tests \(name)")
        let configuration = self.configuration!
        let queue = self.queue!
        observerDatabase = try queue.sync { try Database(configuration: configuration, queue: queue) }
    }

    override func tearDown() {
        queue.sync {
            barrier = nil
            observerDatabase = nil
        }
        super.tearDown()
    }

    /// Runs `body` on the observers' queue and returns what it returns.
    func onQueue<T>(_ body: () throws -> T) rethrows -> T {
        try queue.sync(execute: body)
    }

    /// Registers the database observer that marks the versions every observer has seen: call it after
    /// registering the observers under test.
    func startBarrier() {
        onQueue {
            barrier = observerDatabase.observe { [weak self] _, database in
                guard let self else { return }
                let version = database.version
                seenLock.withLock { seenVersion = max(seenVersion, version) }
            }
        }
    }

    /// Waits until the observers have been delivered `version` (or later); fails after 20 seconds.
    func waitForDelivery(of version: UInt64, file: StaticString = #filePath, line: UInt = #line) {
        let deadline = Date(timeIntervalSinceNow: 20)
        while seenLock.withLock({ seenVersion }) < version {
            guard Date() < deadline else {
                return XCTFail("no delivery of version \(version) within 20 s", file: file, line: line)
            }
            usleep(500)
        }
        // The barrier runs last in its delivery; let that delivery finish.
        onQueue {}
    }

    /// Waits until `condition` (evaluated on the observers' queue) holds; fails after 20 seconds.
    func waitOnQueue(
        _ what: String, file: StaticString = #filePath, line: UInt = #line, until condition: () -> Bool
    ) {
        let deadline = Date(timeIntervalSinceNow: 20)
        while !onQueue(condition) {
            guard Date() < deadline else { return XCTFail("\(what): not within 20 s", file: file, line: line) }
            usleep(500)
        }
    }
}

/// A result handed back from another thread.
private final class ThreadResult<R>: @unchecked Sendable {
    var result: Result<R, Error>?
}

/// Runs `body` on a new thread (not a queue) and returns what it returns.
func runOnNewThread<R: Sendable>(_ body: @escaping @Sendable () throws -> R) throws -> R {
    let box = ThreadResult<R>()
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        box.result = Result { try body() }
        done.signal()
    }
    thread.start()
    done.wait()
    return try XCTUnwrap(box.result).get()
}

/// The key of a managed object in its table (the identity the tests compare collections by).
func storeKey(_ object: Object) -> Int64 {
    (object.managedAccessor as? ManagedRow)?.key.rawValue ?? -1
}
