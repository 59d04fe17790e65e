#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A commit log file: a header (`LogHeader`), then one record per commit (`LogRecord`), appended with one write
/// each into a file preallocated and reused from its start after every reset.
///
/// A log generation begins with `reset`, which writes a header with a new salt; its records follow one another
/// from `recordsStart`, each on a page boundary, versions consecutive from the header's `checkpointed` + 1. Reading
/// the log (`records`) stops at the first record that is not whole: one torn by a power failure in the middle of
/// its append, or one left from an earlier generation (another salt), which is where the generation ends.
///
/// Not thread-safe: the store serializes appends and resets under its writer lock, and a reader extends its own
/// index (`LogIndex`) from `records` under its own lock. `read(at:into:)` may run concurrently with appends (it reads
/// what an earlier append wrote).
final class CommitLog {
    /// The log file.
    let file: StorageFile
    /// The data file's page size; records and their nodes sit on multiples of it.
    let pageSize: Int
    /// Bytes the log is grown to when it is created, and the step it grows by when an append needs more.
    let preallocatedBytes: UInt64
    /// The current generation's header; nil before the first reset.
    private(set) var header: LogHeader?
    /// Where the next record goes; `recordsStart` in an empty generation.
    private(set) var appendOffset: UInt64
    /// The newest version in the log, or the header's `checkpointed` when it holds no record.
    private(set) var newestVersion: UInt64
    /// The file's size as last set or read: appends below it overwrite written bytes and never grow the file.
    private(set) var knownSize: UInt64
    /// Reused between appends so a small commit allocates nothing (grown to the largest record, up to `stagingLimit`).
    private var staging: UnsafeMutableRawBufferPointer?
    /// What a new log is grown to, and the step of later growth, by default: `preallocatedBytes(checkpointThreshold:)`
    /// of the default threshold.
    static let defaultPreallocatedBytes = preallocatedBytes(checkpointThreshold: LogWriter.defaultCheckpointThreshold)

    /// The preallocation of a log checkpointed every `checkpointThreshold` bytes of records: twice the threshold,
    /// so a generation of small commits ends inside it (the threshold, plus the record that passed it) and reusing
    /// the file never grows it (8 MiB for the default 4 MiB threshold); at most 16 MiB, a step that makes growth
    /// rare without reserving much disk for a log that may never reach it.
    static func preallocatedBytes(checkpointThreshold: UInt64) -> UInt64 {
        min(checkpointThreshold, 8 << 20) * 2
    }
    /// Records larger than this are written in several writes of at most this size.
    static let stagingLimit = 1 << 20

    /// Where the first record of every generation starts: the first page boundary after the header.
    var recordsStart: UInt64 { UInt64(pageSize) }

    /// Bytes of records in the current generation.
    var recordBytes: UInt64 { appendOffset - recordsStart }

