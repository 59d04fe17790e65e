import Observation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Tells a read whether it runs inside Swift's observation tracking (`withObservationTracking`, a SwiftUI view's
/// body), so that reads outside tracking allocate nothing and take no lock.
///
/// Asking costs a call into Observation (its thread-local lookup, some reference counting: about as much as a
/// property read itself). Results reads (`count`, iteration), `objects(_:)` and primary-key lookups always ask;
/// property reads ask only once their database is armed (``Database/observationArmed``), which the first of those
/// found inside tracking does. A database never read under tracking pays a flag test per property read.
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
        // A flag left raised by Observation's own hashing of the key path (see `TrackingFlag`) is not an answer.
        _ = TrackingFlag.take()
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
/// asked. Observation also hashes the key path on its own (when it installs or fires a tracking), which leaves
/// the flag raised: the probe lowers it before asking.
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

extension Database {
    /// Arms property reads (``observationArmed``) when the caller runs inside observation tracking.
    @inline(__always)
    func armObservationIfTracking() {
        if !observationArmed, ObservationProbe.isTracking(observationProbe) { observationArmed = true }
    }
}
