/// What one change does. docs/SYNC.md gives each operation's fields and conflict rule.
public enum SyncOperation: String, Codable, Sendable, Hashable, CaseIterable {
    /// Creates the object (or re-creates it after an older delete), with scalar property values in `value`.
    case create
    /// Sets one scalar property (`property`, `value`): last writer wins.
    case set
    /// Deletes the object: wins over every update that is not a later re-creation.
    case delete
    /// Inserts `value` into a list as element `element` at position identifier `position`.
    case listInsert
    /// Removes list element `element`.
    case listRemove
    /// Adds `value` to a set.
    case setAdd
    /// Removes `value` from a set.
    case setRemove
    /// Sets map entry `key` to `value`.
    case mapSet
    /// Removes map entry `key`.
    case mapRemove
}
