/// One commit in the commit log: its version, its meta slot, and the sealed nodes it wrote, each with the page it
/// belongs on in the data file.
///
/// On disk a record is a header padded to whole pages, then each node padded to its whole pages, in the order of
/// the header's entries; the record starts on a page boundary of the log, so every node sits page-aligned as it
/// will in the data file and a checkpoint copies it with one write.
///
/// ```
/// 0   checksum    UInt64  xxHash64 (seed `checksumSeed`) of bytes 8 ..< headerLength
/// 8   magic       UInt32  `SLRC`
/// 12  node count  UInt32
/// 16  salt        UInt64  the log generation's salt (`LogHeader.salt`)
/// 24  version     UInt64  the version the record commits
/// 32  byte count  UInt64  the whole record's bytes, header pages and node pages
/// 40  meta        64 bytes: the version's meta slot (`MetaSlot` encoding)
/// 104 entries     node count × (page UInt64, pages UInt32, bytes UInt32, checksum UInt64)
/// ... inline nodes  each at the next 64-byte boundary, in entry order
/// ```
///
/// An entry with 0 bytes is a node written in place in the data file (`Entry.isInPlace`): it takes no pages in the
/// record. An entry whose pages word has bit 31 set is an *inline* node (`Entry.isInline`, log format 2): its
/// bytes follow the entries inside the header's pages, unpadded, instead of taking whole pages of their own; a
/// commit's free-list changes, a few hundred bytes, go so (docs/FILE-FORMAT.md, "The commit log"). An inline entry
/// whose pages word also has bit 30 set is a *delta* (`Entry.isDelta`, log format 3): its inline bytes are not the
/// node but a `LogDelta`, the byte ranges in which the node differs from an earlier copy in the same generation, and
/// its byte count is the delta's; its checksum is still the whole node's, which the node materialized from its
/// base and the ranges must carry.
///
/// The header's checksum covers the header; each entry's checksum is the checksum the node's own header carries
/// (xxHash64 of its header fields and payload, or ciphertext and seal), so a node that is missing or torn fails
/// the check against its entry. A record is whole when its header checks, its salt is the generation's, its version
/// follows the previous record's, and every node matches its entry.
struct LogRecord: Equatable, Sendable {
    /// One node of the record.
    struct Entry: Equatable, Sendable {
        /// The node's first page in the data file.
        var page: UInt64
        /// Pages the node spans.
        var pages: UInt32
        /// Bytes of the node that matter (header and payload, or ciphertext and seal); the rest of its pages is zero.
        /// 0 for a node written in place in the data file (`isInPlace`).
        var byteCount: UInt32
        /// The checksum in the node's header.
        var checksum: UInt64
        /// Whether the node's bytes sit inside the record's header pages, unpadded, instead of in pages of their
        /// own (a commit's free-list changes).
        var isInline: Bool = false
        /// Whether the inline bytes are a delta against an earlier copy (`LogDelta`) rather than the node; always
        /// inline. `byteCount` is then the delta's, and `checksum` the materialized node's.
        var isDelta: Bool = false

        /// Bit of the pages word that marks an inline node on disk.
        static let inlineFlag: UInt32 = 1 << 31
        /// Bit of the pages word that marks a delta (with `inlineFlag`).
        static let deltaFlag: UInt32 = 1 << 30

        /// Whether the node is not in the log but in its place in the data file, written and synced before the
        /// record (a large transaction's spilled node). Listing it keeps an older copy of the same page in the log
        /// from shadowing it: readers of this version on read the data file, and checkpoints skip it.
        var isInPlace: Bool { byteCount == 0 }
    }

    /// `SLRC`.
    static let magic: UInt32 = 0x4352_4C53
    /// Seed of the header checksum.
    static let checksumSeed: UInt64 = 0x5354_524C_5245_4344
    /// Bytes before the entries.
    static let fixedByteCount = 104
    /// Bytes per entry.
    static let entryByteCount = 24
    /// Alignment of an inline node inside the header pages (its payload is then 16-byte aligned, as on a page).
    static let inlineAlignment = 64

    /// The log generation's salt.
    var salt: UInt64
    /// The version the record commits.
    var version: UInt64
    /// The version's meta slot.
    var meta: MetaSlot
    /// The record's nodes, in the order they follow the header.
    var entries: [Entry]

    /// Bytes of the header before its padding.
    static func headerLength(entries: Int) -> Int { fixedByteCount + entries * entryByteCount }

