extension WriteTransaction {
    /// Makes the transaction's changes the newest committed version.
    ///
    /// Writes every new node, a commit record listing them with their checksums, and the meta slot that does
    /// not hold the last durable version; then syncs once (`.full`; see `Durability`). With a commit log, appends
    /// the nodes to the log instead, with no commit record (the log's record lists them) and the free-list changes
    /// inline in it, and syncs the log. A transaction that spilled
    /// syncs its spilled nodes first, so the record need not list them (`syncSpilledNodes`). A transaction that
    /// changed nothing commits nothing. The transaction ends whether or not the commit succeeds.
    ///
    /// - Throws: what a `free` of a bad reference found (`corruptFile`, `invalidArgument`); `diskFull`; `io`; a
    ///   failed sync's `io`, after which the store refuses writes until reopened. When it throws, the newest
    ///   version is unchanged for this process and the file still opens to a committed version.
    public func commit() throws {
        try commit(evenIfUnchanged: false)
    }

    /// Commits as `commit()` does; with `evenIfUnchanged`, a transaction that changed nothing still writes a new
    /// version (its own commit record and free list, the same root). A compacted copy commits once more so that
    /// both meta slots reach its data: a damaged newest slot then falls back to the same data, never to the empty
    /// version the file was created with (docs/ARCHITECTURE.md, "An acknowledged commit is never lost silently").
    package func commit(evenIfUnchanged: Bool) throws {
        try checkOpen()
        defer { finish() }
        if let deferredError { throw deferredError }
        if !evenIfUnchanged && dirty.isEmpty && freedCommitted.isEmpty && root == base.root { return }
        // A root the meta slot cannot point at would make this version unopenable: refuse it here.
        guard root.isNone || dirty[root.page] != nil || (root.page < base.pageCount && !freedCommitted.contains(root.page))
        else {
            throw StrataError.invalidArgument(
                "the root \(root) of version \(version) is neither a node of this transaction nor a live committed node")
        }
        let spilledAreSynced = try syncSpilledNodes()
        // The previous version's commit record and free-list changes are reachable from it only; its full free
        // list stays while this version's changes build on it.
        try retire(base.commitRecord, kind: .commitRecord)
        if let kept = freeListBase, kept.ref != base.freeList { try retire(base.freeList, kind: .freeListChanges) }

        // With a commit log the log's record lists every node with its checksum, and the data file gets a meta
        // slot only from a checkpoint, after syncing the pages it needs: no commit record is written
        // (`MetaSlot.logCommitMark`), and the free-list changes go inline in the record, unpadded.
        let logs = store.logWriter != nil
        var recordRef = NodeRef.none
        var recordPayload: UnsafeMutableRawBufferPointer?
        if !logs {
            let listed = spilledAreSynced ? dirty.values.count { $0.spilledChecksum == nil } : dirty.count
            let allocated = try allocateNode(
                kind: .commitRecord, byteCount: CommitRecord.byteCount(entries: carried.count + listed + 1),
                placement: .withCommitNodes)
            recordRef = allocated.0
            recordPayload = allocated.1
        }
        let freeListRef = try writeFreeList()

        var record = carried
        let sorted: [(page: UInt64, node: DirtyNode)] = dirty.map { ($0.key, $0.value) }.sorted { $0.page < $1.page }
        let sealed = SealedNodes(
            cipher: store.pagedFile.decrypted?.cipher, bindsNodes: store.pagedFile.bindsNodes, capacity: sorted.count)
        for (page, node) in sorted where recordPayload == nil || page != recordRef.page {
            if let checksum = node.spilledChecksum {
                if !spilledAreSynced && !logs { record.set(page: page, checksum: checksum) }
                continue
            }
            let checksum = sealed.seal(node, page: page, version: version)
            if !logs { record.set(page: page, checksum: checksum) }
        }
        var recordChecksum = MetaSlot.logCommitMark
        if let recordPayload {
            record.encode(into: recordPayload)
            guard let recordNode = dirty[recordRef.page] else {
                preconditionFailure("the commit record was just allocated")
            }
            recordChecksum = sealed.seal(recordNode, page: recordRef.page, version: version)
        }

        let meta = MetaSlot(
            version: version, root: root, freeList: freeListRef, commitRecord: recordRef,
            commitRecordChecksum: recordChecksum, pageCount: pageCount, durableBase: durableVersion)
        // With a commit log, the nodes go to the log in one append (the data file's meta slots are the
        // checkpoints'); spilled nodes are in place in the data file already, and the record lists them so.
        let publishedSlot: Int
        var appended: (located: CommitLog.Located, generation: UInt64)?
        if let logWriter = store.logWriter {
            let inPlace = sorted.compactMap { page, node in
                node.spilledChecksum.map { (page: page, pages: UInt64(node.pages), checksum: $0) }
            }
            let inline: Set<UInt64> = dirty[freeListRef.page]?.kind == .freeListChanges ? [freeListRef.page] : []
            appended = try store.appendCommit(
                meta: meta, nodes: sealed, inPlace: inPlace, inline: inline, deltas: logDeltas(of: sealed))
            publishedSlot = logWriter.dataSlot
        } else {
            try store.writeCommit(nodes: sealed, meta: meta, slot: writeSlot)
            publishedSlot = writeSlot
        }
        // Under `.batched`, the free list's waiting extents and the commit record grow with every unsynced commit
        // (pages waiting for the sync, nodes written since it) and commits write them: past a few pages of them, a
        // sync costs less than carrying them on.
        let bookkeeping = freeSpace.waiting.count * FreeListCoding.entryByteCount
            + record.count * CommitRecord.entryByteCount
        let durable = try store.syncCommit(carrying: bookkeeping)
        store.publish(
            meta: meta, slot: publishedSlot, durable: durable, freeSpace: freeSpace, freeListBase: freeListBase,
            record: record)
        if let appended { store.noteAppendedCommit(appended) }
        for (page, _) in sorted { store.pagedFile.markVerified(page: page, version: version) }
        if let cache = store.pagedFile.decrypted {
            for (page, memory, length) in sealed.encryptedTableNodes {
                cache.insert(page: page, version: version, payload: memory + NodeHeader.byteCount, length: length)
            }
        }
        // The commit is published: a checkpoint that fails now refuses the next write (`checkpointLog`), and this
        // commit stands (the log holds it).
        let reuseWaits = logsDeltasOnDataFile && freeSpace.waiting.count >= Self.waitingExtentsBeforeCheckpoint
        try? store.checkpointLog(force: false, toReuse: reuseWaits)
    }

