/// The one write transaction: copy-on-write allocation of nodes over the version it began from.
///
/// Nodes it allocates live in memory until `commit()`, which writes them to pages no live version can reach. A
/// transaction holding more than `StoreOptions.spillThreshold` bytes of new nodes writes its oldest ones to their
/// pages early (*spills* them, as LMDB spills dirty pages), so a bulk load's memory stays bounded.
/// Ends with `commit()` or `rollback()`, or rolls back when released. Use it from one thread at a time.
public final class WriteTransaction: NodeWriter {
    /// The version `commit()` creates.
    public let version: UInt64
    /// The table layer's root for the version being written.
    package var root: NodeRef

    let store: Store
    let base: MetaSlot
    var freeSpace: FreeSpace
    /// The full free list the base version's free list builds on (nil when it has none): commits write changes
    /// to it until rewriting it pays (`FreeListChanges`).
    var freeListBase: FreeListBase?
    /// Nodes written since the last durable version and still reachable (with their checksums).
    var carried: CommitRecord
    let durableVersion: UInt64
    /// The data-file meta slot this commit writes: never the one holding the last durable version.
    let writeSlot: Int
    /// Pages the new version spans.
    var pageCount: UInt64
    var dirty: [UInt64: DirtyNode] = [:]
    /// The commit log's pages of the base version (nil when the store has no log, or the base is all in the data
    /// file). The writer lock keeps the generation from changing under it: only a writer begins one.
    let log: LogView?
    /// Keeps the clear copies of the encrypted committed nodes this transaction read (nil when not encrypted).
    let lease: NodeLease?
    /// Nodes in allocation order, oldest first, that may be spilled (some since freed or spilled: skipped).
    var spillQueue: [UInt64] = []
    /// Where `spillQueue` starts (entries before it were taken).
    var spillQueueStart = 0
    /// Memory held by dirty nodes not spilled.
    var unspilledBytes = 0
    /// Where the nodes of a large transaction get their memory (made for the first such node).
    var arena: NodeArena?
    var freedCommitted: Set<UInt64> = []
    /// For nodes copied from a committed node (`allocate(copying:)`), by page: the page and version of the copy
    /// they came from, which a log commit may log them as a delta against (`logDeltas`), and where the node is
    /// in the data file's mapping when it was read from there (else nil: a copy in the log).
    var deltaBases: [UInt64: (page: UInt64, version: UInt64, dataNode: UnsafeRawPointer?)] = [:]
    /// The page after the last node placed `withCommitNodes`, where the next such node goes if it is free.
    var commitNodesEnd: UInt64?
    /// A `free` that failed (`free` cannot throw): reported by `commit()`.
    var deferredError: StrataError?
    var isFinished = false

    init(
        store: Store, base: MetaSlot, freeSpace: FreeSpace, freeListBase: FreeListBase?, carried: CommitRecord,
        durableVersion: UInt64, writeSlot: Int, log: LogView?
    ) {
        self.store = store
        self.log = log
        self.base = base
        self.version = base.version + 1
        self.root = base.root
        self.freeSpace = freeSpace
        self.freeListBase = freeListBase
        self.carried = carried
        self.durableVersion = durableVersion
        self.writeSlot = writeSlot
        self.pageCount = base.pageCount
        lease = store.pagedFile.makeLease()
    }

    deinit {
        if !isFinished { finish() }
    }

    /// The store's catalog cache (`Store.catalogCache`), so `Catalog` skips decoding a catalog this process just
    /// wrote or read.
    package var catalogCache: CatalogCache? { store.catalogCache }

    /// The payload of `ref`: the in-memory copy when allocated in this transaction, else the verified
    /// committed node.
    ///
    /// - Throws: `corruptFile` when the node is out of bounds or fails its checksum; `transactionMisuse` once
    ///   the transaction has ended.
    package func read(_ ref: NodeRef) throws -> UnsafeRawBufferPointer {
        try checkOpen()
        if let node = dirty[ref.page] {
            if node.isReleased {
                // Spilled and given back: its pages hold it (past the base version's, so this version's count), in the
                // data file, never the log (an older copy of the page there is not this node).
                return try store.pagedFile.payload(of: ref, kind: .table, pageCount: pageCount, version: version, lease: lease)
            }
            if !node.isHandedOut { dirty[ref.page]?.isHandedOut = true }
            return UnsafeRawBufferPointer(start: node.memory + NodeHeader.byteCount, count: node.length)
        }
        return try store.pagedFile.payload(
            of: ref, kind: .table, pageCount: base.pageCount, version: base.version, lease: lease, log: log)
    }

