#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How threads waiting for a commit (`Store.waitForCommit`) are put to sleep and woken.
///
/// The newest version lives in the lock file's shared memory, so the signal is tied to it:
/// - on Linux a waiter sleeps on the low 32 bits of that version with a shared futex (`Futex`); a committing
///   thread of any process wakes the word right after publishing, so one mechanism serves this process's commits
///   and other processes' alike, without a watcher thread;
/// - elsewhere a waiter sleeps on a condition variable that this process's commits broadcast, waking every
///   `pollInterval` to look at the shared version for other processes' commits.
/// Either way a waiter also wakes every `sliceSeconds` to re-read the version, so a writer that died between
/// publishing and waking delays waiters by at most that much.
final class CommitSignal: @unchecked Sendable {
    /// How often a waiter looks at the shared version where no futex exists.
    static let pollInterval = 0.004
    /// The longest a futex sleep lasts before the waiter re-reads the version.
    static let sliceSeconds = 0.1

    private let state = LockedCondition()
    /// Threads between `enter` and `leave` (read by `wakeEveryWaiter`).
    private var waiters = 0
    /// Counts `notify` calls, so a condition-variable waiter can tell a broadcast from a spurious wake-up.
    private var generation: UInt64 = 0

    /// Counts a thread that waits for a commit, from before it first reads the version until it returns, so
    /// `wakeEveryWaiter` knows whom it still has to wake.
    func enter() {
        state.withLock { waiters += 1 }
    }

    /// Ends what `enter` began.
    func leave() {
        state.withLock { waiters -= 1 }
    }

    /// Sleeps until `word` (the low half of the shared version) no longer holds `expected`, a `notify`, or
    /// `seconds` pass. Returns early at times; the caller re-reads the version and decides. Call between `enter`
    /// and `leave`.
    func wait(on word: UnsafeMutableRawPointer, expected: UInt32, seconds: Double) {
        let seen = state.withLock { generation }
        if Futex.isSupported {
            Futex.wait(word, expected: expected, seconds: min(seconds, Self.sliceSeconds))
            return
        }
        let deadline = LockedCondition.deadline(after: min(seconds, Self.pollInterval))
        state.withLock {
            while generation == seen {
                if !state.wait(until: deadline) { break }
            }
        }
    }

    /// Wakes every waiter of this process (condition variable) and of every process (futex on `word`). Call
    /// after the new version is published.
    func notify(_ word: UnsafeMutableRawPointer) {
        state.withLock {
            generation &+= 1
            state.broadcast()
        }
        Futex.wake(word)
    }

    /// Wakes this process's waiters until none is left (the store is closing, and they return when they see it).
    /// A waiter may be just about to sleep when a wake-up passes, so wake again until the count drops to zero.
    func wakeEveryWaiter(_ word: UnsafeMutableRawPointer) {
        while true {
            notify(word)
            if state.withLock({ waiters }) == 0 { return }
            usleep(500)
        }
    }
}