    /// Opens the log in `file` (created empty if new) for a data file of `pageSize`-byte pages, finding the end of
    /// its current generation (reading each record header, and with `verifyingNodes` each node of each record).
    ///
    /// - Parameters:
    ///   - preallocatedBytes: What a new or short log is grown to, and the step of later growth.
    ///   - sealByteCount: Bytes an encrypted node carries after its payload (0 for a clear store); the node
    ///     checksums cover them.
    ///   - verifyingNodes: Whether to read and hash every node (the first opener after a crash); a process joining
    ///     a store others have open reads the headers only, as `records` does for published records.
    ///   - findingEnd: Whether to walk the records to the generation's end at all. Without it only the header is
    ///     read, and the log must not be appended to before a `reset` or an `adopt` (a process that writes after
    ///     others learns the end from its reader's index; the first opener skips the older generation's file).
    ///   - data: The data file, for deltas whose base is its page (when verifying).
    /// - Throws: `corruptFile` or `unsupportedFormat` for a header that is whole but not this store's log; `io`.
    init(
        file: StorageFile, pageSize: Int, preallocatedBytes: UInt64 = CommitLog.defaultPreallocatedBytes,
        sealByteCount: Int,
        verifyingNodes: Bool = true, findingEnd: Bool = true, data: StorageFile? = nil
    ) throws {
        self.file = file
        self.pageSize = pageSize
        self.preallocatedBytes = max(preallocatedBytes, UInt64(pageSize) * 2)
        knownSize = try file.size()
        appendOffset = UInt64(pageSize)
        newestVersion = 0
        header = try readHeader()
        if let header {
            guard header.pageSize == pageSize else {
                throw StrataError.corruptFile(
                    path: file.path, location: "commit log header (bytes 20-23)",
                    detail: "its page size \(header.pageSize) is not the data file's \(pageSize): it is another "
                        + "store's log")
            }
            newestVersion = header.checkpointed
            guard findingEnd else { return }
            let records = try self.records(
                after: header.checkpointed, sealByteCount: sealByteCount, verifyingNodes: verifyingNodes, data: data)
            if let last = records.last {
                appendOffset = last.offset + last.record.byteCount(pageSize: pageSize)
                newestVersion = last.record.version
            }
        }
    }

    deinit {
        staging?.deallocate()
    }

    /// A record found in the log, with where it starts.
    struct Located: Equatable, Sendable {
        /// The record's offset in the log file.
        var offset: UInt64
        /// The record.
        var record: LogRecord
    }

    private func readHeader() throws -> LogHeader? {
        guard knownSize >= UInt64(LogHeader.byteCount) else { return nil }
        var bytes = [UInt8](repeating: 0, count: LogHeader.byteCount)
        try bytes.withUnsafeMutableBytes { try file.read(into: $0, at: 0) }
        return try bytes.withUnsafeBytes { try LogHeader.decode(from: $0.baseAddress!, path: file.path) }
    }

    /// Reads the header again, for a process that reads a log another process writes: returns whether the
    /// generation changed (another salt) since this object last read or wrote it. A reader's index of the old
    /// generation must then be reset (`LogIndex.reset`) before it is extended again. Append offset and newest
    /// version are this object's own and mean nothing in a process that does not write.
    ///
    /// - Throws: what reading the header throws.
    @discardableResult
    func refreshHeader() throws -> Bool {
        knownSize = max(knownSize, try file.size())
        let current = try readHeader()
        defer { header = current }
        return current?.salt != header?.salt
    }

    /// Takes over the end of the current generation as another process left it: the header read again, the next
    /// record at `appendOffset`, after version `newestVersion` (what a reader's index of the generation found,
    /// `LogReader.end`). For a writer whose process did not write the last record.
    ///
    /// - Throws: what reading the header and the file's size throws; `corruptFile` when the file no longer holds a
    ///   header.
    func adopt(appendOffset: UInt64, newestVersion: UInt64) throws {
        try refreshHeader()
        guard header != nil else {
            throw StrataError.corruptFile(
                path: file.path, location: "commit log header (bytes 0-63)",
                detail: "a writer found no log header where the lock file's generation lives: the file was replaced or "
                    + "damaged while the store was open")
        }
        self.appendOffset = appendOffset
        self.newestVersion = newestVersion
    }

    /// Begins generation `generation`, following data file version `checkpointed`: writes a header with a new salt (the
    /// records of the previous generation then fail their salt check), growing a short file to
    /// `preallocatedBytes` (zeros, synced). Syncs nothing else: the caller syncs when the reset must be durable (an
    /// append under `.full` syncs it with its record).
    ///
    /// Only when no reader reads through the current generation (see docs/ARCHITECTURE.md, "Commit path").
    func reset(checkpointed: UInt64, generation: UInt64) throws {
        var salt: UInt64 = 0
        while salt == 0 || salt == header?.salt { salt = UInt64.random(in: 1...UInt64.max) }
        let newHeader = LogHeader(pageSize: pageSize, salt: salt, checkpointed: checkpointed, generation: generation)
        if knownSize < preallocatedBytes { try fillWithZeros(to: preallocatedBytes) }
        var bytes = [UInt8](repeating: 0, count: LogHeader.byteCount)
        bytes.withUnsafeMutableBytes { newHeader.encode(into: $0.baseAddress!) }
        try bytes.withUnsafeBytes { try file.write($0, at: 0) }
        header = newHeader
        appendOffset = recordsStart
        newestVersion = checkpointed
    }

