/// `onDelete:` on a link, list, set, map or linkingObjects property: what deleting an object of the model does to
/// the objects the property reaches (docs/SCHEMA.md, "Delete rules").
public enum DeleteRule: String, Hashable, Sendable, CaseIterable {
    /// The default: links to the deleted object are removed (links become nil, list, set and map entries go).
    case nullify
    /// The reached objects are deleted too, and their own rules apply (an object reached twice is deleted once).
    case cascade
    /// The delete fails while the property reaches an object the same delete does not delete.
    case deny
}
