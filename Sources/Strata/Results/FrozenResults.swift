/// Frozen results that may cross tasks, actors and threads: `Sendable`, unlike ``Results``.
///
/// Live results belong to their database's thread, task or actor, so `Results` does not claim `Sendable`; frozen
/// ones read one version that never changes. Wrap them in this to hand them over, then read them (or their
/// ``results``, with the whole `Results` API) on the other side. For plain values that cross freely, use the
/// models' snapshots (docs/CONCURRENCY.md).
///
/// ```swift
/// let shared = try FrozenResults(db.objects(Member.self).filter("age >= 18"))
/// Task.detached { print(shared.count, shared.first?.fullName ?? "") }
/// ```
public struct FrozenResults<Element: Object>: RandomAccessCollection {
    /// The frozen results, with the whole `Results` API (filter, sort, aggregates), all answered from their
    /// frozen version.
    public let results: Results<Element>

    /// Wraps `results`, freezing them first when they are live.
    ///
    /// - Throws: `StrataError.transactionMisuse` when `results` are live and their database is inside a write.
    public init(_ results: Results<Element>) throws {
        self.results = results.isFrozen ? results : try results.freeze()
    }

    /// Always `0`.
    public var startIndex: Int { 0 }
    /// The number of objects.
    public var endIndex: Int { results.endIndex }
    /// The object at `index`, of the frozen snapshot.
    public subscript(index: Int) -> Element { results[index] }
    /// Iterates the objects of the frozen snapshot.
    public func makeIterator() -> Results<Element>.Iterator { results.makeIterator() }
}

// Why `@unchecked`: the compiler cannot see that a `Results` over a frozen database is safe to share. The
// initializer only ever holds frozen results; a frozen database reads one version that nothing changes (writing
// to it throws), and every read of it, its results and its objects takes its lock (`Database.withAccess`), so
// any number of threads may read one at once. `ThreadingTests.testFrozenResultsAreReadByManyThreadsAtOnce` reads
// one from eight threads at the same time.
extension FrozenResults: @unchecked Sendable {}
