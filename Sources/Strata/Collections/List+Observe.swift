import Foundation

extension List {
    /// Calls `block` with the list (`.initial`), then after every commit that changes its elements, or a
    /// watched property of an object it holds (`.update`; the indices come from a shortest edit script, so an
    /// object held twice is tracked by position), until the token is invalidated or released. When the
    /// list's owner is deleted, every element is reported deleted.
    ///
    /// - Parameters:
    ///   - keyPaths: For a list of objects, the properties of its objects whose changes count as
    ///     modifications; `nil` counts them all.
    ///   - queue: The serial queue the block runs on (see ``Results/observe(keyPaths:on:_:)``).
    ///   - block: Called asynchronously with each change; `.error` for an unmanaged list.
    /// - Returns: The token that keeps the observation alive.
    public func observe(
        keyPaths: [String]? = nil, on queue: DispatchQueue? = nil,
        _ block: @escaping (CollectionChange<List<Element>>) -> Void
    ) -> NotificationToken {
        guard let storage = managedStorage as? ManagedListStorage<Element> else {
            block(.error(StrataError.invalidArgument(
                "observe on an unmanaged List: add the object that holds it to a database first")))
            return .inert()
        }
        let database = storage.row.database
        database.confinement.check("List.observe")
        return ObservationRegistration.register(database, on: queue, report: { block(.error($0)) }) { target in
            try ElementsObservation(
                row: storage.row, column: storage.column, on: target, keyPaths: keyPaths,
                read: { table, key, column in try table.list(key, column: column) },
                make: { List(managedBy: ManagedListStorage<Element>(row: $0, column: storage.column)) }, block: block)
        }
    }

    /// The changes ``observe(keyPaths:on:_:)`` reports, as an `AsyncSequence` whose elements carry the list of a
    /// frozen snapshot.
    public var changes: AsyncStream<CollectionChange<List<Element>>> {
        ChangeStream.make { queue, send in
            observe(on: queue) { change in send(change.map { try $0.frozenCopy() }) }
        }
    }

    /// The same list in a frozen snapshot of its database.
    func frozenCopy() throws -> List<Element> {
        guard let storage = managedStorage as? ManagedListStorage<Element> else { return self }
        let frozen = try storage.row.database.freeze()
        let row = ManagedRow(database: frozen, model: try frozen.model(like: storage.row.model), key: storage.row.key)
        return List(managedBy: ManagedListStorage<Element>(row: row, column: storage.column))
    }
}
