import Foundation

extension MutableSet {
    /// Calls `block` with the set (`.initial`), then after every commit that changes its elements, or a watched
    /// property of an object it holds (`.update`), until the token is invalidated or released. Indices are
    /// positions in the set's order, the store's element order (docs/NOTIFICATIONS.md, "Sets and maps"): deletions
    /// in the old set, insertions and modifications in the new one. When the set's owner is deleted, every element
    /// is reported deleted.
    ///
    /// - Parameters:
    ///   - keyPaths: For a set of objects, the properties of its objects whose changes count as modifications;
    ///     `nil` counts them all.
    ///   - queue: The serial queue the block runs on (see ``Results/observe(keyPaths:on:_:)``).
    ///   - block: Called asynchronously with each change; `.error` for an unmanaged set.
    /// - Returns: The token that keeps the observation alive.
    public func observe(
        keyPaths: [String]? = nil, on queue: DispatchQueue? = nil,
        _ block: @escaping (CollectionChange<MutableSet<Element>>) -> Void
    ) -> NotificationToken {
        guard let storage = managedStorage as? ManagedSetStorage<Element> else {
            block(.error(StrataError.invalidArgument(
                "observe on an unmanaged MutableSet: add the object that holds it to a database first")))
            return .inert()
        }
        let database = storage.row.database
        database.confinement.check("MutableSet.observe")
        return ObservationRegistration.register(database, on: queue, report: { block(.error($0)) }) { target in
            try ElementsObservation(
                row: storage.row, column: storage.column, on: target, keyPaths: keyPaths,
                read: { table, key, column in try table.setElements(key, column: column) },
                make: { MutableSet(managedBy: ManagedSetStorage<Element>(row: $0, column: storage.column)) },
                block: block)
        }
    }

    /// The changes ``observe(keyPaths:on:_:)`` reports, as an `AsyncSequence` whose elements carry the set of a
    /// frozen snapshot.
    public var changes: AsyncStream<CollectionChange<MutableSet<Element>>> {
        ChangeStream.make { queue, send in
            observe(on: queue) { change in send(change.map { try $0.frozenCopy() }) }
        }
    }

    /// The same set in a frozen snapshot of its database.
    func frozenCopy() throws -> MutableSet<Element> {
        guard let storage = managedStorage as? ManagedSetStorage<Element> else { return self }
        let frozen = try storage.row.database.freeze()
        let row = ManagedRow(database: frozen, model: try frozen.model(like: storage.row.model), key: storage.row.key)
        return MutableSet(managedBy: ManagedSetStorage<Element>(row: row, column: storage.column))
    }
}
