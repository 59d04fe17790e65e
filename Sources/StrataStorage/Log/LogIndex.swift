/// One process's map from data-file pages to their copies in the current commit log generation: for each page,
/// every version of the generation that wrote it and where that copy sits in the log.
///
/// A reader pinned to version v reads page p from the newest copy written by a version up to v (`location`), and
/// from the data file when the generation holds none. The index is extended from the log's record headers
/// (`CommitLog.records`) as versions are published, and emptied when the generation changes (`reset`); entries
/// never change once added, so a reader that looked a page up keeps a valid answer while the generation lasts.
struct LogIndex: Sendable {
    /// Where one copy of a page sits in the log.
    struct Location: Equatable, Sendable {
        /// The version that wrote the copy.
        var version: UInt64
        /// The copy's offset in the log file.
        var offset: UInt64
        /// Bytes of the copy that matter (its header and payload, or ciphertext and seal).
        var byteCount: UInt32
        /// Pages the copy spans.
        var pages: UInt32
        /// Whether the copy sits inside its record's header pages, unpadded (`LogRecord.Entry.isInline`).
        var isInline: Bool = false
        /// Whether the copy is a delta against an earlier copy (`LogDelta`): `byteCount` is then the delta's, and
        /// the node is materialized (`LogMaterializer`).
        var isDelta: Bool = false
        /// The node's checksum (its record entry's): what a materialized delta must carry.
        var checksum: UInt64 = 0

        /// Whether the version wrote the page in place in the data file (`LogRecord.Entry.isInPlace`): a reader
        /// finding this reads the data file, which holds that version's node.
        var isInPlace: Bool { byteCount == 0 }
    }

    /// The generation the index describes (`LogHeader.salt`); 0 before the first.
    private(set) var salt: UInt64 = 0
    /// The newest version the index covers.
    private(set) var newestVersion: UInt64 = 0
    /// Each page's copies, oldest version first.
    private var copies: [UInt64: [Location]] = [:]

    /// Pages with at least one copy in the generation.
    var pageCount: Int { copies.count }

    /// Empties the index for the generation `salt`, which follows data file version `checkpointed`.
    mutating func reset(salt: UInt64, checkpointed: UInt64) {
        self.salt = salt
        newestVersion = checkpointed
        copies.removeAll(keepingCapacity: true)
    }

    /// Adds the nodes of `records`, which follow `newestVersion` in order (`CommitLog.records(after:)`).
    ///
    /// - Precondition: the records are of this index's generation and consecutive from `newestVersion` + 1.
    mutating func extend(with records: [CommitLog.Located], pageSize: Int) {
        for located in records {
            let record = located.record
            precondition(record.salt == salt && record.version == newestVersion + 1, "log records out of order")
            for (entry, offset) in zip(record.entries, record.nodeOffsets(pageSize: pageSize)) {
                copies[entry.page, default: []].append(Location(
                    version: record.version, offset: located.offset + offset, byteCount: entry.byteCount,
                    pages: entry.pages, isInline: entry.isInline, isDelta: entry.isDelta, checksum: entry.checksum))
            }
            newestVersion = record.version
        }
    }

    /// The copy of `page` a reader of `version` reads: the newest one written by a version up to `version`, or nil
    /// when the generation holds none. Nil, or a location in place, means the page is read from the data file.
    func location(of page: UInt64, atMost version: UInt64) -> Location? {
        guard let list = copies[page] else { return nil }
        // Few copies per page (a page is rewritten only after it was freed and the freeing version became durable).
        return list.last { $0.version <= version }
    }

    /// The copies a checkpoint to `version` writes into the data file, sorted by page: every copy written by a version
    /// up to `version` that no later write up to `version` overlaps (a copy of the same page, a node spanning it
    /// from an earlier page, or a node written in place). A page is written again only after the node holding it
    /// was freed, so a copy overlapped by a later write is of a node that no later version reaches, and writing it
    /// would put stale bytes into pages the later node holds. Copies in place are not written (the data file holds
    /// them already), but they overlap older copies all the same.
    func newestCopies(atMost version: UInt64) -> [(page: UInt64, location: Location)] {
        var writes: [(page: UInt64, location: Location)] = []
        for (page, list) in copies {
            for location in list where location.version <= version { writes.append((page, location)) }
        }
        // Newest first: a write is kept when no newer one has covered any of its pages.
        writes.sort { ($0.location.version, $0.page) > ($1.location.version, $1.page) }
        var covered = PageRanges()
        var kept: [(page: UInt64, location: Location)] = []
        for write in writes {
            let end = write.page + UInt64(write.location.pages)
            guard covered.insertIfFree(write.page..<end) else { continue }
            if !write.location.isInPlace { kept.append(write) }
        }
        return kept.sorted { $0.page < $1.page }
    }
}

/// Disjoint page ranges, sorted: what newer writes covered, for `LogIndex.newestCopies`.
private struct PageRanges {
    private var ranges: [Range<UInt64>] = []

    /// Adds `range` and returns true when it overlaps none of the ranges; else changes nothing and returns false.
    mutating func insertIfFree(_ range: Range<UInt64>) -> Bool {
        // The first range ending after `range` starts: the only one that can overlap it from below or inside.
        var low = 0
        var high = ranges.count
        while low < high {
            let middle = (low + high) / 2
            if ranges[middle].upperBound <= range.lowerBound { low = middle + 1 } else { high = middle }
        }
        if low < ranges.count && ranges[low].lowerBound < range.upperBound { return false }
        ranges.insert(range, at: low)
        return true
    }
}
