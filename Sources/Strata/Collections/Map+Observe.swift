import Foundation

extension Map where Key == String {
    /// Calls `block` with the map (`.initial`), then after every commit that changes its entries, or a watched
    /// property of an object it holds (`.update`, with the changed keys), until the token is invalidated or
    /// released. When the map's owner is deleted, every key is reported deleted.
    ///
    /// - Parameters:
    ///   - keyPaths: For a map of objects, the properties of its objects whose changes count as modifications;
    ///     `nil` counts them all.
    ///   - queue: The serial queue the block runs on (see ``Results/observe(keyPaths:on:_:)``).
    ///   - block: Called asynchronously with each change; `.error` for an unmanaged map.
    /// - Returns: The token that keeps the observation alive.
    public func observe(
        keyPaths: [String]? = nil, on queue: DispatchQueue? = nil,
        _ block: @escaping (MapChange<Map<String, Value>>) -> Void
    ) -> NotificationToken {
        guard let storage = managedStorage as? ManagedMapStorage<Value> else {
            block(.error(StrataError.invalidArgument(
                "observe on an unmanaged Map: add the object that holds it to a database first")))
            return .inert()
        }
        let database = storage.row.database
        database.confinement.check("Map.observe")
        return ObservationRegistration.register(database, on: queue, report: { block(.error($0)) }) { target in
            try MapObservation(storage: storage, on: target, keyPaths: keyPaths, block: block)
        }
    }

    /// The changes ``observe(keyPaths:on:_:)`` reports, as an `AsyncSequence` whose elements carry the map of a
    /// frozen snapshot.
    public var changes: AsyncStream<MapChange<Map<String, Value>>> {
        ChangeStream.make { queue, send in
            observe(on: queue) { change in send(change.map { try $0.frozenCopy() }) }
        }
    }

    /// The same map in a frozen snapshot of its database.
    func frozenCopy() throws -> Map<String, Value> {
        guard let storage = managedStorage as? ManagedMapStorage<Value> else { return self }
        let frozen = try storage.row.database.freeze()
        let row = ManagedRow(database: frozen, model: try frozen.model(like: storage.row.model), key: storage.row.key)
        return Map(managedBy: ManagedMapStorage<Value>(row: row, column: storage.column))
    }
}
