import Foundation

/// A wake-up call between threads and tasks: ``fire()`` wakes every task in ``wait(seconds:)``, or the next one
/// to wait when none is waiting.
final class SyncSignal: @unchecked Sendable {
    private let lock = NSLock()
    private var fired = false
    private var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
    /// The timeout of each waiter, cancelled when a ``fire()`` wakes it first (a session's upload loop waits once per
    /// commit it uploads: its timers would otherwise pile up, each sleeping out its 5 s).
    private var timers: [Int: Task<Void, Never>] = [:]
    private var nextID = 0

    /// How many waits have a timeout still running.
    var runningTimeouts: Int { lock.withLock { timers.count } }

    /// Wakes the waiting tasks (or the next wait).
    func fire() {
        let (woken, timeouts) = lock.withLock { () -> ([CheckedContinuation<Void, Never>], [Task<Void, Never>]) in
            let all = Array(waiters.values)
            let timeouts = Array(timers.values)
            waiters = [:]
            timers = [:]
            if all.isEmpty { fired = true }
            return (all, timeouts)
        }
        for timer in timeouts { timer.cancel() }
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
            let timer = Task {
                try? await Task.sleep(nanoseconds: UInt64(max(seconds, 0) * 1e9))
                self.resume(id)
            }
            lock.withLock {
                // Woken already (between registering and here): nothing left for the timer to do.
                if waiters[id] == nil { timer.cancel() } else { timers[id] = timer }
            }
        }
    }

    private func resume(_ id: Int) {
        let waiter = lock.withLock { () -> CheckedContinuation<Void, Never>? in
            timers[id] = nil
            return waiters.removeValue(forKey: id)
        }
        waiter?.resume()
    }
}