    /// Appends the record of `meta.version`, which must follow `newestVersion`, holding `nodes` (sealed as they go
    /// to the data file; those on a page in `inline` inside the header pages, unpadded) and listing `inPlace`,
    /// nodes of the version already written to their pages in the data file and synced: one write for a record up
    /// to `stagingLimit` bytes. Syncs nothing (`sync`) but the zeros of a growth, `preallocatedBytes` at a time,
    /// before the record is written over them.
    ///
    /// - Returns: The record and where it was written.
    /// - Throws: `invalidArgument` before the first reset or out of order; `diskFull`, `io`.
    ///
    /// - Parameter deltas: Nodes logged as deltas (`LogDelta`, inline), by page: the node's entry lists the delta's
    ///   bytes instead of the node's, and the node's checksum.
    @discardableResult
    func append(
        meta: MetaSlot, nodes: [SealedNodes.Node], inPlace: [(page: UInt64, pages: UInt64, checksum: UInt64)] = [],
        inline: Set<UInt64> = [], deltas: [UInt64: [UInt8]] = [:]
    ) throws -> Located {
        guard let header else {
            throw StrataError.invalidArgument("an append to the commit log \(file.path) before its first reset")
        }
        guard meta.version == newestVersion + 1 else {
            throw StrataError.invalidArgument(
                "an append of version \(meta.version) to the commit log \(file.path), whose newest is \(newestVersion)")
        }
        let entries = nodes.map { node in
            let delta = deltas[node.page]
            return LogRecord.Entry(
                page: node.page, pages: UInt32(node.pages), byteCount: UInt32(delta?.count ?? node.byteCount),
                checksum: node.bytes.u64(at: 0), isInline: delta != nil || inline.contains(node.page),
                isDelta: delta != nil)
        } + inPlace.map { LogRecord.Entry(page: $0.page, pages: UInt32($0.pages), byteCount: 0, checksum: $0.checksum) }
        let record = LogRecord(salt: header.salt, version: meta.version, meta: meta, entries: entries)
        let total = record.byteCount(pageSize: pageSize)
        try ensureCapacity(appendOffset + total)
        let headerBytes = LogRecord.headerPages(entries: entries, pageSize: pageSize) * pageSize
        let offsets = record.nodeOffsets(pageSize: pageSize)
        if total <= UInt64(Self.stagingLimit) {
            let buffer = stagingBuffer(byteCount: Int(total))
            let base = buffer.baseAddress!
            memset(base, 0, Int(total))
            record.encodeHeader(into: base, pageSize: pageSize)
            for (node, offset) in zip(nodes, offsets) {
                if let delta = deltas[node.page] {
                    delta.withUnsafeBytes { _ = memcpy(base + Int(offset), $0.baseAddress!, $0.count) }
                } else {
                    memcpy(base + Int(offset), node.bytes, node.byteCount)
                }
            }
            try file.write(UnsafeRawBufferPointer(start: base, count: Int(total)), at: appendOffset)
        } else {
            // A large commit (a bulk load): the header with its inline nodes, then each other node, each write
            // within the staging limit.
            let buffer = stagingBuffer(byteCount: headerBytes)
            let base = buffer.baseAddress!
            memset(base, 0, headerBytes)
            record.encodeHeader(into: base, pageSize: pageSize)
            for (node, offset) in zip(nodes, offsets) {
                if let delta = deltas[node.page] {
                    delta.withUnsafeBytes { _ = memcpy(base + Int(offset), $0.baseAddress!, $0.count) }
                } else if inline.contains(node.page) {
                    memcpy(base + Int(offset), node.bytes, node.byteCount)
                }
            }
            try file.write(UnsafeRawBufferPointer(start: base, count: headerBytes), at: appendOffset)
            for (node, offset) in zip(nodes, offsets) where !inline.contains(node.page) && deltas[node.page] == nil {
                var written = 0
                while written < node.byteCount {
                    let count = min(Self.stagingLimit, node.byteCount - written)
                    try file.write(
                        UnsafeRawBufferPointer(start: node.bytes + written, count: count),
                        at: appendOffset + offset + UInt64(written))
                    written += count
                }
            }
        }
        let located = Located(offset: appendOffset, record: record)
        appendOffset += total
        newestVersion = meta.version
        return located
    }

