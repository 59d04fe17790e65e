/// What a client keeps per synced object so that it applies the conflict rules of docs/SYNC.md exactly as the
/// server does: the readings of the create that started the object's life and of the delete that ended it, and
/// the winning reading of every property, set element, map key and list element.
///
/// Stored as JSON in the `~sync objects` table (docs/FILE-FORMAT.md, "Sync metadata"); a deleted object keeps its
/// state (a tombstone), so a late update is still recognized as one of a deleted object.
struct ObjectSyncState: Codable, Hashable, Sendable {
    /// A last-writer-wins register of a set element or map key.
    struct Register: Codable, Hashable, Sendable {
        var hlc: String
        var removed: Bool
    }

    /// A list element: its id, position identifier and value (the list's local elements are these values, in this
    /// order, but for links whose object is not here).
    struct Slot: Codable, Hashable, Sendable {
        var id: String
        var position: String
        var value: SyncValue

        /// Elements sort by position, then id, byte by byte.
        func precedes(_ other: Slot) -> Bool {
            position == other.position ? id.syncPrecedes(other.id) : position.syncPrecedes(other.position)
        }
    }

    /// A list's elements in the list's order, and the ids of removed elements (removed for good).
    struct ListState: Codable, Hashable, Sendable {
        var slots: [Slot] = []
        var removed: Set<String> = []
    }

    /// The reading of the create that started the current life.
    var created: String
    /// The reading of the delete that ended it, if the object is deleted.
    var deleted: String?
    /// The local object key, for a model without a primary key (its objects are found by sync id).
    var local: Int64?
    /// The winning reading of each scalar property.
    var fields: [String: String] = [:]
    /// Set elements (by canonical JSON) per property.
    var sets: [String: [String: Register]] = [:]
    /// Map keys per property.
    var maps: [String: [String: Register]] = [:]
    /// Lists per property.
    var lists: [String: ListState] = [:]

    /// A new life started by the create at `hlc`.
    init(created: String) { self.created = created }

    /// Whether `hlc` wins over the reading `current` (none: it wins).
    static func wins(_ hlc: String, over current: String?) -> Bool {
        guard let current else { return true }
        return current.syncPrecedes(hlc)
    }
}
