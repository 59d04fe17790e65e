#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Brings the data file up to the newest version of a commit log generation: writes the newest copy of each page
/// the generation wrote to its place, syncs, writes the newest record's meta slot, syncs. The log is left as it
/// is; resetting it is the caller's choice (only when no reader reads through it: docs/ARCHITECTURE.md, "Commit
/// path").
///
/// A crash at any point leaves a state the next opener recovers from the same log: before the meta slot's sync
/// the data file's meta slots still name the version the generation follows (its pages overwritten by the
/// checkpoint were free in every version from it on, see the argument in docs/ARCHITECTURE.md), and the log,
/// synced first, still holds every record; after it, the data file holds the newest version by itself.
enum LogCheckpoint {
    /// What a checkpoint did.
    struct Outcome: Equatable, Sendable {
        /// The meta slot written, or nil when the log held nothing after the data file's version.
        var meta: MetaSlot?
        /// Pages written into the data file (meta slot aside).
        var pagesWritten: UInt64
    }

    /// Checkpoints the records of `log` after `dataVersion` (the data file's version) into `data`, whose newest
    /// meta slot is `currentSlot`; the new meta slot goes into the other one.
    ///
    /// Inline copies (`LogRecord.Entry.isInline`) are written only when the newest record holds them: only a
    /// commit's free-list changes go inline, and the next commit always frees them (a version's changes node is
    /// reachable from its own meta slot alone), so an older inline copy is of a node no version from the newest on
    /// reaches, as a copy a later write overlaps is.
    ///
    /// - Parameters:
    ///   - sealByteCount: Bytes an encrypted node carries after its payload (0 for a clear store).
    ///   - verifyingNodes: Whether every node is checked against its record before anything is copied (at open
    ///     after a crash); a live checkpoint copies what this process appended or indexed.
    ///   - mapping: The log file's mapping and the bytes it reserves (`LogReader.mapping`): copies are written to
    ///     the data file straight from it. Without one (the first opener's replay) they are read with `pread`.
    ///   - indexed: This process's index of the generation (`LogReader.view`) and the newest record's meta slot,
    ///     when the index reaches it: the record headers are then not read again. Copies up to `dataVersion` in
    ///     it are left out (the data file holds them already).
    /// - Throws: `diskFull`, `io` (a failed sync: what the disk holds is unknown).
    static func run(
        log: CommitLog, into data: StorageFile, dataVersion: UInt64, currentSlot: Int, sealByteCount: Int,
        verifyingNodes: Bool, mapping: (base: UnsafeRawPointer, mappedBytes: UInt64)? = nil,
        indexed: (index: LogIndex, newest: MetaSlot)? = nil
    ) throws -> Outcome {
        let index: LogIndex
        let newestMeta: MetaSlot
        if let indexed, !verifyingNodes, indexed.index.salt == log.header?.salt,
            indexed.index.newestVersion == indexed.newest.version, indexed.newest.version == log.newestVersion
        {
            guard indexed.newest.version > dataVersion else { return Outcome(meta: nil, pagesWritten: 0) }
            (index, newestMeta) = indexed
        } else {
            // The whole generation, not only the records after the data file's version: a delta's base may be a
            // copy an earlier checkpoint of the generation already wrote.
            guard let header = log.header else { return Outcome(meta: nil, pagesWritten: 0) }
            let records = try log.records(
                after: header.checkpointed, sealByteCount: sealByteCount, verifyingNodes: verifyingNodes, data: data)
            guard let newest = records.last?.record, newest.version > dataVersion else {
                return Outcome(meta: nil, pagesWritten: 0)
            }
            var built = LogIndex()
            built.reset(salt: newest.salt, checkpointed: header.checkpointed)
            built.extend(with: records, pageSize: log.pageSize)
            (index, newestMeta) = (built, newest.meta)
        }
        // The records are durable before any page they hold overwrites the data file.
        try log.sync()
        let pageSize = UInt64(log.pageSize)
        let needed = newestMeta.pageCount * pageSize
        if try data.size() < needed { try data.truncate(to: needed) }
        let logSize = log.knownSize
        var pagesWritten: UInt64 = 0
        var buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: log.pageSize, alignment: 64)
        defer { buffer.deallocate() }
        // Deltas are written whole, made from their bases in the log, which the checkpoint never changes, or in the
        // data file, on pages freed in this generation, which none of its records (so no copy written here) reuses.
        let materializer = LogMaterializer(
            source: mapping.map { .mapped(base: $0.base, mappedBytes: min($0.mappedBytes, logSize)) } ?? .file(log),
            data: data, pageSize: log.pageSize, path: log.file.path)
        for (page, location) in index.newestCopies(atMost: newestMeta.version) where location.version > dataVersion {
            if location.isDelta {
                let node = try materializer.node(page: page, location: location, index: index)
                let pages = UnsafeRawBufferPointer(start: node, count: Int(location.pages) * log.pageSize)
                try data.write(pages, at: page * pageSize)
                pagesWritten += UInt64(location.pages)
                continue
            }
            if location.isInline && location.version != newestMeta.version { continue }
            // Whole pages: a partial write into an uncached page makes the kernel read the rest first.
            let byteCount = Int(location.pages) * log.pageSize
            let end = location.offset + UInt64(byteCount)
            if let mapping, !location.isInline, end <= mapping.mappedBytes, end <= logSize {
                // A copy in pages of its own is padded with zeros in the log: its pages go as they are.
                let pages = UnsafeRawBufferPointer(start: mapping.base + Int(location.offset), count: byteCount)
                try data.write(pages, at: page * pageSize)
                pagesWritten += UInt64(location.pages)
                continue
            }
            if buffer.count < byteCount {
                buffer.deallocate()
                buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: byteCount, alignment: 64)
            }
            let copy = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<byteCount])
            // An inline copy is followed in the log by other bytes: its own, then zeros to its pages.
            let used = location.isInline ? Int(location.byteCount) : byteCount
            if let mapping, location.offset + UInt64(used) <= min(mapping.mappedBytes, logSize) {
                copy.baseAddress!.copyMemory(from: mapping.base + Int(location.offset), byteCount: used)
            } else {
                try log.read(at: location.offset, into: UnsafeMutableRawBufferPointer(rebasing: copy[0..<used]))
            }
            if used < byteCount { memset(copy.baseAddress! + used, 0, byteCount - used) }
            try data.write(UnsafeRawBufferPointer(copy), at: page * pageSize)
            pagesWritten += UInt64(location.pages)
        }
        try data.sync()
        try newestMeta.write(to: data, slot: 1 - currentSlot)
        try data.sync()
        return Outcome(meta: newestMeta, pagesWritten: pagesWritten)
    }
}
