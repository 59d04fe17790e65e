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
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    private var held = false

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

    /// Waits until the gate is free and takes it.
    func enter() {
        pthread_mutex_lock(mutex)
        while held { pthread_cond_wait(condition, mutex) }
        held = true
        pthread_mutex_unlock(mutex)
    }

    /// Takes the gate if it is free; returns whether it was taken.
    func tryEnter() -> Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        if held { return false }
        held = true
        return true
    }

    /// Frees the gate and wakes one waiter.
    func leave() {
        pthread_mutex_lock(mutex)
        held = false
        pthread_cond_signal(condition)
        pthread_mutex_unlock(mutex)
    }
}
