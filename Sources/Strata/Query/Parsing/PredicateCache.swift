import Synchronization

/// The parses of predicate strings, by format string, shared by every database of the process.
///
/// An app filters with a handful of format strings, each many times with other arguments (`name == %@` in a
/// loop); parsing is a third of such a lookup's cost, and a parse holds argument slots, not arguments, so it can
/// be reused as is. The cache is bounded: a program that builds format strings by interpolation (instead of
/// passing arguments) would otherwise fill it forever, so when it is full it starts over.
final class PredicateCache: Sendable {
    /// The cache `filter` uses.
    static let shared = PredicateCache(capacity: 256)

    /// How many format strings are kept at most.
    let capacity: Int
    private let entries: Mutex<[String: ParsedPredicate]>

    init(capacity: Int) {
        self.capacity = Swift.max(1, capacity)
        entries = Mutex([:])
    }

    /// The parse of `format`, parsed now if it is not kept yet. Malformed strings are not kept.
    ///
    /// - Throws: `StrataError.invalidPredicate` naming the offending token and its offset.
    func parsed(_ format: String) throws -> ParsedPredicate {
        if let kept = entries.withLock({ $0[format] }) { return kept }
        let parsed = try ParsedPredicate(parsing: format)
        entries.withLock { entries in
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[format] = parsed
        }
        return parsed
    }

    /// How many format strings are kept now.
    var count: Int { entries.withLock { $0.count } }
}
