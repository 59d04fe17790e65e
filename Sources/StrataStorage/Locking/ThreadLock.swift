#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A mutual-exclusion lock between threads of one process (`pthread_mutex`), held only for short sections.
final class ThreadLock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the lock held.
    @inline(__always)
    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}

/// A gate one holder at a time may pass, released from any thread (a write transaction may be committed on a
/// different thread than the one that began it, which a mutex forbids).
final class WriterGate: @unchecked Sendable {
    private let state = LockedCondition()
    private var held = false

    /// Waits until the gate is free and takes it.
    func enter() {
        state.withLock {
            while held { state.wait() }
            held = true
        }
    }

    /// Takes the gate if it is free; returns whether it was taken.
    func tryEnter() -> Bool {
        state.withLock {
            if held { return false }
            held = true
            return true
        }
    }

    /// Frees the gate and wakes one waiter.
    func leave() {
        state.withLock {
            held = false
            state.signal()
        }
    }
}
