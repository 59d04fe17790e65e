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
///
/// A database opened on the main thread, or in code running on the main queue or the main actor, belongs to the
/// main queue and the main actor, not to one thread: on Linux, once `dispatchMain()` runs (and a program with a
/// top-level `await` runs it implicitly) the main queue and the main actor run on another thread than the one the
/// program started on.
struct ThreadConfinement {
    /// Who may use the database.
    private enum Owner {
        /// The main thread, the main queue and the main actor, wherever they run; with the thread that opened the
        /// database, compared first because it is the cheapest check (`Thread.isMainThread` costs about 330 ns
        /// on Linux, `pthread_equal` under a nanosecond, the main queue's mark about 15 ns).
        case main(opener: pthread_t)
        /// The thread that opened it.
        case thread(pthread_t)
        /// The Swift task that opened it off the main thread, by identity (see `currentTask`).
        case task(Int)
        /// An actor (`Database(configuration:actor:)`).
        case actor(ActorReference)
        /// A serial queue, recognized by the mark it carries.
        case queue(DispatchQueue, QueueMark)
        /// Anyone: frozen snapshots.
        case anyone
    }

    private let owner: Owner
    /// The thread a `.main` or `.thread` owner names, compared first by ``isCurrentThreadAllowed`` without copying
    /// the owner (an enum whose other cases hold counted references, so every read of it copied and destroyed
    /// it: two calls on every property read).
    private let thread: pthread_t?

    private init(owner: Owner) {
        self.owner = owner
        switch owner {
        case .main(let opener): thread = opener
        case .thread(let thread): self.thread = thread
        case .task, .actor, .queue, .anyone: thread = nil
        }
    }

    /// Whether the database belongs to the main thread, queue and actor (and delivers on the main queue).
    var isMain: Bool {
        if case .main = owner { return true }
        return false
    }

    /// Confined to the main queue and actor when called from them (or the main thread); otherwise to the calling
    /// task inside a Swift task, and to the calling thread outside one.
    static func current() -> ThreadConfinement {
        // The main thread first: a database opened there (the usual case) then leaves the main queue's mark unset
        // until a read from another thread needs it (see `isOnMain`), which spares the open setting it up.
        if Thread.isMainThread || isOnMain() { return ThreadConfinement(owner: .main(opener: pthread_self())) }
        return ThreadConfinement(owner: currentTask().map(Owner.task) ?? .thread(pthread_self()))
    }

    /// Usable from any thread (frozen snapshots).
    static func free() -> ThreadConfinement { ThreadConfinement(owner: .anyone) }

    /// Confined to the serial `queue`: usable from whatever thread runs the queue's blocks.
    static func queue(_ queue: DispatchQueue) -> ThreadConfinement {
        ThreadConfinement(owner: .queue(queue, QueueMark.mark(queue)))
    }

    /// Confined to `actor`: usable from code isolated to it, on whatever task or thread.
    static func actor(_ actor: any Actor) -> ThreadConfinement {
        ThreadConfinement(owner: .actor(ActorReference(actor)))
    }

    /// The identity of the Swift task running the caller, nil outside tasks. A task's identity may be reused once
    /// it has ended, which cannot make two uses overlap: the owner has ended.
    private static func currentTask() -> Int? { withUnsafeCurrentTask { $0?.hashValue } }

    /// Whether any thread may use the database (a frozen snapshot).
    var isFree: Bool {
        if case .anyone = owner { return true }
        return false
    }

    /// For a database confined to a serial queue: the queue.
    var queue: DispatchQueue? {
        if case .queue(let queue, _) = owner { return queue }
        return nil
    }

    /// Whether the calling thread may use the database.
    @inline(__always)
    var isCurrentThreadAllowed: Bool {
        // The opener's thread first: every property read asks, from the thread that opened the database.
        if let thread, pthread_equal(thread, pthread_self()) != 0 { return true }
        return isAllowedByOwner
    }

    /// ``isCurrentThreadAllowed`` by the owner, once the opener's thread (``thread``) did not match: a `.main` owner
    /// then allows only the main thread, a `.thread` owner nothing more.
    @inline(never)
    private var isAllowedByOwner: Bool {
        switch owner {
        case .anyone: return true
        case .main: return isOnMain()
        case .thread: return false
        case .task(let task): return Self.currentTask() == task
        case .queue(_, let mark): return DispatchQueue.getSpecific(key: QueueMark.key) === mark
        case .actor(let reference):
            // Swift has no question "is this code isolated to that actor?" that does not stop the program when the
            // answer is no (with its own message, naming the actor); a no is the stop `check` would make anyway.
            guard let actor = reference.actor else { return false }
            actor.preconditionIsolated(
                Self.misuse("was used outside the actor it is confined to", "a database, or something it handed out,"))
            return true
        }
    }

    /// Stops the program when called from a thread, task or actor other than the owner.
    func check(_ what: @autoclosure () -> String) {
        guard !isCurrentThreadAllowed else { return }
        let place = switch owner {
        case .queue(let queue, _): "outside the queue '\(queue.label)' its database is confined to"
        case .main:
            "from a thread other than the main thread (outside the main queue and main actor) its database belongs to"
        case .task: "outside the Swift task that opened its database"
        case .actor: "after the actor its database was confined to was released"
        case .thread, .anyone: "from a thread other than the one that opened its database"
        }
        preconditionFailure(Self.misuse(place, what()))
    }

    /// The message a use from the wrong place stops with.
    private static func misuse(_ place: String, _ what: String) -> String {
        "Strata: \(what) \(place). A Database, and the objects, lists and results it hands out, belong to their "
            + "thread, task, actor or queue: pass a ThreadSafeReference across, or freeze() the data to share an "
            + "immutable snapshot."
    }
}

/// An actor held without being retained: the actor usually holds the database that refers to it.
final class ActorReference {
    private(set) weak var actor: (any Actor)?
    init(_ actor: any Actor) { self.actor = actor }
}

/// The mark a serial queue carries once a database is confined to it, so that code running on it is recognized
/// with `DispatchQueue.getSpecific` (a queue has no thread of its own to compare).
final class QueueMark: @unchecked Sendable {
    static let key = DispatchSpecificKey<QueueMark>()
    private static let lock = NSLock()
    /// The main queue's mark.
    static let main = mark(.main)

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

/// Whether the caller runs on the main thread, or in a block of the main queue (which runs the main actor's jobs).
///
/// The main thread alone is not enough: on Linux, once `dispatchMain()` has been called (a program with a
/// top-level `await` calls it implicitly), the main queue and the main actor run on another thread, and
/// `Thread.isMainThread` is false there. The main queue carries a mark that code running on it can see.
func isOnMain() -> Bool {
    let main = QueueMark.main  // set on the main queue on first use, before a block of it could look for it
    // The mark first: on the main thread outside any block it reads as the main queue's too, and it costs far
    // less than `Thread.isMainThread` (about 15 against 330 ns on Linux), which only the rare rest reaches.
    return DispatchQueue.getSpecific(key: QueueMark.key) === main || Thread.isMainThread
}
