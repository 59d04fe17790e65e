/// The first 64 bytes of a commit log (`CommitLog`): what the file is, the page size of the store it belongs to,
/// this generation's salt and number, and the data file's version the generation follows.
///
/// ```
/// 0  checksum      UInt64  xxHash64 (seed `checksumSeed`) of bytes 8 ..< 64
/// 8  magic         UInt64  `STRATLOG`
/// 16 format        UInt32  3 (2: written before deltas, 1: before inline nodes; both read alike, since their
///                          entries never set bit 30, nor format 1's bit 31)
/// 20 page size     UInt32  the data file's page size
/// 24 salt          UInt64  random, new at every reset: every record of this generation carries it
/// 32 checkpointed  UInt64  the data file's version when the generation began: its first record is the next one
/// 40 generation    UInt64  the generation's number (the lock file's generation word when it began); even
///                          generations live in `NAME.strata.log`, odd ones in `NAME.strata.log2`
/// 48 reserved      16 bytes of zeros
/// ```
///
/// Records start at the log's first page boundary (`CommitLog.recordsStart`), so the header's sector is never
/// written by an append.
struct LogHeader: Equatable, Sendable {
    /// `STRATLOG`.
    static let magic: UInt64 = 0x474F_4C54_4152_5453
    /// The format written: 3 adds deltas (`LogRecord.Entry.isDelta`), 2 inline nodes (`LogRecord.Entry.isInline`).
    /// Logs of formats 1 and 2 are read as format 3: their entries never set the delta bit, nor format 1's the
    /// inline bit (pages stay below 2³⁰).
    static let formatVersion: UInt32 = 3
    /// Bytes the header takes.
    static let byteCount = 64
    /// Seed of the header checksum, so a zero-filled header never checks.
    static let checksumSeed: UInt64 = 0x5354_524C_4F47_4844

    /// The data file's page size.
    var pageSize: Int
    /// The generation's salt.
    var salt: UInt64
    /// The data file's version when the generation began; the generation's first record is the next version.
    var checkpointed: UInt64
    /// The generation's number: a reader that pinned generation g checks that the file it reads holds g.
    var generation: UInt64

    /// Writes the header, checksum first, at `base` (`byteCount` bytes).
    func encode(into base: UnsafeMutableRawPointer) {
        base.setU64(Self.magic, at: 8)
        base.setU32(Self.formatVersion, at: 16)
        base.setU32(UInt32(pageSize), at: 20)
        base.setU64(salt, at: 24)
        base.setU64(checkpointed, at: 32)
        base.setU64(generation, at: 40)
        for offset in stride(from: 48, to: Self.byteCount, by: 8) { base.setU64(0, at: offset) }
        let checksum = Checksum.hash(UnsafeRawPointer(base) + 8, count: Self.byteCount - 8, seed: Self.checksumSeed)
        base.setU64(checksum, at: 0)
    }

    /// The header at `base`.
    ///
    /// - Returns: nil when the bytes are all zeros or torn (the checksum does not match): a log that was never
    ///   reset, or whose first reset did not reach the disk, holds no records.
    /// - Throws: `unsupportedFormat` for a newer format, `corruptFile` for a whole header that is not a log's.
    static func decode(from base: UnsafeRawPointer, path: String) throws -> LogHeader? {
        guard Checksum.hash(base + 8, count: byteCount - 8, seed: checksumSeed) == base.u64(at: 0) else { return nil }
        guard base.u64(at: 8) == magic else {
            throw StrataError.corruptFile(
                path: path, location: "commit log header (bytes 8-15)", detail: "it is not a Strata commit log")
        }
        let format = base.u32(at: 16)
        guard format <= formatVersion else {
            throw StrataError.unsupportedFormat(path: path, version: Int(format), supported: Int(formatVersion))
        }
        return LogHeader(
            pageSize: Int(base.u32(at: 20)), salt: base.u64(at: 24), checkpointed: base.u64(at: 32),
            generation: base.u64(at: 40))
    }
}
