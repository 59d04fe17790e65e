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

    /// Remembers what the node just allocated on `page` was copied from, when `source` is the payload of a copy
    /// in this generation's log (in the log's mapping, or made from a delta): the commit may log the node as the
    /// bytes that differ from it. Anything else (the data file's pages, memory of this transaction) is no base.
    func noteDeltaBase(of page: UInt64, copying source: UnsafeRawPointer) {
        guard logsDeltas, let log else { return }
        let start = source - NodeHeader.byteCount
        let pageSize = store.pageSize
        let inMapping = start >= log.base && start < log.base + Int(log.mappedBytes)
            && log.base.distance(to: start) % pageSize == 0
        guard inMapping || log.materializer.made(start), let header = NodeHeader.decode(from: start),
            header.page != 0
        else { return }
        deltaBases[page] = (header.page, header.version)
    }

    /// The deltas of the sealed nodes that were copied from a copy in this generation's log (`deltaBases`) and
    /// changed in few bytes: each node diffed against that copy in 64-byte blocks, logged whole when the changed
    /// blocks pass a quarter of it or its base already stands on `LogDelta.maximumChain` − 1 deltas.
    func logDeltas(of sealed: SealedNodes) -> [UInt64: [UInt8]] {
        guard logsDeltas, let log, !deltaBases.isEmpty else { return [:] }
        var deltas: [UInt64: [UInt8]] = [:]
        for node in sealed.nodes {
            guard let hint = deltaBases[node.page], let dirtyNode = dirty[node.page], dirtyNode.kind == .table,
                dirtyNode.spilledChecksum == nil,
                let base = try? log.materializer.base(page: hint.page, version: hint.version, index: log.index),
                base.chain < LogDelta.maximumChain,
                let delta = LogDelta.encode(
                    node: node.bytes, nodeByteCount: node.byteCount, base: base.start, baseByteCount: base.byteCount,
                    basePage: hint.page, baseVersion: hint.version)
            else { continue }
            deltas[node.page] = delta
        }
        return deltas
    }
}
