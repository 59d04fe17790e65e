import Foundation
import StrataStorage

extension Results {
    /// Calls `block` with the results once evaluated (`.initial`), then after every commit (of any thread or
    /// process) that changes them (`.update` with the indices that changed), until the token is invalidated or
    /// released.
    ///
    /// ```swift
    /// token = adults.observe(on: queue) { change in
    ///     if case .update(_, let deletions, let insertions, let modifications) = change { … }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - keyPaths: The properties whose changes count as modifications (`"name"`, or `"favourite.name"` one
    ///     link down); `nil` counts every property and every property of directly linked objects. Objects
    ///     entering, leaving or moving in the results are reported whatever the key paths.
    ///   - queue: The serial queue the block runs on, with results of a database confined to it. Without one,
    ///     the block runs on this database's queue, or the main queue for a database opened on the main thread.
    ///   - block: Called asynchronously with each change; `.error` ends the observation.
    /// - Returns: The token that keeps the observation alive.
    /// - Complexity: Per commit, O(*k* log *n*) for a query over one table's own columns (see NOTIFICATIONS.md),
    ///   otherwise a re-evaluation of the query.
    public func observe(
        keyPaths: [String]? = nil, on queue: DispatchQueue? = nil,
        _ block: @escaping (CollectionChange<Results<Element>>) -> Void
    ) -> NotificationToken {
        database.confinement.check("Results.observe")
        return ObservationRegistration.register(database, on: queue, report: { block(.error($0)) }) { target in
            try ResultsObservation(results: try placed(on: target), keyPaths: keyPaths, block: block)
        }
    }

    /// Like ``observe(keyPaths:on:_:)``, but with no `.initial`: the first call is an `.update` against the state
    /// the caller already read (`snapshot`, frozen when `keys` were read), so a commit landing between that read
    /// and the first delivery is reported as exactly what it changed. On another queue's database too: the
    /// snapshot is frozen, readable there, and the keys name the same objects in every database of the store.
    func observe(
        since snapshot: Database, keys: [ObjectKey], on queue: DispatchQueue? = nil,
        _ block: @escaping (CollectionChange<Results<Element>>) -> Void
    ) -> NotificationToken {
        database.confinement.check("Results.observe")
        return ObservationRegistration.register(database, on: queue, report: { block(.error($0)) }) { target in
            try ResultsObservation(
                results: try placed(on: target), keyPaths: nil, start: (snapshot, keys), block: block)
        }
    }

    /// These results on `target`, the database an observation was placed on (``ObserverPlacement``): themselves, or
    /// the same query on another queue's database of the store.
    private func placed(on target: Database) throws -> Results<Element> {
        guard target !== database else { return self }
        return Results(database: target, model: try target.model(like: model), query: query)
    }

    /// The changes ``observe(keyPaths:on:_:)`` reports, as an `AsyncSequence` whose elements carry frozen results
    /// (`Sendable`, readable from any task). Observation starts when the property is read and ends when the
    /// iteration ends.
    public var changes: AsyncStream<CollectionChange<Results<Element>>> {
        ChangeStream.make { queue, send in
            observe(on: queue) { change in send(change.frozen()) }
        }
    }
}

extension CollectionChange {
    /// The change with frozen results, so that it can cross to another task.
    fileprivate func frozen<Element: Object>() -> CollectionChange<Results<Element>> where Collection == Results<Element> {
        map { try $0.freeze() }
    }
}
