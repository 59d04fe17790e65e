extension WriteTransaction {
    /// Whether this transaction's commit may log nodes as deltas (`LogDelta`): a store with a commit log and
    /// `StoreOptions.logDeltas`, clear (an encrypted node's bytes all change with its new nonce, and a delta of its
    /// clear bytes would put clear text in the log), of format 3 (a node's header names its page, which is how a
    /// copy names its base), reading through the generation the writer appends to.
    var logsDeltas: Bool {
        guard let log, let logWriter = store.logWriter else { return false }
        return store.options.logDeltas && store.pagedFile.decrypted == nil && store.pagedFile.bindsNodes
            && log.generation == logWriter.generation
    }

    /// Extents waiting for reuse past which a commit checkpoints, under the rule of `logsDeltasOnDataFile`, when
    /// the next generation can begin: pages freed in a generation wait for its end, and each commit writes the
    /// changes of the free list inline, which grow with them (a one-value commit frees 4-5 extents).
    static let waitingExtentsBeforeCheckpoint = 256

    /// Whether deltas may stand on the data file's pages (`StoreOptions.logDeltasOnDataFile`): the reuse rule
    /// that keeps them then holds (`Store.makeWriteTransaction`).
    var logsDeltasOnDataFile: Bool { logsDeltas && store.options.logDeltasOnDataFile }

    /// Remembers what the node just allocated on `page` was copied from, when `source` is the payload of a copy
    /// in this generation's log (in the log's mapping, or made from a delta), or with `logsDeltasOnDataFile` a
    /// node of the data file: the commit may log the node as the bytes that differ from it. Anything else (memory
    /// of this transaction, a clear copy of an encrypted node) is no base.
    func noteDeltaBase(of page: UInt64, copying source: UnsafeRawPointer) {
        guard logsDeltas, let log else { return }
        let start = source - NodeHeader.byteCount
        let pageSize = store.pageSize
        let inLog = start >= log.base && start < log.base + Int(log.mappedBytes)
            && log.base.distance(to: start) % pageSize == 0
        let data = store.pagedFile.base
        let inData = logsDeltasOnDataFile && start > data
            && start < data + Int(min(base.pageCount, store.pagedFile.mappablePages)) * pageSize
            && data.distance(to: start) % pageSize == 0
        guard inLog || inData || log.materializer.made(start), let header = NodeHeader.decode(from: start),
            header.page != 0
        else { return }
        deltaBases[page] = (header.page, header.version, inData ? UnsafeRawPointer(start) : nil)
    }

    /// The deltas of the sealed nodes that were copied from a copy in this generation's log (`deltaBases`) and
    /// changed in few bytes: each node diffed against that copy in 64-byte blocks, logged whole when the changed
    /// blocks pass a quarter of its pages or its base already stands on `LogDelta.maximumChain` − 1 deltas.
    func logDeltas(of sealed: SealedNodes) -> [UInt64: [UInt8]] {
        guard logsDeltas, let log, !deltaBases.isEmpty else { return [:] }
        var deltas: [UInt64: [UInt8]] = [:]
        for node in sealed.nodes {
            guard let hint = deltaBases[node.page], let dirtyNode = dirty[node.page], dirtyNode.kind == .table,
                dirtyNode.spilledChecksum == nil,
                let base = hint.dataNode.flatMap({ dataBase($0, page: hint.page, version: hint.version) })
                    ?? (try? log.materializer.base(page: hint.page, version: hint.version, index: log.index)),
                base.chain < LogDelta.maximumChain,
                let delta = LogDelta.encode(
                    node: node.bytes, nodeByteCount: node.byteCount, base: base.start, baseByteCount: base.byteCount,
                    basePage: hint.page, baseVersion: hint.version, wholeByteCount: Int(node.pages) * store.pageSize)
            else { continue }
            deltas[node.page] = delta
        }
        return deltas
    }

    /// The data file's node at `start` (on `page`, read by this transaction from the data file) as a delta's base:
    /// nil unless it is the node `version` wrote and the generation holds no copy of the page by that version
    /// (a reader of the delta then reads this page as its base, `LogMaterializer`).
    private func dataBase(_ start: UnsafeRawPointer, page: UInt64, version: UInt64)
        -> (start: UnsafeRawPointer, byteCount: Int, chain: Int)?
    {
        if let copy = log?.index.location(of: page, atMost: version), copy.version == version, !copy.isInPlace {
            return nil
        }
        guard let header = NodeHeader.decode(from: start), header.version == version, header.page == page else {
            return nil
        }
        return (start, NodeHeader.byteCount + Int(header.length), 0)
    }
}
