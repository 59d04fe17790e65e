import Foundation
import StrataStorage

/// Tells the pages that are open when the file changes: one thread waits for commits with Strata's own commit
/// notification (`Store.waitForCommit`, which a commit of this process or of another process with the file open
/// wakes at once on Linux) and hands each new version to every subscriber.
final class ChangeFeed: @unchecked Sendable {
    private let store: Store?
    private let lock = NSLock()
    /// Guarded by `lock`.
    private var subscribers: [UUID: AsyncStream<UInt64>.Continuation] = [:]
    /// Guarded by `lock`.
    private var stopped = false
    /// Guarded by `lock`.
    private var started = false

    /// A feed of `store`'s commits (none when the file did not open).
    init(store: Store?) {
        self.store = store
    }

    /// The versions committed from now on, until the subscriber stops iterating or the feed stops.
    func subscribe() -> AsyncStream<UInt64> {
        let (stream, continuation) = AsyncStream<UInt64>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let id = UUID()
        let accepted = lock.withLock { () -> Bool in
            guard !stopped else { return false }
            subscribers[id] = continuation
            return true
        }
        if !accepted { continuation.finish() }
        continuation.onTermination = { [weak self] _ in
            _ = self?.lock.withLock { self?.subscribers.removeValue(forKey: id) }
        }
        start()
        return stream
    }

    /// Ends every subscription and the thread.
    func stop() {
        let ending = lock.withLock { () -> [AsyncStream<UInt64>.Continuation] in
            stopped = true
            defer { subscribers = [:] }
            return Array(subscribers.values)
        }
        for continuation in ending { continuation.finish() }
    }

    private func start() {
        guard let store else { return }
        let first = lock.withLock { () -> Bool in
            defer { started = true }
            return !started && !stopped
        }
        guard first else { return }
        let thread = Thread { [self] in run(store) }
        thread.name = "Strata Studio change feed"
        thread.start()
    }

    private func run(_ store: Store) {
        var seen = store.latestCommittedVersion
        while !lock.withLock({ stopped }) {
            let latest = store.waitForCommit(after: seen, timeout: 0.25)
            guard latest > seen else { continue }
            seen = latest
            let current = lock.withLock { Array(subscribers.values) }
            for continuation in current { continuation.yield(latest) }
        }
    }
}
