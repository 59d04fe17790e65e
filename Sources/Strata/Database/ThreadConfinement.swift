import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The thread or serial queue a database (and every object, list and result it hands out) belongs to.
///
/// Using them from elsewhere stops the program with a message saying so, as in Realm; the ways across are
/// `ThreadSafeReference` and `freeze()`. Swift 6's strict concurrency already refuses, at compile time, to send
/// a `Database` or an `Object` to another isolation domain; this check catches what the compiler cannot see
/// (a database captured by `@unchecked Sendable` code, a C callback).
struct ThreadConfinement {
    private let owner: pthread_t
    /// Frozen databases may be read from any thread.
    let isFree: Bool
    /// For a database confined to a serial queue: the queue, and the mark it carries.
    let queue: DispatchQueue?
    private let queueMark: QueueMark?

    /// Confined to the calling thread.
    static func current() -> ThreadConfinement {
        ThreadConfinement(
            owner: pthread_self(), isFree: false, queue: nil, queueMark: nil, isMainThread: isOnMainThread())
    }

    /// Usable from any thread (frozen snapshots).
    static func free() -> ThreadConfinement {
        ThreadConfinement(owner: pthread_self(), isFree: true, queue: nil, queueMark: nil, isMainThread: false)
    }

    /// Confined to the serial `queue`: usable from whatever thread runs the queue's blocks.
    static func queue(_ queue: DispatchQueue) -> ThreadConfinement {
        ThreadConfinement(
            owner: pthread_self(), isFree: false, queue: queue, queueMark: QueueMark.mark(queue), isMainThread: false)
    }

    /// Whether the database was opened on the main thread (and is not confined to a queue).
    let isMainThread: Bool

    /// Whether the calling thread may use the database.
    var isCurrentThreadAllowed: Bool {
        if isFree { return true }
        if let queueMark { return DispatchQueue.getSpecific(key: QueueMark.key) === queueMark }
        return pthread_equal(owner, pthread_self()) != 0
    }

    /// Stops the program when called from another thread.
    func check(_ what: @autoclosure () -> String) {
        guard !isCurrentThreadAllowed else { return }
        let owner = queue.map { "outside the queue '\($0.label)' its database is confined to" }
            ?? "from a thread other than the one that opened its database"
        preconditionFailure(
            "Strata: \(what()) \(owner). A Database, and the objects, lists and results it hands out, belong to "
                + "their thread or queue: pass a ThreadSafeReference across, or freeze() the data to share an "
                + "immutable snapshot.")
    }
}

/// The mark a serial queue carries once a database is confined to it, so that code running on it is recognized
/// with `DispatchQueue.getSpecific` (a queue has no thread of its own to compare).
final class QueueMark: @unchecked Sendable {
    static let key = DispatchSpecificKey<QueueMark>()
    private static let lock = NSLock()

    /// The queue's mark, set on first use.
    static func mark(_ queue: DispatchQueue) -> QueueMark {
        lock.withLock {
            if let existing = queue.getSpecific(key: key) { return existing }
            let mark = QueueMark()
            queue.setSpecific(key: key, value: mark)
            return mark
        }
    }
}

/// Whether the calling thread is the process's main thread (where the main queue runs).
func isOnMainThread() -> Bool { Thread.isMainThread }
