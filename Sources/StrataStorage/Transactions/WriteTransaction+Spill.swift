extension WriteTransaction {
    /// Nodes a spill leaves in memory however large the transaction: the most recently allocated ones, which the
    /// table layer is the most likely to read or replace again soon.
    static let unspilledNewest = 16

    /// Writes the oldest unspilled nodes to their pages until at most half of `StoreOptions.spillThreshold` bytes
    /// of nodes remain in memory, keeping the newest `unspilledNewest`.
    ///
    /// Safe for the same reason commit is: a node's pages were free, so no version a reader or a recovery can
    /// open reaches them, and a rolled-back or crashed transaction leaves them free. A spilled node is sealed
    /// (header and checksum, as commit would) and final: `writableIfDirty` no longer returns it, so a change
    /// copies it like a committed node; `read` still does: at the same address when the node was handed out by
    /// `read` before (page-aligned memory becomes a view of the file, heap memory is kept), else from its pages
    /// (its memory was given back; a node of the arena always is, one with a mapping of its own becomes a view too).
    ///
    /// - Throws: `diskFull` or `io` when the file cannot grow or the write fails; the nodes stay in memory then.
    func spill() throws {
        let pageSize = store.pageSize
        let target = store.options.spillThreshold / 2
        let end = spillQueue.count - Self.unspilledNewest
        var chosen: [(page: UInt64, node: DirtyNode)] = []
        // A page freed and allocated again in this transaction is queued twice; its node is chosen once.
        var chosenPages: Set<UInt64> = []
        var remaining = unspilledBytes
        var index = spillQueueStart
        while index < end, remaining > target {
            let page = spillQueue[index]
            index += 1
            guard let node = dirty[page], node.spilledChecksum == nil, chosenPages.insert(page).inserted else { continue }
            chosen.append((page, node))
            remaining -= node.byteCount(pageSize: pageSize)
        }
        guard !chosen.isEmpty else { return }
        chosen.sort { $0.page < $1.page }
        let sealed = SealedNodes(
            cipher: store.pagedFile.decrypted?.cipher, bindsNodes: store.pagedFile.bindsNodes, capacity: chosen.count)
        let checksums = chosen.map { sealed.seal($0.node, page: $0.page, version: version) }
        try store.writeNodes(sealed, filePages: pageCount)
        spillQueueStart = index
        if spillQueueStart > 4096 {
            spillQueue.removeFirst(spillQueueStart)
            spillQueueStart = 0
        }
        for ((page, node), checksum) in zip(chosen, checksums) {
            dirty[page]?.spilledChecksum = checksum
            unspilledBytes -= node.byteCount(pageSize: pageSize)
            if node.origin == .arena, !node.isHandedOut {
                // No pointer into it is out: the arena hands the memory out again (still resident: no system call,
                // no page fault), and the node is read in place from its pages from now on.
                node.release(pageSize: pageSize, to: arena)
                dirty[page]?.isReleased = true
            } else if node.isMapped {
                _ = store.pagedFile.file.mapReadOnly(
                    over: node.memory, byteCount: node.byteCount(pageSize: pageSize), at: page * UInt64(pageSize))
            } else if !node.isHandedOut, store.pagedFile.decrypted == nil {
                // No pointer into it is out: give the memory back and read the node in place from its pages from
                // now on. Not for an encrypted file: its clear copies are cached by page and version, and a page
                // freed and spilled again in this transaction would carry the same version with other bytes.
                node.release(pageSize: pageSize)
                dirty[page]?.isReleased = true
            }
        }
    }
}
