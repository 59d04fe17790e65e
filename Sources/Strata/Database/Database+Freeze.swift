import StrataStorage

extension Database {
    /// An immutable snapshot of what this database reads now, usable from any thread: its objects and results
    /// never change, and writing to it is an error. It pins its version of the file until released.
    ///
    /// - Throws: `StrataError.transactionMisuse` inside a write transaction (commit first).
    public func freeze() throws -> Database {
        confinement.check("Database.freeze()")
        if isFrozen { return self }
        return try Database(freezing: self)
    }
}

extension Results {
    /// The same query over a frozen snapshot of its database: immutable and readable from any thread. To hand it
    /// to another task or actor, wrap it in ``FrozenResults`` (which the compiler lets cross).
    ///
    /// - Throws: `StrataError.transactionMisuse` inside a write transaction.
    public func freeze() throws -> Results<Element> {
        Results(database: try database.freeze(), model: model, query: query)
    }
}


extension ObjectBase {
    /// Whether the object belongs to a frozen snapshot.
    public var isFrozen: Bool { database?.isFrozen ?? false }

    /// The same object in a frozen snapshot of its database: immutable and readable from any thread.
    ///
    /// - Throws: `StrataError.invalidArgument` for an unmanaged or deleted object;
    ///   `StrataError.transactionMisuse` inside a write transaction.
    public func freeze() throws -> Self {
        guard let row = managedAccessor as? ManagedRow, !row.isInvalidated else {
            throw StrataError.invalidArgument("freeze() takes a managed object that was not deleted")
        }
        let frozen = try row.database.freeze()
        guard let object = frozen.object(of: row.model, key: row.key) as? Self else {
            throw StrataError.invalidArgument("freeze(): \(row.model.name) is not \(Self.self)")
        }
        return object
    }
}
