/// What an observer of a collection (``Results``, ``List``, ``LinkingObjects``) is told.
///
/// Apply an update as a table view does: remove the rows at `deletions` (indices in the collection as it was
/// before), then insert the rows at `insertions` and reload the rows at `modifications` (indices in the
/// collection as it is now). An object whose position in a sorted collection changed is reported as a deletion
/// plus an insertion.
public enum CollectionChange<Collection> {
    /// The collection, once evaluated, when the observation starts.
    case initial(Collection)
    /// The collection after one or more commits changed it, and what changed.
    ///
    /// - deletions: ascending indices in the old collection of the objects that left it (or moved).
    /// - insertions: ascending indices in the new collection of the objects that entered it (or moved).
    /// - modifications: ascending indices in the new collection of objects that stayed in place but changed.
    case update(Collection, deletions: [Int], insertions: [Int], modifications: [Int])
    /// The observation could not start or continue; the block is not called again.
    case error(Error)
}

extension CollectionChange: Sendable where Collection: Sendable {}

extension CollectionChange {
    /// The same change with the collection replaced by `transform`'s result (a frozen copy for streams).
    func map<Other>(_ transform: (Collection) throws -> Other) -> CollectionChange<Other> {
        do {
            switch self {
            case .initial(let collection): return .initial(try transform(collection))
            case .update(let collection, let deletions, let insertions, let modifications):
                return .update(try transform(collection), deletions: deletions, insertions: insertions, modifications: modifications)
            case .error(let error): return .error(error)
            }
        } catch {
            return .error(error)
        }
    }
}

/// What an observer of the whole database is told (``Database/observe(_:)``), as Realm's notifications.
public enum DatabaseNotification: String, Sendable {
    /// A commit (of any thread or process) changed the database, which now reads the newest version.
    case didChange
    /// The database could not move to the newest version by itself: call `refresh()`.
    case refreshRequired
}
