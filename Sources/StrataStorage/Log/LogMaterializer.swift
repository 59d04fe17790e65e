/// Turns the delta copies of one commit log generation (`LogDelta`) into whole nodes, and keeps each node it made
/// for as long as it lives (keyed by page and version, like the decrypted node cache), so pointers it hands out
/// stay valid while a reader holds the view it came from.
///
/// A delta's base is an earlier copy of its base page in the same generation, found through the index; it may be a
/// delta itself (at most `LogDelta.maximumChain` deep: the writer logs a node whole past that). When the generation
/// holds no copy of the base page by the base version (or holds it in place), the base is the data file's page,
/// read with `pread` (its pages freed in the generation are not reused before the generation ends: the reuse
/// rule of docs/ARCHITECTURE.md, "Why readers stay right", point 7). The node made is
/// checked before anything reads it: its header names its page and version, its checksum is the one the record
/// lists and its bytes hash to it. A damaged delta or base therefore fails as `corruptFile`, never as wrong data.
///
/// Thread-safe (one lock). The bytes it reads are the generation's log, which does not change while the generation
/// is pinned (docs/ARCHITECTURE.md, "Commit path", "Why readers stay right").
final class LogMaterializer: @unchecked Sendable {
    /// Where the log's bytes are read from.
    enum Source {
        /// The log file's mapping, reserving `mappedBytes` (a reader, a live checkpoint).
        case mapped(base: UnsafeRawPointer, mappedBytes: UInt64)
        /// The log file read with `pread` (the first opener's replay), into buffers kept as long as this object.
        case file(CommitLog)
    }

    private struct Key: Hashable {
        var page: UInt64
        var version: UInt64
    }

    let pageSize: Int
    /// The log file's path, for errors.
    let path: String
    private let source: Source
    /// The data file, for bases that are its pages (nil: every base must be in the log).
    private let data: StorageFile?
    private let lock = ThreadLock()
    private var nodes: [Key: UnsafeMutableRawPointer] = [:]
    private var starts: Set<UnsafeRawPointer> = []
    private var buffers: [UnsafeMutableRawPointer] = []

    init(source: Source, data: StorageFile?, pageSize: Int, path: String) {
        self.source = source
        self.data = data
        self.pageSize = pageSize
        self.path = path
    }

    deinit {
        for buffer in buffers { buffer.deallocate() }
    }

    /// The whole node of the delta copy `location` of `page`, its base found in `index` (which must reach the
    /// base's version: any index of the generation that reaches the delta's does).
    ///
    /// - Throws: `corruptFile` when the delta or its base is damaged, missing or too deep; `io` when reading fails.
    func node(page: UInt64, location: LogIndex.Location, index: LogIndex) throws -> UnsafeRawPointer {
        try lock.withLock { UnsafeRawPointer(try materialize(page: page, location: location, index: index, depth: 1)) }
    }

    /// Whether `start` is the start of a node this object made (a pointer a reader got from it).
    func made(_ start: UnsafeRawPointer) -> Bool {
        lock.withLock { starts.contains(start) }
    }

    /// The copy of `page` written by `version` in `index` as a writer diffs against it: its start, its bytes that
    /// matter, and how many deltas it stands on (0 for a whole copy); nil when the generation holds no such copy
    /// (or only in place in the data file).
    ///
    /// - Throws: what `node` throws.
    func base(page: UInt64, version: UInt64, index: LogIndex) throws
        -> (start: UnsafeRawPointer, byteCount: Int, chain: Int)?
    {
        try lock.withLock {
            guard let location = logCopy(of: page, version: version, index: index) else { return nil }
            let chain = try chainLength(page: page, location: location, index: index)
            let start = try nodeStart(page: page, location: location, index: index, depth: 1)
            return (UnsafeRawPointer(start.pointer), start.byteCount, chain)
        }
    }

    /// The copy of `page` by `version` in the generation's log, or nil when the base is the data file's page.
    private func logCopy(of page: UInt64, version: UInt64, index: LogIndex) -> LogIndex.Location? {
        guard let location = index.location(of: page, atMost: version), location.version == version,
            !location.isInPlace, !location.isInline || location.isDelta
        else { return nil }
        return location
    }

