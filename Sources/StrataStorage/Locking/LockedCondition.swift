#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A mutex with its condition variable (pthread), allocated once at a stable address as pthread objects require:
/// for threads that sleep until another thread changes some state guarded by the mutex.
final class LockedCondition: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Runs `body` with the mutex held.
    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Inside `withLock`: sleeps until signalled, the mutex released meanwhile. May return spuriously, so call it
    /// in a loop that re-checks the state.
    func wait() {
        pthread_cond_wait(condition, mutex)
    }

    /// Inside `withLock`: like `wait()`, but gives up at `deadline` (`CLOCK_REALTIME`); returns false then.
    func wait(until deadline: timespec) -> Bool {
        var limit = deadline
        return pthread_cond_timedwait(condition, mutex, &limit) == 0
    }

    /// Inside `withLock`: wakes one sleeper.
    func signal() {
        pthread_cond_signal(condition)
    }

    /// Inside `withLock`: wakes every sleeper.
    func broadcast() {
        pthread_cond_broadcast(condition)
    }

    /// The absolute `CLOCK_REALTIME` time `seconds` from now, as `wait(until:)` wants it.
    static func deadline(after seconds: Double) -> timespec {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let nanoseconds = Int(now.tv_nsec) + Int(max(0, seconds) * 1e9)
        return timespec(tv_sec: now.tv_sec + nanoseconds / 1_000_000_000, tv_nsec: nanoseconds % 1_000_000_000)
    }
}