    /// A new zero-filled node of `byteCount` payload bytes, on reusable pages when a large enough run is free,
    /// else at the end of the file.
    ///
    /// The node lives in memory until `commit()`, which grows the file; a full disk is reported there.
    ///
    /// - Throws: `invalidArgument` for a negative or too large size (over 4 GiB); `diskFull` when the file
    ///   would outgrow `StoreOptions.maximumFileSize`; `transactionMisuse` once the transaction has ended.
    package func allocate(byteCount: Int) throws -> (NodeRef, UnsafeMutableRawBufferPointer) {
        // Spill before allocating: the caller is done writing every node it allocated before this call.
        if unspilledBytes > store.options.spillThreshold { try spill() }
        let (ref, payload) = try allocateNode(kind: .table, byteCount: byteCount)
        spillQueue.append(ref.page)
        return (ref, payload)
    }

    /// A new node holding a copy of `bytes`, allocated as `allocate(byteCount:)` does (placed as `placement` says:
    /// see `allocateNode`) but not zero-filled first (a one-value commit copies a 14 KB cluster: filling it with
    /// zeros first was half the work).
    ///
    /// - Throws: what `allocate(byteCount:)` throws.
    package func allocate(copying bytes: UnsafeRawBufferPointer, placement: NodePlacement) throws
        -> (NodeRef, UnsafeMutableRawBufferPointer)
    {
        if unspilledBytes > store.options.spillThreshold { try spill() }
        let (ref, payload) = try allocateNode(
            kind: .table, byteCount: bytes.count, zeroed: bytes.baseAddress == nil, placement: placement)
        if let source = bytes.baseAddress, let target = payload.baseAddress {
            target.copyMemory(from: source, byteCount: bytes.count)
            noteDeltaBase(of: ref.page, copying: source)
        }
        spillQueue.append(ref.page)
        return (ref, payload)
    }

    /// The writable payload of `ref` when this transaction allocated it and has not spilled it to the file.
    package func writableIfDirty(_ ref: NodeRef) -> UnsafeMutableRawBufferPointer? {
        guard !isFinished, let node = dirty[ref.page], node.spilledChecksum == nil else { return nil }
        return UnsafeMutableRawBufferPointer(start: node.memory + NodeHeader.byteCount, count: node.length)
    }

    /// Frees `ref`: a node of this transaction at once, a committed node once no reader can reach it.
    /// A bad reference (outside the version, not a table node, freed twice) makes `commit()` throw.
    package func free(_ ref: NodeRef) {
        guard !isFinished else { return }
        if let node = dirty.removeValue(forKey: ref.page) {
            deltaBases[ref.page] = nil
            if node.spilledChecksum == nil { unspilledBytes -= node.byteCount(pageSize: store.pageSize) }
            if !node.isReleased { node.release(pageSize: store.pageSize, to: arena) }
            freeSpace.giveBack(start: ref.page, count: node.pages)
            return
        }
        do {
            try retire(ref, kind: .table)
        } catch {
            if deferredError == nil { deferredError = error as? StrataError }
        }
    }

    /// Abandons every change. Rolling back an ended transaction does nothing.
    public func rollback() {
        guard !isFinished else { return }
        finish()
    }

    // MARK: Internals

    func checkOpen() throws {
        guard !isFinished else {
            throw StrataError.transactionMisuse("the write transaction for version \(version) has already ended")
        }
    }

    /// Bytes of nodes a transaction takes from the heap before it gives each new node a mapping of its own: a
    /// one-value commit (about 30 KB of nodes) stays below it and pays no `mmap`, while a bulk load keeps only
    /// this much heap memory once its spilled nodes have become views of the file. Measured with heaptrack on
    /// strata-bench's 1M-object insert: at half the spill threshold (512 KiB), the heap nodes it kept were 0.98 MB
    /// of a 2.1 MB heap peak.
    static let heapNodeBytes = 64 << 10

    /// Pages a commit's own nodes look for together: the catalog, a changed tree's root, the commit record and the
    /// free-list node of a one-value commit (one page each).
    static let commitNodesPages: UInt64 = 4

