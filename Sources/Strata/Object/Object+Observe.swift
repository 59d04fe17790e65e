import Foundation

/// The models whose objects can be observed: every generated model (through `Object`). A protocol so that the
/// block receives the model's own type (`ObjectChange<Person>`), which a class method cannot spell.
public protocol ObservableModel: AnyObject {}

extension ObjectBase: ObservableModel {}

extension ObservableModel where Self: ObjectBase {
    /// Calls `block` after every commit (of any thread or process) that changes a watched property of this
    /// object (`.change` with each property's name, old and new value) or deletes it (`.deleted`, the last
    /// call), until the token is invalidated or released. There is no initial call.
    ///
    /// ```swift
    /// token = counter.observe(keyPaths: ["steps"], on: queue) { change in
    ///     if case .change(_, let properties) = change { … }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - keyPaths: The properties that count (`"name"`, or `"favourite.name"` one link down, reported as a
    ///     change of `favourite`); `nil` counts every property and every property of directly linked objects.
    ///   - queue: The serial queue the block runs on (see ``Results/observe(keyPaths:on:_:)``).
    ///   - block: Called asynchronously with each change; `.error` for an unmanaged or deleted object.
    /// - Returns: The token that keeps the observation alive.
    public func observe(
        keyPaths: [String]? = nil, on queue: DispatchQueue? = nil, _ block: @escaping (ObjectChange<Self>) -> Void
    ) -> NotificationToken {
        guard let row = managedAccessor as? ManagedRow, !row.isInvalidated else {
            block(.error(StrataError.invalidArgument(
                "observe on an unmanaged or deleted \(Self.self): add it to a database first")))
            return .inert()
        }
        let database = row.database
        database.confinement.check("Object.observe")
        // Changes are reported from the version the object is read at now.
        let baseline = database.isInWriteTransaction || database.isFrozen ? nil : try? database.freeze()
        return ObservationRegistration.register(database, on: queue, report: { block(.error($0)) }) { target in
            try ObjectObservation<Self>(row: row, on: target, baseline: baseline, keyPaths: keyPaths, block: block)
        }
    }

    /// The changes ``observe(keyPaths:on:_:)`` reports, as an `AsyncSequence` whose `.change` elements carry the
    /// object of a frozen snapshot.
    public var changes: AsyncStream<ObjectChange<Self>> {
        ChangeStream.make { queue, send in
            observe(on: queue) { change in
                guard case .change(let object, let properties) = change else { return send(change) }
                do {
                    send(.change(try object.freeze(), properties))
                } catch {
                    send(.error(error))
                }
            }
        }
    }
}