    /// Makes every append and reset so far durable.
    func sync() throws {
        try file.sync()
    }

    /// The whole records of the current generation with versions after `version`, in order, read from the file
    /// from the generation's start (another process's appends included). Stops at the first record that is not
    /// whole; with `verifyingNodes`, every node is read and checked against its entry (after a crash), else only
    /// the headers (records another process published: its write completed before it published them).
    ///
    /// Reads one header at a time and, when verifying, one node at a time: a log longer than memory is read in
    /// pieces.
    ///
    /// - Parameters:
    ///   - start: Where to begin instead of the generation's first record: the offset of a record known to be
    ///     whole and the version it must hold (a reader's index, extended from where it stopped last time).
    ///   - limit: The newest version to return (a reader reads no record past the published version: a writer
    ///     may be appending the next one, or may have died in the middle of it).
    ///   - data: The data file, for deltas whose base is its page (verifying only).
    func records(
        after version: UInt64, sealByteCount: Int, verifyingNodes: Bool,
        from start: (offset: UInt64, version: UInt64)? = nil, through limit: UInt64 = .max, data: StorageFile? = nil
    ) throws -> [Located] {
        guard let header else { return [] }
        let size = try file.size()
        knownSize = max(knownSize, size)
        var found: [Located] = []
        var offset = start?.offset ?? recordsStart
        var expected = start?.version ?? header.checkpointed + 1
        var fixed = [UInt8](repeating: 0, count: LogRecord.fixedByteCount)
        // A delta is checked by making its node from its base, an earlier copy of the generation: the walk keeps an
        // index of what it passed (it starts at the generation's first record when verifying).
        var walked = LogIndex()
        walked.reset(salt: header.salt, checkpointed: expected - 1)
        let materializer = verifyingNodes
            ? LogMaterializer(source: .file(self), data: data, pageSize: pageSize, path: file.path) : nil
        while expected <= limit, offset + UInt64(LogRecord.fixedByteCount) <= size {
            try fixed.withUnsafeMutableBytes { try file.read(into: $0, at: offset) }
            guard let count = fixed.withUnsafeBytes({ LogRecord.entryCount(at: $0.baseAddress!) }) else { break }
            let length = LogRecord.headerLength(entries: count)
            guard UInt64(length) <= size - offset else { break }
            var bytes = [UInt8](repeating: 0, count: length)
            try bytes.withUnsafeMutableBytes { try file.read(into: $0, at: offset) }
            guard let record = bytes.withUnsafeBytes({
                LogRecord.decodeHeader(from: $0.baseAddress!, salt: header.salt, pageSize: pageSize)
            }), record.version == expected else { break }
            let total = record.byteCount(pageSize: pageSize)
            guard total <= size - offset else { break }
            if let materializer {
                guard try nodesAreWhole(
                    record, at: offset, sealByteCount: sealByteCount, index: walked, materializer: materializer)
                else { break }
                walked.extend(with: [Located(offset: offset, record: record)], pageSize: pageSize)
            }
            if record.version > version { found.append(Located(offset: offset, record: record)) }
            offset += total
            expected += 1
        }
        return found
    }

