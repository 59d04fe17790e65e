/// The entries of one index leaf, whichever form a read finds it in: decoded for change in this write
/// transaction, or stored and read in place (no entry is copied).
///
/// Every walk over a leaf's entries (`SortedIndex`'s leaf-by-leaf visit and its one-leaf lookups) goes through
/// ``forEach(from:_:)``, so the two forms are told apart here only, per entry, and not in each walk.
struct IndexLeafEntries {
    private enum Form {
        case loaded(IndexLeaf)
        case stored(IndexLeafView)
    }

    private let form: Form
    /// The number of entries in the leaf.
    let count: Int

    /// The entries of the leaf at `location`, reading a stored leaf through `reader`.
    /// - Throws: `StrataError.corruptFile` when a stored leaf's header is damaged.
    init(_ location: IndexTree.LeafLocation, reader: NodeReader) throws {
        try self.init(location, reading: reader.read)
    }

    /// The entries of the leaf at `location` of `tree`, a stored leaf read through ``NodeTree/storedLeaf(_:)``
    /// (kept by a read transaction's tree, so a lookup that comes back to the leaf skips the pager).
    /// - Throws: `StrataError.corruptFile` when a stored leaf's header is damaged.
    init(_ location: IndexTree.LeafLocation, in tree: IndexTree) throws {
        try self.init(location, reading: tree.storedLeaf)
    }

    private init(
        _ location: IndexTree.LeafLocation, reading read: (NodeRef) throws -> UnsafeRawBufferPointer
    ) throws {
        switch location {
        case .loaded(let leaf):
            form = .loaded(leaf)
            count = leaf.entryCount
        case .stored(let ref):
            let view = try IndexLeafView(try read(ref), ref: ref)
            form = .stored(view)
            count = view.count
        }
    }

    /// The position of the first entry ≥ `target` (`count` when every entry sorts before it).
    /// - Complexity: O(log n) comparisons.
    func lowerBound(_ target: UnsafeRawBufferPointer) throws -> Int {
        switch form {
        case .loaded(let leaf):
            return leaf.lowerBound(target)
        case .stored(let view):
            return try view.lowerBound(target)
        }
    }

    /// The entry at `index` (below ``count``), read in place.
    /// - Throws: `StrataError.corruptFile` when a stored leaf's offsets are damaged.
    func entry(_ index: Int) throws -> UnsafeRawBufferPointer {
        switch form {
        case .loaded(let leaf): return leaf.entries.entry(index)
        case .stored(let view): return try view.entry(index)
        }
    }

    /// Visits the entries ≥ `lower` in order until `body` returns `false`.
    /// - Returns: Whether the walk reached the leaf's end (`body` never asked to stop): the entries that follow,
    ///   if any, are in the next leaf.
    @inline(__always)
    func forEach(from lower: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) throws -> Bool) throws -> Bool {
        var index = try lowerBound(lower)
        while index < count {
            let goOn: Bool
            switch form {
            case .loaded(let leaf): goOn = try body(leaf.entries.entry(index))
            case .stored(let view): goOn = try body(try view.entry(index))
            }
            if !goOn { return false }
            index += 1
        }
        return true
    }
}
