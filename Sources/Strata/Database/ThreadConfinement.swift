import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The thread, Swift task, actor or serial queue a database (and every object, list and result it hands out)
/// belongs to.
///
/// Using them from elsewhere stops the program with a message saying so, as in Realm; the ways across are
/// `ThreadSafeReference` and `freeze()`. Swift 6's strict concurrency already refuses, at compile time, to send
/// a `Database` or an `Object` to another isolation domain; this check catches what the compiler cannot see
/// (a database captured by `@unchecked Sendable` code, a C callback).
///
/// A database opened inside a Swift task (off the main thread) belongs to the task, not to the thread it was
/// opened on: a task resumes on any thread of the pool after an `await`, and never runs on two at once, so the
/// database follows it. Realm confines such a Realm to the thread and stops the program at the first `await`
/// that lands elsewhere ("Realm accessed from incorrect thread").
struct ThreadConfinement {
    private let owner: pthread_t
    /// The task a database opened inside a Swift task (off the main thread) belongs to, by identity.
    private let task: Int?
    /// The actor a database opened with `Database(configuration:actor:)` belongs to (not retained: the actor
    /// usually holds the database).
    private weak var actor: (any Actor)?
    /// Whether the database belongs to `actor` (which may since have been released).
    private let isActorConfined: Bool
    /// Frozen databases may be read from any thread.
    let isFree: Bool
    /// For a database confined to a serial queue: the queue, and the mark it carries.
    let queue: DispatchQueue?
    private let queueMark: QueueMark?

    /// Confined to the calling task when called inside a Swift task off the main thread, otherwise to the calling
    /// thread.
    static func current() -> ThreadConfinement {
        let isMainThread = isOnMainThread()
        return ThreadConfinement(
            owner: pthread_self(), task: isMainThread ? nil : currentTask(), isActorConfined: false, isFree: false,
            queue: nil, queueMark: nil, isMainThread: isMainThread)
    }

    /// Usable from any thread (frozen snapshots).
    static func free() -> ThreadConfinement {
        ThreadConfinement(
            owner: pthread_self(), task: nil, isActorConfined: false, isFree: true, queue: nil, queueMark: nil,
            isMainThread: false)
    }

    /// Confined to the serial `queue`: usable from whatever thread runs the queue's blocks.
    static func queue(_ queue: DispatchQueue) -> ThreadConfinement {
        ThreadConfinement(
            owner: pthread_self(), task: nil, isActorConfined: false, isFree: false, queue: queue,
            queueMark: QueueMark.mark(queue), isMainThread: false)
    }

    /// Confined to `actor`: usable from code isolated to it, on whatever task or thread.
    static func actor(_ actor: any Actor) -> ThreadConfinement {
        var confinement = ThreadConfinement(
            owner: pthread_self(), task: nil, isActorConfined: true, isFree: false, queue: nil, queueMark: nil,
            isMainThread: false)
        confinement.actor = actor
        return confinement
    }

    /// The identity of the Swift task running the caller, nil outside tasks. A task's identity may be reused once
    /// it has ended, which cannot make two uses overlap: the owner has ended.
    private static func currentTask() -> Int? { withUnsafeCurrentTask { $0?.hashValue } }

    /// Whether the database was opened on the main thread (and is not confined to a queue).
    let isMainThread: Bool

    /// Whether the calling thread may use the database.
    var isCurrentThreadAllowed: Bool {
        if isFree { return true }
        if let queueMark { return DispatchQueue.getSpecific(key: QueueMark.key) === queueMark }
        if let task { return Self.currentTask() == task }
        if isActorConfined {
            // Swift has no question "is this code isolated to that actor?" that does not stop the program when the
            // answer is no (with its own message, naming the actor); a no is the stop `check` would make anyway.
            guard let actor else { return false }
            actor.preconditionIsolated(
                Self.misuse("was used outside the actor it is confined to", "a database, or something it handed out,"))
            return true
        }
        return pthread_equal(owner, pthread_self()) != 0
    }

    /// Stops the program when called from another thread.
    func check(_ what: @autoclosure () -> String) {
        if isActorConfined, let actor {
            actor.preconditionIsolated(Self.misuse("outside the actor its database is confined to", what()))
            return
        }
        guard !isCurrentThreadAllowed else { return }
        let owner = queue.map { "outside the queue '\($0.label)' its database is confined to" }
            ?? (task != nil ? "outside the Swift task that opened its database"
                : isActorConfined ? "after the actor its database was confined to was released"
                : "from a thread other than the one that opened its database")
        preconditionFailure(Self.misuse(owner, what()))
    }

    /// The message a use from the wrong place stops with.
    private static func misuse(_ owner: String, _ what: String) -> String {
        "Strata: \(what) \(owner). A Database, and the objects, lists and results it hands out, belong to their "
            + "thread, task, actor or queue: pass a ThreadSafeReference across, or freeze() the data to share an "
            + "immutable snapshot."
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