    /// Allocates a node of `kind`; `zeroed: false` leaves the payload's bytes for the caller to overwrite whole.
    ///
    /// Nodes placed `anywhere` (clusters, the branches below a root, everything a bulk load writes) take the first
    /// free extent with room (first fit), else pages at the end of the file. A node placed `withCommitNodes` (`commit()`
    /// places its record and free-list node so) goes right after the previous such node of this transaction
    /// when those pages are free or the file ends there, else at the start of the first free extent with room for
    /// all of a small commit's such nodes (`commitNodesPages`), else at the end of the file: never into a smaller
    /// hole, which would split them. Each commit frees the previous one's as one extent, so they stay side by side
    /// from commit to commit, and a one-value commit writes its cluster, the branches below the root and the rest in
    /// one range each. The holes `anywhere` nodes leave are the ones they refill.
    ///
    /// Only under `.full`: there every commit's nodes are freed by the next and reusable by the one after, so they
    /// come back as one extent. Under `.batched` pages freed before a sync wait for it, the commit nodes would find
    /// no room beside each other and grow the file instead, and a commit's ranges cost little when most commits do
    /// not sync; they take first fit like the rest.
    func allocateNode(kind: NodeKind, byteCount: Int, zeroed: Bool = true, placement: NodePlacement = .anywhere) throws
        -> (NodeRef, UnsafeMutableRawBufferPointer)
    {
        try checkOpen()
        guard byteCount >= 0, byteCount <= Int(UInt32.max) - NodeHeader.byteCount - NodeCipher.sealByteCount else {
            throw StrataError.invalidArgument("a node holds 0 to 4 GiB; \(byteCount) bytes were asked for")
        }
        let pageSize = store.pageSize
        let pages = store.pagedFile.pageSpan(length: byteCount)
        let beside = placement == .withCommitNodes && store.options.durability == .full
        let start: UInt64
        if !beside {
            start = try freeSpace.take(pages: pages) ?? growFile(by: pages)
        } else if let end = commitNodesEnd, let reused = freeSpace.take(pages: pages, at: end) {
            start = reused
        } else if commitNodesEnd != pageCount,
            let reused = freeSpace.take(pages: pages, fromExtentsOfAtLeast: Self.commitNodesPages)
        {
            start = reused
        } else {
            start = try growFile(by: pages)
        }
        // Once the transaction is more than a small commit, nodes get mappings of their own, which spilling can
        // turn into views of the file: their memory then stops counting as the process's. A node from the heap
        // gives its memory back when spilled, unless `read` handed it out or the file is encrypted (see `spill`).
        let mapped = unspilledBytes >= min(store.options.spillThreshold / 2, Self.heapNodeBytes)
            && store.spillsToMappedPages
        if mapped, arena == nil { arena = NodeArena(pageSize: pageSize) }
        let node = DirtyNode.allocate(
            pages: pages, pageSize: pageSize, usedBytes: NodeHeader.byteCount + byteCount, kind: kind, length: byteCount,
            mapped: mapped, zeroed: zeroed, arena: arena)
        dirty[start] = node
        if beside { commitNodesEnd = start + pages }
        unspilledBytes += node.byteCount(pageSize: pageSize)
        // The reference carries this version's tag: a read through it takes only the node this transaction writes there.
        let ref = NodeRef(page: start, writtenBy: store.pagedFile.bindsNodes ? version : nil)
        return (ref, UnsafeMutableRawBufferPointer(start: node.memory + NodeHeader.byteCount, count: byteCount))
    }

    /// Takes `pages` pages at the end of the file for the new version; returns the first.
    ///
    /// - Throws: `diskFull` when the file cannot be mapped that large.
    private func growFile(by pages: UInt64) throws -> UInt64 {
        guard pageCount + pages <= store.pagedFile.mappablePages else { throw StrataError.diskFull(path: store.path) }
        defer { pageCount += pages }
        return pageCount
    }

    /// Frees committed node `ref` of `kind` as of this version.
    func retire(_ ref: NodeRef, kind: NodeKind) throws {
        guard !ref.isNone else { return }
        guard freedCommitted.insert(ref.page).inserted else {
            throw StrataError.invalidArgument("node \(ref) was freed twice in the write transaction for version \(version)")
        }
        let (header, pages) = try store.pagedFile.header(
            of: ref, pageCount: base.pageCount, version: base.version, log: log)
        guard header.kind == kind else {
            throw store.pagedFile.corrupt(ref, "expected a \(kind) node to free, found a \(header.kind) node")
        }
        freeSpace.retire(start: ref.page, count: pages, freedAt: version, born: header.version)
        carried.remove(page: ref.page)
    }

    /// Releases the in-memory nodes and the writer lock.
    func finish() {
        isFinished = true
        // The arena's nodes go with its regions.
        for node in dirty.values where !node.isReleased && node.origin != .arena {
            node.release(pageSize: store.pageSize)
        }
        dirty.removeAll()
        arena?.unmapAll()
        store.endWrite()
    }
}
