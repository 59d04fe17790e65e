/// Page 0 of a store file: what the file is, its format and page size, and where the two meta slots live.
///
/// The first 24 bytes, and the encryption block at 64 (`EncryptionHeader`), are written once, when the file is
/// created, and never again. The meta slots sit in their own 512-byte sectors (offsets 512 and 1024), so writing
/// one can never tear the other.
enum FileHeader {
    /// `STRATADB`.
    static let magic: UInt64 = 0x4244_4154_4152_5453
    /// The newest format this code reads, and the one it writes for every new file, encrypted or not (the
    /// encryption block says which): format 3 binds every node to its place (the node header records its own page,
    /// references carry a tag of the version that wrote the node: see `NodeRef`). Formats 1 (clear) and 2
    /// (encrypted) are read and written as they are, their nodes unbound, so existing files keep opening and keep
    /// opening in older versions of Strata, which refuse a format-3 file as "newer format" instead of misreading
    /// its references; compacting or copying one through the table layer writes a format-3 file.
    static let formatVersion: UInt32 = 3
    /// The first format whose nodes are bound to their pages and versions.
    static let boundFormatVersion: UInt32 = 3
    /// Where meta slot 0 and meta slot 1 start.
    static let slotOffsets = [512, 1024]

    /// Where meta slot `slot` lies, for errors: "meta slot 1 (page 0, bytes 1024-1087)".
    static func slotLocation(_ slot: Int) -> String {
        "meta slot \(slot) (page 0, bytes \(slotOffsets[slot])-\(slotOffsets[slot] + MetaSlot.byteCount - 1))"
    }
    /// Bytes of page 0 the pager ever reads.
    static let byteCount = 2048
    /// The smallest and largest page sizes (powers of two); the smallest holds the header and both slots.
    static let pageSizes = 2048...65536
    /// Seed of the header checksum, so a zero-filled header never checks.
    static let checksumSeed: UInt64 = 0x5354_5241_5441_4844

    /// The bytes of page 0 of a new file with one meta slot filled (and the encryption block, if any).
    static func encode(pageSize: Int, initialMeta: MetaSlot, encryption: EncryptionHeader? = nil) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: pageSize)
        bytes.withUnsafeMutableBytes { buffer in
            let base = buffer.baseAddress!
            base.setU64(magic, at: 0)
            base.setU32(formatVersion, at: 8)
            base.setU32(UInt32(pageSize), at: 12)
            base.setU64(Checksum.hash(UnsafeRawPointer(base), count: 16, seed: checksumSeed), at: 16)
            encryption?.encode(into: base)
            initialMeta.encode(into: base + slotOffsets[0])
        }
        return bytes
    }

    /// Whether the nodes of a file whose page 0 is at `base` (checked by `pageSize(from:path:)`) are bound to their
    /// pages and versions (format 3 and later).
    static func bindsNodes(at base: UnsafeRawPointer) -> Bool {
        base.u32(at: 8) >= boundFormatVersion
    }

    /// Checks the first `byteCount` bytes of a file and returns its page size.
    ///
    /// - Throws: `notADatabase` (wrong magic), `unsupportedFormat` (newer format), `corruptFile` (bad checksum or
    ///   page size).
    static func pageSize(from base: UnsafeRawPointer, path: String) throws -> Int {
        guard base.u64(at: 0) == magic else { throw StrataError.notADatabase(path: path) }
        let format = base.u32(at: 8)
        guard Checksum.hash(base, count: 16, seed: checksumSeed) == base.u64(at: 16) else {
            throw StrataError.corruptFile(
                path: path, location: "file header (page 0, bytes 0-23)",
                detail: "the header checksum does not match; restore the file from a backup")
        }
        guard format <= formatVersion else {
            throw StrataError.unsupportedFormat(path: path, version: Int(format), supported: Int(formatVersion))
        }
        let pageSize = Int(base.u32(at: 12))
        guard pageSizes.contains(pageSize), pageSize & (pageSize - 1) == 0 else {
            throw StrataError.corruptFile(
                path: path, location: "file header (page 0, bytes 12-15)",
                detail: "page size \(pageSize) is not a power of two between 2048 and 65536")
        }
        return pageSize
    }
}

/// One of the two meta slots: everything needed to find a committed version.
///
/// The valid slot with the higher version is current, provided its commit record checks (see `CommitRecord`).
struct MetaSlot: Equatable, Sendable {
    /// The version (transaction id) this slot commits; the empty store is version 1.
    var version: UInt64
    /// The table layer's root node.
    var root: NodeRef
    /// The node holding the free list (`none` when no page is free).
    var freeList: NodeRef
    /// The node listing every node written since the last durable version (`none` for the first version).
    var commitRecord: NodeRef
    /// The checksum the commit record node must have.
    var commitRecordChecksum: UInt64
    /// Pages the version uses: every node and free extent lies below it.
    var pageCount: UInt64
    /// The last version known durable when this one was written (the commit record covers everything after it).
    var durableBase: UInt64

    /// Bytes a slot takes on disk.
    static let byteCount = 64
    /// The commit record checksum of a version committed through the commit log, which writes no commit record
    /// (`LOGCOMMT`): the log's record lists its nodes, and the data file gets the slot only from a checkpoint, after
    /// syncing every page the version needs (docs/FILE-FORMAT.md, "Meta slot").
    static let logCommitMark: UInt64 = 0x544D_4D4F_4347_4F4C

    /// Whether the slot is a version committed through the commit log (no commit record, `logCommitMark`).
    var isLogCommit: Bool { commitRecord.isNone && commitRecordChecksum == Self.logCommitMark }
    private static let checksumSeed: UInt64 = 0x5354_5241_4D45_5441

    /// Writes the slot, checksum first, at `base`.
    func encode(into base: UnsafeMutableRawPointer) {
        base.setU64(version, at: 8)
        base.setU64(root.rawValue, at: 16)
        base.setU64(freeList.rawValue, at: 24)
        base.setU64(commitRecord.rawValue, at: 32)
        base.setU64(commitRecordChecksum, at: 40)
        base.setU64(pageCount, at: 48)
        base.setU64(durableBase, at: 56)
        base.setU64(Checksum.hash(UnsafeRawPointer(base) + 8, count: Self.byteCount - 8, seed: Self.checksumSeed), at: 0)
    }

    /// The slot at `base`, or nil when it is empty, torn or damaged (its checksum does not match).
    static func decode(from base: UnsafeRawPointer) -> MetaSlot? {
        guard Checksum.hash(base + 8, count: byteCount - 8, seed: checksumSeed) == base.u64(at: 0) else { return nil }
        let slot = MetaSlot(
            version: base.u64(at: 8), root: NodeRef(rawValue: base.u64(at: 16)),
            freeList: NodeRef(rawValue: base.u64(at: 24)), commitRecord: NodeRef(rawValue: base.u64(at: 32)),
            commitRecordChecksum: base.u64(at: 40), pageCount: base.u64(at: 48), durableBase: base.u64(at: 56))
        return slot.version == 0 || slot.pageCount == 0 ? nil : slot
    }

    /// The bytes of the slot.
    func bytes() -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: Self.byteCount)
        bytes.withUnsafeMutableBytes { encode(into: $0.baseAddress!) }
        return bytes
    }

    /// Writes the slot into meta slot `slot` (0 or 1) of `file`'s page 0, without a sync.
    ///
    /// - Throws: the write's error.
    func write(to file: StorageFile, slot: Int) throws {
        try bytes().withUnsafeBytes { try file.write($0, at: UInt64(FileHeader.slotOffsets[slot])) }
    }
}
