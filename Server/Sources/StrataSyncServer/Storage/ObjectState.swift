/// What the server knows of one object, from `strata_sync_objects`.
struct ObjectState: Sendable, Hashable {
    /// The owner's user id (for models under an `owner` rule).
    var ownerID: String?
    /// The clock reading of the create that started the object's current life.
    var created: String
    /// The clock reading of the delete that ended it, if it is deleted.
    var deleted: String?
}
