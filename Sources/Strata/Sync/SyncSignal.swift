import Foundation

/// A wake-up call between threads and tasks: ``fire()`` wakes every task in ``wait(seconds:)``, or the next one
/// to wait when none is waiting.
final class SyncSignal: @unchecked Sendable {
    private let lock = NSLock()
    private var fired = false
    private var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
    private var nextID = 0

    /// Wakes the waiting tasks (or the next wait).
    func fire() {
        let woken = lock.withLock { () -> [CheckedContinuation<Void, Never>] in
            let all = Array(waiters.values)
            waiters = [:]
            if all.isEmpty { fired = true }
            return all
        }
        for waiter in woken { waiter.resume() }
    }

    /// Returns at the next ``fire()`` (at once if one came since the last wait), or after `seconds`.
    func wait(seconds: Double) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let id = lock.withLock { () -> Int? in
                if fired {
                    fired = false
                    return nil
                }
                nextID += 1
                waiters[nextID] = continuation
                return nextID
            }
            guard let id else {
                continuation.resume()
                return
            }
            Task {
                try? await Task.sleep(nanoseconds: UInt64(max(seconds, 0) * 1e9))
                self.resume(id)
            }
        }
    }

    private func resume(_ id: Int) {
        let waiter = lock.withLock { waiters.removeValue(forKey: id) }
        waiter?.resume()
    }
}
