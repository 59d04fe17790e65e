/// What a reader pins: the version it reads and the commit-log generation it reads it through (lock file format 3;
/// docs/ARCHITECTURE.md, "Commit path", "Why readers stay right").
///
/// A version's pages are never reused while it is pinned (the free space's rule), and a generation's log file is
/// never reset while it is pinned: a checkpoint of generation g may begin g + 1 in the file of g − 1 only once no
/// reader pins g − 1. Both only grow with time, so a process's oldest pin by version is also its oldest by
/// generation.
struct ReaderPin: Hashable, Comparable, Sendable {
    /// The version read.
    var version: UInt64
    /// The log generation read through (0 while the store has no log).
    var generation: UInt64

    static func < (lhs: ReaderPin, rhs: ReaderPin) -> Bool {
        (lhs.version, lhs.generation) < (rhs.version, rhs.generation)
    }
}
