import Observation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Tells a property read whether it runs inside Swift's observation tracking (`withObservationTracking`, a
/// SwiftUI view's body), so that reads outside tracking cost one call and allocate nothing.
///
/// Observation gives no public way to ask "is tracking active?". A read asks its database's probe registrar to
/// record an access to ``ProbeSubject/keyPath``: outside tracking that returns at once; inside, Observation adds
/// the key path to the tracking's access list, which hashes it, and hashing its argument (``ProbeMark``) raises
/// this thread's flag. Only then does the read set up what tracking needs (a registrar of its own, an observation
/// of the store): see ``ManagedRow`` and ``Results``. `ObservationTrackingTests` fail if a later Observation stops
/// hashing the key paths it records.
///
/// The probe's own registration ends with the tracking (when a commit fires it, Observation cancels it on every
/// registrar), or with the database.
enum ObservationProbe {
    /// Whether the caller runs inside observation tracking. `registrar` is the database's probe registrar.
    @inline(__always)
    static func isTracking(_ registrar: ObservationRegistrar) -> Bool {
        registrar.access(ProbeSubject.shared, keyPath: ProbeSubject.keyPath)
        return TrackingFlag.take()
    }
}

/// The subject of the probe's key path: a value of no interest, whose key path carries a ``ProbeMark``.
final class ProbeSubject: Observable, Sendable {
    static let shared = ProbeSubject()
    /// Made once: recording it allocates nothing.
    static let keyPath: KeyPath<ProbeSubject, Bool> & Sendable = \ProbeSubject.[probe: ProbeMark()]

    /// Always `false`: only its key path is used.
    subscript(probe mark: ProbeMark) -> Bool { false }
}

/// The argument of the probe's key path: hashing it (which only a tracking's access list does) raises the
/// calling thread's flag.
struct ProbeMark: Hashable, Sendable {
    func hash(into hasher: inout Hasher) {
        TrackingFlag.raise()
        hasher.combine(0)
    }

    static func == (lhs: ProbeMark, rhs: ProbeMark) -> Bool { true }
}

/// One flag per thread (a POSIX thread-specific value), raised by ``ProbeMark`` and taken by the read that
/// asked. A flag raised by some other hashing of the key path (Observation's own bookkeeping when it installs or
/// fires a tracking) only makes the next read on that thread take the tracking path once, which costs a little
/// and changes nothing else: recording an access outside tracking does nothing.
enum TrackingFlag {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key, nil)
        precondition(status == 0, "Strata: pthread_key_create failed (\(status)) for the observation flag")
        return key
    }()

    /// Raises the calling thread's flag.
    static func raise() {
        _ = pthread_setspecific(key, UnsafeRawPointer(bitPattern: 1))
    }

    /// Whether the calling thread's flag was raised; lowers it.
    @inline(__always)
    static func take() -> Bool {
        guard pthread_getspecific(key) != nil else { return false }
        _ = pthread_setspecific(key, nil)
        return true
    }
}