    /// Where each inline node starts, as an offset from the record's start (0 for the other entries), and where
    /// the last one ends (`headerLength` when there is none).
    static func inlineLayout(of entries: [Entry]) -> (offsets: [Int], end: Int) {
        var cursor = headerLength(entries: entries.count)
        let offsets = entries.map { entry -> Int in
            guard entry.isInline else { return 0 }
            let offset = (cursor + inlineAlignment - 1) / inlineAlignment * inlineAlignment
            cursor = offset + Int(entry.byteCount)
            return offset
        }
        return (offsets, cursor)
    }

    /// Pages the header (with its inline nodes) takes in a log of `pageSize`-byte pages.
    static func headerPages(entries: [Entry], pageSize: Int) -> Int {
        (inlineLayout(of: entries).end + pageSize - 1) / pageSize
    }

    /// The whole record's bytes in a log of `pageSize`-byte pages.
    func byteCount(pageSize: Int) -> UInt64 {
        let nodePages = entries.reduce(UInt64(0)) { $0 + ($1.isInPlace || $1.isInline ? 0 : UInt64($1.pages)) }
        return (UInt64(Self.headerPages(entries: entries, pageSize: pageSize)) + nodePages) * UInt64(pageSize)
    }

    /// Where each node starts, as an offset from the record's start (an inline node inside the header pages; for
    /// a node in place, where the next node in the log starts: it has no bytes here).
    func nodeOffsets(pageSize: Int) -> [UInt64] {
        let inline = Self.inlineLayout(of: entries).offsets
        var offset = UInt64(Self.headerPages(entries: entries, pageSize: pageSize) * pageSize)
        return entries.indices.map { index in
            let entry = entries[index]
            if entry.isInline { return UInt64(inline[index]) }
            defer { if !entry.isInPlace { offset += UInt64(entry.pages) * UInt64(pageSize) } }
            return offset
        }
    }

    /// Writes the header (`headerLength` bytes, checksum last computed) at `base`.
    func encodeHeader(into base: UnsafeMutableRawPointer, pageSize: Int) {
        base.setU32(Self.magic, at: 8)
        base.setU32(UInt32(entries.count), at: 12)
        base.setU64(salt, at: 16)
        base.setU64(version, at: 24)
        base.setU64(byteCount(pageSize: pageSize), at: 32)
        meta.encode(into: base + 40)
        for (index, entry) in entries.enumerated() {
            let start = Self.fixedByteCount + index * Self.entryByteCount
            base.setU64(entry.page, at: start)
            let flags = (entry.isInline ? Entry.inlineFlag : 0) | (entry.isDelta ? Entry.deltaFlag : 0)
            base.setU32(entry.pages | flags, at: start + 8)
            base.setU32(entry.byteCount, at: start + 12)
            base.setU64(entry.checksum, at: start + 16)
        }
        let length = Self.headerLength(entries: entries.count)
        base.setU64(Checksum.hash(UnsafeRawPointer(base) + 8, count: length - 8, seed: Self.checksumSeed), at: 0)
    }

    /// The node count of the header at `base`, or nil when the first `fixedByteCount` bytes are not a record's
    /// (wrong magic); the count says how many bytes `decodeHeader` needs.
    static func entryCount(at base: UnsafeRawPointer) -> Int? {
        base.u32(at: 8) == magic ? Int(base.u32(at: 12)) : nil
    }

    /// The record whose whole header (`headerLength(entries:)` bytes) is at `base`, or nil when it does not check
    /// (torn, stale, or not a record), its salt is not `salt`, or its byte count disagrees with its entries.
    static func decodeHeader(from base: UnsafeRawPointer, salt: UInt64, pageSize: Int) -> LogRecord? {
        guard let count = entryCount(at: base) else { return nil }
        let length = headerLength(entries: count)
        guard Checksum.hash(base + 8, count: length - 8, seed: checksumSeed) == base.u64(at: 0),
            base.u64(at: 16) == salt, let meta = MetaSlot.decode(from: base + 40)
        else { return nil }
        let entries = (0..<count).map { index in
            let start = fixedByteCount + index * entryByteCount
            let pages = base.u32(at: start + 8)
            return Entry(
                page: base.u64(at: start), pages: pages & ~(Entry.inlineFlag | Entry.deltaFlag),
                byteCount: base.u32(at: start + 12), checksum: base.u64(at: start + 16),
                isInline: pages & Entry.inlineFlag != 0, isDelta: pages & Entry.deltaFlag != 0)
        }
        let record = LogRecord(salt: salt, version: base.u64(at: 24), meta: meta, entries: entries)
        guard record.meta.version == record.version,
            entries.allSatisfy({
                $0.pages > 0 && UInt64($0.byteCount) <= UInt64($0.pages) * UInt64(pageSize)
                    && !($0.isInline && $0.isInPlace) && (!$0.isDelta || $0.isInline)
            }),
            record.byteCount(pageSize: pageSize) == base.u64(at: 32)
        else { return nil }
        return record
    }
}
