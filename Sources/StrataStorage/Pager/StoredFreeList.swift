/// The full free-list node (kind 2) a version's free list builds on, kept by the writer so the next commit can
/// write only the changes to it.
struct FreeListBase: Equatable, Sendable {
    /// The full list's node.
    var ref: NodeRef
    /// Its extents, sorted by start page.
    var extents: [FreeExtent]
}

/// A version's free list as read from the file: its extents, and the nodes that hold it.
struct StoredFreeList: Sendable {
    /// Every free extent, sorted by start page.
    var extents: [FreeExtent]
    /// The full list (nil when the version has no free list).
    var base: FreeListBase?
    /// The changes node when the meta slot points at one (then `base` is the list it changes).
    var changes: NodeRef?

    /// The free list of the version `meta` describes: a full list, or changes applied to one.
    ///
    /// - Parameter payload: Reads a node of a kind in the version (`PagedFile.payload`, or a verifier's check).
    /// - Throws: `corruptFile` when a node is of the wrong kind, out of bounds, fails its checksum, or its entries
    ///   lie outside the version or overlap.
    static func read(
        _ meta: MetaSlot, path: String, kindAt: (NodeRef) throws -> NodeKind,
        payload: (NodeRef, NodeKind) throws -> UnsafeRawBufferPointer
    ) throws -> StoredFreeList {
        guard !meta.freeList.isNone else { return StoredFreeList(extents: [], base: nil, changes: nil) }
        func fullList(_ ref: NodeRef) throws -> FreeListBase {
            let extents = try FreeListCoding.decode(
                try payload(ref, .freeList), pageCount: meta.pageCount, path: path, node: ref)
            return FreeListBase(ref: ref, extents: extents.sorted { $0.start < $1.start })
        }
        guard try kindAt(meta.freeList) == .freeListChanges else {
            let base = try fullList(meta.freeList)
            return StoredFreeList(extents: base.extents, base: base, changes: nil)
        }
        let changes = try FreeListChanges.decode(
            try payload(meta.freeList, .freeListChanges), pageCount: meta.pageCount, path: path, node: meta.freeList)
        let base = try fullList(changes.base)
        let extents = try changes.applied(to: base.extents, path: path, node: meta.freeList)
        try FreeListCoding.check(extents, pageCount: meta.pageCount, path: path, node: meta.freeList)
        return StoredFreeList(extents: extents, base: base, changes: meta.freeList)
    }
}

extension PagedFile {
    /// The free list of the version `meta` describes, its nodes verified through the checksum cache (read from the
    /// commit log's copies through `log` when it has them).
    ///
    /// - Throws: `corruptFile` when a free-list node is damaged or its entries are out of range or overlap.
    func freeList(of meta: MetaSlot, log: LogView? = nil) throws -> StoredFreeList {
        let lease = makeLease()
        return try withExtendedLifetime(lease) {
            try StoredFreeList.read(
                meta, path: path,
                kindAt: { try header(of: $0, pageCount: meta.pageCount, version: meta.version, log: log).header.kind },
                payload: {
                    try payload(
                        of: $0, kind: $1, pageCount: meta.pageCount, version: meta.version, lease: lease, log: log)
                })
        }
    }
}
