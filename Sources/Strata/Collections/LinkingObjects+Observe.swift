import Foundation

extension LinkingObjects {
    /// Calls `block` with the linking objects (`.initial`), then after every commit that adds or removes one or
    /// changes a watched property of one (`.update`), until the token is invalidated or released.
    ///
    /// - Parameters:
    ///   - keyPaths: The properties of the linking objects whose changes count as modifications; `nil` counts
    ///     them all.
    ///   - queue: The serial queue the block runs on (see ``Results/observe(keyPaths:on:_:)``).
    ///   - block: Called asynchronously with each change; `.error` for the linking objects of an unmanaged object.
    /// - Returns: The token that keeps the observation alive.
    public func observe(
        keyPaths: [String]? = nil, on queue: DispatchQueue? = nil,
        _ block: @escaping (CollectionChange<LinkingObjects<Element>>) -> Void
    ) -> NotificationToken {
        guard let storage = managedStorage as? ManagedLinkingObjects<Element> else {
            block(.error(StrataError.invalidArgument(
                "observe on the linking objects of an unmanaged object: add the object to a database first")))
            return .inert()
        }
        let database = storage.target.database
        database.confinement.check("LinkingObjects.observe")
        return ObservationRegistration.register(database, on: queue, report: { block(.error($0)) }) { target in
            try LinkingObjectsObservation(
                storage: storage, property: propertyName, on: target, keyPaths: keyPaths, block: block)
        }
    }

    /// The changes ``observe(keyPaths:on:_:)`` reports, as an `AsyncSequence` whose elements carry the linking
    /// objects of a frozen snapshot.
    public var changes: AsyncStream<CollectionChange<LinkingObjects<Element>>> {
        ChangeStream.make { queue, send in
            observe(on: queue) { change in send(change.map { try $0.frozenCopy() }) }
        }
    }

    /// The same linking objects in a frozen snapshot of their database.
    func frozenCopy() throws -> LinkingObjects<Element> {
        guard let storage = managedStorage as? ManagedLinkingObjects<Element> else { return self }
        let frozen = try storage.target.database.freeze()
        let target = ManagedRow(database: frozen, model: try frozen.model(like: storage.target.model), key: storage.target.key)
        return LinkingObjects(
            property: propertyName,
            managedBy: ManagedLinkingObjects<Element>(
                target: target, source: storage.source, sourceColumn: storage.sourceColumn,
                intermediate: storage.intermediate))
    }
}
