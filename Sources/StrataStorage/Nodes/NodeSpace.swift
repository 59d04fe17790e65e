/// Read access to the nodes of one pinned version of the store.
///
/// The contract between the pager (file, pages, commits, MVCC) and the table layer (clusters, columns,
/// indexes). A buffer returned by `read` is exactly the node's payload, already checked against its checksum,
/// and stays valid, unchanged, until the transaction that handed out this reader ends: the pager never
/// remaps or reuses the memory behind a pinned version.
package protocol NodeReader: AnyObject {
    /// The table layer's root node of this version (`NodeRef.none` in a new store).
    var root: NodeRef { get }

    /// The payload of node `ref`.
    ///
    /// - Throws: `StrataError.corruptFile` when the node lies outside the file or fails its checksum.
    func read(_ ref: NodeRef) throws -> UnsafeRawBufferPointer

    /// The cache of the last catalog node decoded or written through the store these nodes belong to, shared by
    /// its transactions (see `CatalogCache`); `nil`, the default, for node spaces that are not a store's (the
    /// heap-backed spaces of tests).
    var catalogCache: CatalogCache? { get }
}

extension NodeReader {
    /// No catalog cache: the default for node spaces that are not a store's.
    package var catalogCache: CatalogCache? { nil }
}

/// Write access during the single write transaction: copy-on-write allocation of nodes.
///
/// Nodes reachable from a committed version are never modified. To change one, the table layer allocates a
/// new node, fills it, points the parent at it and frees the old one. Nodes allocated in the current
/// transaction ("dirty") may be changed in place until commit, through `writableIfDirty`.
///
/// A writable buffer (from `allocate` or `writableIfDirty`) may be written only until the next `allocate`: a
/// large transaction writes its older nodes to the file there (spilling them), after which they are read-only
/// and `writableIfDirty` returns nil for them. Buffers from `read` stay valid as the reader protocol says.
package protocol NodeWriter: NodeReader {
    /// The table layer's root for the version being written; stored in the meta slot at commit.
    var root: NodeRef { get set }

    /// A new dirty node with room for exactly `byteCount` payload bytes, zero-filled.
    ///
    /// - Throws: `StrataError` when the file cannot grow (for example, the disk is full).
    func allocate(byteCount: Int) throws -> (NodeRef, UnsafeMutableRawBufferPointer)

    /// A new dirty node holding a copy of `bytes` (its payload is exactly `bytes.count` long), placed as
    /// `placement` says: what `allocate` then a copy give, without first zero-filling bytes the copy overwrites.
    /// `bytes` may come from `read`.
    ///
    /// - Throws: what `allocate` throws.
    func allocate(copying bytes: UnsafeRawBufferPointer, placement: NodePlacement) throws
        -> (NodeRef, UnsafeMutableRawBufferPointer)

    /// The writable payload of `ref` if it was allocated in this transaction, `nil` if it belongs to a
    /// committed version (copy it instead).
    func writableIfDirty(_ ref: NodeRef) -> UnsafeMutableRawBufferPointer?

    /// Declares that `ref` is no longer reachable from the version being written. A dirty node's pages are
    /// reusable at once; a committed node's pages only once no reader pins a version that can reach them.
    func free(_ ref: NodeRef)
}

/// Where a new node should go in the file.
package enum NodePlacement: Sendable {
    /// Wherever the free space has room first.
    case anywhere
    /// Beside the other nodes every commit rewrites (the catalog, the root of each changed tree, the commit record
    /// and the free-list node), so that a small commit writes them as one range: a sync costs about as much
    /// again for each separate range it waits for.
    case withCommitNodes
}

extension NodeWriter {
    /// `allocate(copying:placement:)` wherever the free space has room first.
    ///
    /// - Throws: what `allocate` throws.
    package func allocate(copying bytes: UnsafeRawBufferPointer) throws -> (NodeRef, UnsafeMutableRawBufferPointer) {
        try allocate(copying: bytes, placement: .anywhere)
    }

    /// Allocates a zero-filled node, then copies `bytes` into it, ignoring the placement (for writers with no
    /// cheaper way, whose nodes do not live in a file: the in-memory node spaces of tests).
    package func allocate(copying bytes: UnsafeRawBufferPointer, placement: NodePlacement) throws
        -> (NodeRef, UnsafeMutableRawBufferPointer)
    {
        let (ref, payload) = try allocate(byteCount: bytes.count)
        if let source = bytes.baseAddress, let target = payload.baseAddress {
            target.copyMemory(from: source, byteCount: bytes.count)
        }
        return (ref, payload)
    }
}
