/// What an observer of a ``Map`` is told, as Realm's `RealmMapChange`: the changed keys.
///
/// Apply an update by removing the entries of `deletions`, then setting those of `insertions` and
/// `modifications` from the new map.
public enum MapChange<Collection> {
    /// The map when the observation starts.
    case initial(Collection)
    /// The map after one or more commits changed it, and which keys changed.
    ///
    /// - deletions: keys the map no longer has.
    /// - insertions: keys the map did not have.
    /// - modifications: keys it kept whose value changed, or whose object changed a watched property.
    case update(Collection, deletions: [String], insertions: [String], modifications: [String])
    /// The observation could not start or continue; the block is not called again.
    case error(Error)
}

extension MapChange: Sendable where Collection: Sendable {}

extension MapChange {
    /// The same change with the map replaced by `transform`'s result (a frozen copy for streams).
    func map<Other>(_ transform: (Collection) throws -> Other) -> MapChange<Other> {
        do {
            switch self {
            case .initial(let collection): return .initial(try transform(collection))
            case .update(let collection, let deletions, let insertions, let modifications):
                return .update(try transform(collection), deletions: deletions, insertions: insertions,
                               modifications: modifications)
            case .error(let error): return .error(error)
            }
        } catch {
            return .error(error)
        }
    }
}