    /// Syncs the nodes this transaction spilled, and what earlier unsynced commits wrote, before the commit writes
    /// its own nodes and meta slot; returns whether it did (not under `.none`, which never syncs, nor when nothing
    /// spilled). Those nodes are then on disk whenever the meta slot is, so the commit record need not list them:
    /// it lists only what is written after this sync, and the first opener's check of the newest version (which
    /// reads and hashes every node the record lists) stays small after a bulk load. Measured on strata-bench's
    /// 1M-object file right after W1: that check was 84 % of W6's open and count, hashing all 26 MB of the load.
    ///
    /// - Throws: the sync's error, after which the store refuses writes until reopened.
    private func syncSpilledNodes() throws -> Bool {
        guard store.options.durability != .none, dirty.values.contains(where: { $0.spilledChecksum != nil }) else {
            return false
        }
        try store.syncWrittenNodes()
        carried = CommitRecord()
        return true
    }

    /// Allocates and fills this version's free-list node: changes to the kept full list while they stay small,
    /// else a new full list (freeing the old one). Returns the node for the meta slot (`none` when nothing is free).
    ///
    /// The changes are those the free space tracked since the full list was written (`FreeSpace.changes`), carried
    /// from commit to commit by this process; only when they are not tracked (the first commit after another
    /// process wrote, or changes grown past the tracking limit) are the whole lists compared. Allocating the node
    /// changes the free space it describes, so it is sized first for what allocation can add: taking pages shrinks
    /// or removes one reusable extent, which adds at most one removed and one added entry to the changes, and never
    /// lengthens a full list.
    private func writeFreeList() throws -> NodeRef {
        if let kept = freeListBase {
            let changes = freeSpace.changes
                ?? FreeListChanges(base: kept.ref, from: kept.extents, to: freeSpace.sortedExtents)
            let fullByteCount = FreeListCoding.byteCount(entries: freeSpace.extentCount)
            if freeSpace.extentCount > 0, !FreeListChanges.prefersFullList(
                changesByteCount: changes.byteCount, fullByteCount: fullByteCount, pageSize: store.pageSize,
                inline: store.logWriter != nil)
            {
                freeSpace.track(kept, changes: changes)
                let (ref, payload) = try allocateNode(
                    kind: .freeListChanges,
                    byteCount: FreeListChanges.byteCount(removed: changes.removed.count + 1, added: changes.added.count + 1),
                    placement: .withCommitNodes)
                // The allocation took its pages from one extent, or from the end of the file (no change).
                let final = freeSpace.changes
                    ?? FreeListChanges(base: kept.ref, from: kept.extents, to: freeSpace.sortedExtents)
                if final.byteCount <= payload.count {
                    final.encode(into: payload)
                    return ref
                }
                // Cannot happen by the sizing argument above; should it, a full list is always right.
                free(ref)
            }
            try retire(kept.ref, kind: .freeList)
            freeListBase = nil
        }
        let count = freeSpace.extentCount
        guard count > 0 else { return .none }
        let (ref, payload) = try allocateNode(
            kind: .freeList, byteCount: FreeListCoding.byteCount(entries: count), placement: .withCommitNodes)
        let extents = freeSpace.sortedExtents
        FreeListCoding.encode(extents, into: payload)
        let base = FreeListBase(ref: ref, extents: extents)
        freeListBase = base
        // The next commit's changes start from this list.
        freeSpace.track(base, changes: FreeListChanges(base: ref, from: [], to: []))
        return ref
    }
}
