import Foundation

extension Database {
    /// Calls `block` after every commit (of any thread or process) that changed the database, once the
    /// database has moved to the new version (Realm's `.didChange`), until the token is invalidated or
    /// released.
    ///
    /// Deliveries run on the database's queue (``init(configuration:queue:)``) or, for a database opened on the
    /// main thread, on the main queue. From a database confined to another thread the block gets
    /// `.refreshRequired` at once: nothing runs that thread's deliveries.
    ///
    /// - Returns: The token that keeps the observation alive.
    public func observe(_ block: @escaping (DatabaseNotification, Database) -> Void) -> NotificationToken {
        confinement.check("Database.observe")
        return ObservationRegistration.register(self, on: nil, report: { _ in block(.refreshRequired, self) }) { target in
            DatabaseObservation(database: target, block: block)
        }
    }

    /// Commits the write transaction without telling the observers of `tokens` about its changes: for a UI
    /// that already shows them (the row the user just typed in). Other observers are told as usual.
    ///
    /// The named observers move to the committed version; a commit of another process that landed between
    /// their last delivery and this commit is folded in silently too.
    ///
    /// - Parameter tokens: Tokens of observations delivered by this database (not by another queue's).
    /// - Throws: `StrataError.invalidArgument` for a token of another database (the write is then cancelled);
    ///   what ``commitWrite()`` throws.
    public func commitWrite(withoutNotifying tokens: [NotificationToken]) throws {
        confinement.check("Database.commitWrite(withoutNotifying:)")
        var skipped: [Observation] = []
        for token in tokens {
            guard let observation = token.observation else { continue }
            guard observation.database === self else {
                cancelWrite()
                throw StrataError.invalidArgument(
                    "commitWrite(withoutNotifying:) was given a token of an observation delivered by another database "
                        + "(one observed with `on:` another queue); pass only tokens of this database's observers")
            }
            skipped.append(observation)
        }
        try commitWrite()
        if !skipped.isEmpty, let notifier { try notifier.skip(skipped, database: self) }
    }

    /// Runs `block` in a write transaction and commits it without notifying the observers of `tokens` (see
    /// ``commitWrite(withoutNotifying:)``).
    ///
    /// - Returns: What `block` returns.
    @discardableResult
    public func write<Result>(withoutNotifying tokens: [NotificationToken], _ block: () throws -> Result) throws -> Result {
        try runWrite("write(withoutNotifying:_:)", withoutNotifying: tokens, block)
    }
}
