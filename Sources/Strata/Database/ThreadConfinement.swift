#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The thread a database (and every object, list and result it hands out) belongs to.
///
/// Using them from another thread stops the program with a message saying so, as in Realm; the ways across are
/// `ThreadSafeReference` and `freeze()`. Swift 6's strict concurrency already refuses, at compile time, to send
/// a `Database` or an `Object` to another isolation domain; this check catches what the compiler cannot see
/// (a database captured by `@unchecked Sendable` code, a C callback).
struct ThreadConfinement {
    private let owner: pthread_t
    /// Frozen databases may be read from any thread.
    let isFree: Bool

    /// Confined to the calling thread.
    static func current() -> ThreadConfinement { ThreadConfinement(owner: pthread_self(), isFree: false) }

    /// Usable from any thread (frozen snapshots).
    static func free() -> ThreadConfinement { ThreadConfinement(owner: pthread_self(), isFree: true) }

    /// Whether the calling thread may use the database.
    var isCurrentThreadAllowed: Bool { isFree || pthread_equal(owner, pthread_self()) != 0 }

    /// Stops the program when called from another thread.
    func check(_ what: @autoclosure () -> String) {
        precondition(
            isCurrentThreadAllowed,
            "Strata: \(what()) from a thread other than the one that opened its database. A Database, and the "
                + "objects, lists and results it hands out, belong to their thread: pass a ThreadSafeReference to "
                + "the other thread, or freeze() the data to share an immutable snapshot.")
    }
}