    /// The data file's node on `page`, which must be the one `version` wrote: read into a buffer kept as long as
    /// this object.
    private func dataNode(page: UInt64, version: UInt64, for delta: (page: UInt64, version: UInt64)) throws
        -> (pointer: UnsafeRawPointer, byteCount: Int)
    {
        guard let data else {
            throw corrupt(
                delta.page, delta.version, "its base, page \(page) by version \(version), is not in the log generation")
        }
        var header = [UInt8](repeating: 0, count: NodeHeader.byteCount)
        try header.withUnsafeMutableBytes { try data.read(into: $0, at: page * UInt64(pageSize)) }
        guard let decoded = header.withUnsafeBytes({ NodeHeader.decode(from: $0.baseAddress!) }),
            decoded.version == version, decoded.page == page, Int(decoded.length) <= Int(UInt32.max) - NodeHeader.byteCount
        else {
            throw corrupt(
                delta.page, delta.version,
                "its base, page \(page) by version \(version), is not in the data file: the page holds another node")
        }
        let byteCount = NodeHeader.byteCount + Int(decoded.length)
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: byteCount, alignment: 64)
        buffers.append(buffer)
        try data.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: byteCount), at: page * UInt64(pageSize))
        return (UnsafeRawPointer(buffer), byteCount)
    }

    // MARK: Internals

    private func corrupt(_ page: UInt64, _ version: UInt64, _ detail: String) -> StrataError {
        .corruptFile(path: path, location: "delta of page \(page) by version \(version)", detail: detail)
    }

    /// Deltas the copy stands on (itself included); 0 for a whole copy.
    private func chainLength(page: UInt64, location: LogIndex.Location, index: LogIndex) throws -> Int {
        var length = 0
        var current = (page: page, location: location)
        while current.location.isDelta {
            length += 1
            guard length <= LogDelta.maximumChain else {
                throw corrupt(page, location.version, "it stands on more than \(LogDelta.maximumChain) deltas")
            }
            let delta = try decodeDelta(page: current.page, location: current.location)
            guard let base = logCopy(of: delta.basePage, version: delta.baseVersion, index: index),
                base.version < current.location.version
            else { return length }
            current = (delta.basePage, base)
        }
        return length
    }

    /// The log's `count` bytes at `offset`.
    private func logBytes(at offset: UInt64, count: Int, page: UInt64, version: UInt64) throws -> UnsafeRawPointer {
        switch source {
        case .mapped(let base, let mappedBytes):
            guard offset + UInt64(count) <= mappedBytes else {
                throw corrupt(page, version, "it lies past the \(mappedBytes) bytes this process mapped of the log")
            }
            return base + Int(offset)
        case .file(let log):
            let buffer = UnsafeMutableRawPointer.allocate(byteCount: max(count, 1), alignment: 64)
            buffers.append(buffer)
            try log.read(at: offset, into: UnsafeMutableRawBufferPointer(start: buffer, count: count))
            return UnsafeRawPointer(buffer)
        }
    }

    private func decodeDelta(page: UInt64, location: LogIndex.Location) throws -> LogDelta {
        let bytes = try logBytes(
            at: location.offset, count: Int(location.byteCount), page: page, version: location.version)
        guard let delta = LogDelta.decode(
            from: bytes, byteCount: Int(location.byteCount), maximumNodeBytes: Int(location.pages) * pageSize)
        else { throw corrupt(page, location.version, "its ranges do not decode") }
        return delta
    }

    /// The start and bytes that matter of the copy `location` of `page`: in the log for a whole copy, made for a
    /// delta. Checks the header of a whole copy (its version and page); its checksum is the reader's to check, or
    /// the materialized node's.
    private func nodeStart(page: UInt64, location: LogIndex.Location, index: LogIndex, depth: Int) throws
        -> (pointer: UnsafeRawPointer, byteCount: Int)
    {
        if location.isDelta {
            let made = try materialize(page: page, location: location, index: index, depth: depth)
            return (UnsafeRawPointer(made), NodeHeader.byteCount + Int(UnsafeRawPointer(made).u32(at: 12)))
        }
        let start = try logBytes(
            at: location.offset, count: Int(location.byteCount), page: page, version: location.version)
        guard location.byteCount >= UInt32(NodeHeader.byteCount), let header = NodeHeader.decode(from: start),
            header.version == location.version, header.page == page,
            NodeHeader.byteCount + Int(header.length) <= Int(location.byteCount)
        else { throw corrupt(page, location.version, "its base copy in the log is not the node of that page") }
        return (start, NodeHeader.byteCount + Int(header.length))
    }

    private func materialize(page: UInt64, location: LogIndex.Location, index: LogIndex, depth: Int) throws
        -> UnsafeMutableRawPointer
    {
        let key = Key(page: page, version: location.version)
        if let made = nodes[key] { return made }
        guard depth <= LogDelta.maximumChain else {
            throw corrupt(page, location.version, "it stands on more than \(LogDelta.maximumChain) deltas")
        }
        let delta = try decodeDelta(page: page, location: location)
        let deltaBytes = try logBytes(
            at: location.offset, count: Int(location.byteCount), page: page, version: location.version)
        guard delta.baseVersion < location.version else {
            throw corrupt(page, location.version, "its base version \(delta.baseVersion) is not older than it")
        }
        let base = try logCopy(of: delta.basePage, version: delta.baseVersion, index: index).map {
            try nodeStart(page: delta.basePage, location: $0, index: index, depth: depth + 1)
        } ?? dataNode(page: delta.basePage, version: delta.baseVersion, for: (page, location.version))
        let byteCount = Int(location.pages) * pageSize
        let output = UnsafeMutableRawPointer.allocate(byteCount: byteCount, alignment: 64)
        buffers.append(output)
        delta.apply(base: base.pointer, baseByteCount: base.byteCount, delta: deltaBytes, into: output)
        if delta.nodeByteCount < byteCount {
            output.advanced(by: delta.nodeByteCount).initializeMemory(
                as: UInt8.self, repeating: 0, count: byteCount - delta.nodeByteCount)
        }
        guard let header = NodeHeader.decode(from: output), header.version == location.version, header.page == page,
            NodeHeader.byteCount + Int(header.length) == delta.nodeByteCount,
            UnsafeRawPointer(output).u64(at: 0) == location.checksum,
            Checksum.hash(UnsafeRawPointer(output) + 8, count: delta.nodeByteCount - 8) == location.checksum
        else {
            throw corrupt(
                page, location.version,
                "the node made from it and its base does not match its checksum: the delta or its base is damaged")
        }
        nodes[key] = output
        starts.insert(UnsafeRawPointer(output))
        return output
    }
}
