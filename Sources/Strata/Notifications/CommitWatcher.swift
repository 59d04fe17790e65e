import Foundation
import StrataStorage

/// One thread per store per process that waits for commits (of this process, at once; of other processes,
/// through the lock file) while any database of the store has observers, and tells each such database's
/// notifier to schedule a delivery.
final class CommitWatcher: @unchecked Sendable {
    private static let lock = NSLock()
    /// Guarded by `lock`: the watcher of each store that has observers.
    nonisolated(unsafe) private static var watchers: [ObjectIdentifier: CommitWatcher] = [:]

    private let store: Store
    /// Guarded by `lock`.
    private var notifiers: [ObjectIdentifier: Notifier] = [:]
    /// How long one wait lasts before the thread checks whether it is still needed.
    private static let pollSeconds = 0.25

    /// The version the thread has told notifiers about; read at registration, before the thread runs, so that
    /// a commit made while the thread is starting is not taken for the starting point.
    private let startVersion: UInt64

    private init(store: Store) {
        self.store = store
        startVersion = store.latestCommittedVersion
    }

    /// Starts watching `notifier`'s store for it (starting the store's thread if it is the first).
    static func watch(_ notifier: Notifier) {
        lock.withLock {
            let id = ObjectIdentifier(notifier.store)
            if let watcher = watchers[id] {
                watcher.notifiers[ObjectIdentifier(notifier)] = notifier
                return
            }
            let watcher = CommitWatcher(store: notifier.store)
            watcher.notifiers[ObjectIdentifier(notifier)] = notifier
            watchers[id] = watcher
            let thread = Thread { watcher.run() }
            thread.name = "Strata commit watcher"
            thread.start()
        }
    }

    /// Stops watching for `notifier`; the thread ends once no notifier of its store is left.
    static func unwatch(_ notifier: Notifier) {
        lock.withLock {
            _ = watchers[ObjectIdentifier(notifier.store)]?.notifiers.removeValue(forKey: ObjectIdentifier(notifier))
        }
    }

    private func run() {
        var seen = startVersion
        while true {
            let latest = store.waitForCommit(after: seen, timeout: Self.pollSeconds)
            // Read after the wait, so a notifier added during it hears of the commit that ended it.
            let interested = Self.lock.withLock { () -> [Notifier]? in
                guard !notifiers.isEmpty else {
                    Self.watchers[ObjectIdentifier(store)] = nil
                    return nil
                }
                return Array(notifiers.values)
            }
            guard let interested else { return }
            guard latest > seen else { continue }
            seen = latest
            for notifier in interested { notifier.scheduleDelivery() }
        }
    }
}
