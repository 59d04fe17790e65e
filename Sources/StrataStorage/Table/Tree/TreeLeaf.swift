/// What `NodeTree` needs from the leaves it organises (clusters of objects, index entries).
///
/// Leaves are ordered by byte-string keys compared with `memcmp` order; each leaf knows its smallest key.
protocol TreeLeaf: AnyObject {
    /// What decoding a stored leaf needs (a table's columns for a cluster).
    associatedtype Context

    /// Decodes the stored leaf `ref`.
    static func load(_ raw: UnsafeRawBufferPointer, ref: NodeRef, context: Context) throws -> Self
    /// A new, empty leaf.
    static func empty(context: Context) -> Self
    /// Whether the tree's keys are 8-byte numbers that mostly run consecutively (a table's object keys), so that a
    /// branch search may start where the separators' numbers put the key
    /// (``BranchView/childIndex(for:interpolating:)``).
    static var keysAreObjectKeys: Bool { get }

    /// Number of entries (objects, index entries).
    var entryCount: Int { get }
    /// The smallest key, as bytes (empty when the leaf is empty).
    var firstKey: [UInt8] { get }
    /// The node the leaf was read from, `.none` for a new leaf.
    var origin: NodeRef { get set }
    /// Whether the leaf changed since it was read.
    var isDirty: Bool { get set }
    /// Whether the leaf must split, should merge with a neighbour, or neither: one answer, because a cluster works
    /// out its size by summing its columns, and a bulk insert asks after every object.
    var fill: LeafFill { get }
    /// Moves the upper part of the entries to a new leaf.
    func splitOff() -> Self
    /// Whether `other` (the next leaf) fits in this one.
    func canAbsorb(_ other: Self) -> Bool
    /// Appends the entries of the next leaf.
    func absorb(_ other: Self)
    /// Writes the leaf to a new node.
    func encode(in writer: NodeWriter) throws -> NodeRef
}

/// How full a tree leaf is, against the bounds its kind sets.
enum LeafFill {
    /// Below the lower bound: the leaf should merge with a neighbour.
    case underfull
    /// Within bounds.
    case fitting
    /// Past the upper bound (and holding more than one entry): the leaf must split.
    case overfull
}

extension TreeLeaf {
    /// Whether the leaf must split.
    var isOverfull: Bool { fill == .overfull }
}
