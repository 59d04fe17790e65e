/// What happened to an object or a section of a ``ResultsController``, in `NSFetchedResultsController`'s terms.
public enum ResultsChangeType: Sendable, Hashable {
    /// It appeared: the new index path (or section index) says where.
    case insert
    /// It went away: the old index path (or section index) says where it was.
    case delete
    /// The object moved: from the old index path to the new one. Its values may have changed too.
    case move
    /// The object stayed in place and its values changed: the old and the new index path name the same row.
    case update
}