    /// Whether every node of `record` (at `offset`) is in the log as its entry says: its header's checksum is the
    /// entry's and its bytes hash to it. Nodes in place were synced in the data file before the record was written.
    /// A delta is whole when the node made from it and its base (in `index`, the records before this one) is.
    private func nodesAreWhole(
        _ record: LogRecord, at offset: UInt64, sealByteCount: Int, index: LogIndex, materializer: LogMaterializer
    ) throws -> Bool {
        for (entry, nodeOffset) in zip(record.entries, record.nodeOffsets(pageSize: pageSize)) where !entry.isInPlace {
            if entry.isDelta {
                let location = LogIndex.Location(
                    version: record.version, offset: offset + nodeOffset, byteCount: entry.byteCount,
                    pages: entry.pages, isInline: true, isDelta: true, checksum: entry.checksum)
                do {
                    _ = try materializer.node(page: entry.page, location: location, index: index)
                } catch StrataError.corruptFile {
                    return false
                }
                continue
            }
            guard entry.byteCount >= UInt32(NodeHeader.byteCount) else { return false }
            let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: Int(entry.byteCount), alignment: 64)
            defer { bytes.deallocate() }
            try file.read(into: bytes, at: offset + nodeOffset)
            let base = UnsafeRawPointer(bytes.baseAddress!)
            guard base.u64(at: 0) == entry.checksum, let nodeHeader = NodeHeader.decode(from: base) else {
                return false
            }
            let hashed = NodeHeader.byteCount - 8 + Int(nodeHeader.length) + sealByteCount
            guard hashed + 8 == Int(entry.byteCount), nodeHeader.version == record.version,
                Checksum.hash(base + 8, count: hashed) == entry.checksum
            else { return false }
        }
        return true
    }

    /// Reads the node of `entry` at `offset` in the log (a location from `records` or a `LogIndex`) into `buffer`,
    /// which holds at least `entry.byteCount` bytes.
    func read(at offset: UInt64, into buffer: UnsafeMutableRawBufferPointer) throws {
        try file.read(into: buffer, at: offset)
    }

    private func ensureCapacity(_ end: UInt64) throws {
        guard end > knownSize else { return }
        try fillWithZeros(to: (end + preallocatedBytes - 1) / preallocatedBytes * preallocatedBytes)
    }

    /// Grows the file to `size` bytes by writing zeros, not by `ftruncate`, and syncs them: a truncated file is
    /// sparse, so each append into it would allocate blocks and its sync would have to write that allocation too,
    /// and an append past the synced size makes its `fdatasync` commit the new size as well. An append over blocks
    /// already written and synced changes no metadata, and its sync writes the record alone (measured on this
    /// project's ext4 disk: 4 KiB and `fdatasync` 140-180 µs when the file grows, about 97 µs over written bytes).
    /// The one sync here is paid once per `preallocatedBytes` of growth, not per commit; the bytes it makes durable
    /// are zeros, which no reader takes for a record.
    private func fillWithZeros(to size: UInt64) throws {
        let chunk = 1 << 20
        let zeros = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk, alignment: 64)
        defer { zeros.deallocate() }
        zeros.initializeMemory(as: UInt8.self, repeating: 0)
        var offset = knownSize / UInt64(pageSize) * UInt64(pageSize)
        while offset < size {
            let count = Int(min(UInt64(chunk), size - offset))
            try file.write(UnsafeRawBufferPointer(rebasing: zeros[0..<count]), at: offset)
            offset += UInt64(count)
        }
        try file.sync()
        knownSize = size
    }

    private func stagingBuffer(byteCount: Int) -> UnsafeMutableRawBufferPointer {
        if let staging, staging.count >= byteCount { return staging }
        staging?.deallocate()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: byteCount, alignment: 64)
        staging = buffer
        return buffer
    }
}
