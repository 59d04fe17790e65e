import Foundation

/// A wake-up call between threads and tasks, counted: ``fire()`` moves ``generation`` on and wakes every task in
/// ``wait(past:seconds:)`` whose generation it passes.
///
/// A caller reads ``generation`` before it looks for work, and waits past that reading once it found none: a fire
/// that came in between (while nobody waited) answers the wait at once. Each caller keeps its own reading, so one
/// fire serves every caller that had not seen it (the session's loop and a ``SyncSession/waitForUpload()`` beside
/// it both), instead of the first one to wait.
final class SyncSignal: @unchecked Sendable {
    private let lock = NSLock()
    private var fires: UInt64 = 0
    private var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
    /// The timeout of each waiter, cancelled when a ``fire()`` wakes it first (a session's upload loop waits once per
    /// commit it uploads: its timers would otherwise pile up, each sleeping out its 5 s).
    private var timers: [Int: Task<Void, Never>] = [:]
    private var nextID = 0

    /// How many fires so far: read it before looking for work, and wait past it.
    var generation: UInt64 { lock.withLock { fires } }

    /// How many waits have a timeout still running.
    var runningTimeouts: Int { lock.withLock { timers.count } }

    /// Wakes the waiting tasks.
    func fire() {
        let (woken, timeouts) = lock.withLock { () -> ([CheckedContinuation<Void, Never>], [Task<Void, Never>]) in
            fires += 1
            let all = Array(waiters.values)
            let timeouts = Array(timers.values)
            waiters = [:]
            timers = [:]
            return (all, timeouts)
        }
        for timer in timeouts { timer.cancel() }
        for waiter in woken { waiter.resume() }
    }

    /// Returns once ``generation`` passes `seen` (at once if it has already), or after `seconds`.
    func wait(past seen: UInt64, seconds: Double) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let id = lock.withLock { () -> Int? in
                if fires > seen { return nil }
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
