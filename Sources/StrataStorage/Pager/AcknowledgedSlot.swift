/// The data file's own record of its newest acknowledged version: a copy of the meta slot of the last version
/// whose sync returned, written into page 0 (bytes 1536-1615) after that sync by a store that syncs its commits.
///
/// The lock file's durable mark tells a damaged acknowledged commit from a torn one (docs/ARCHITECTURE.md, "An
/// acknowledged commit is never lost silently"), but a file copied, backed up or moved without its lock file
/// loses that record, and damage to its newest commit then looked like a crash during it: the open went back one
/// version without an error. This copy travels with the file. A newest meta slot that fails its check while its
/// bytes equal this copy was acknowledged; so was a newest slot whose own bytes are damaged (its version unknown)
/// when this copy names a version above the one the open would fall back to.
///
/// It is written without a sync of its own: it only ever names a version already on disk, so it reaches the disk
/// with the next commit's sync or the system's write-back, losing it to a power failure costs the record, never
/// data, and a torn copy fails its checksum and counts as none. Older versions of Strata never read these bytes.
package enum AcknowledgedSlot {
    /// Where the copy starts in page 0: its own 512-byte sector, apart from the header and both meta slots.
    package static let offset = 1536
    /// Magic (8 bytes), the meta slot (64), a checksum of both (8).
    static let byteCount = 80
    /// `STRATACK`.
    private static let magic: UInt64 = 0x4B43_4154_4152_5453
    private static let checksumSeed: UInt64 = 0x5354_5241_4143_4B53

    /// The meta slot the copy at `base` (page 0) names, or nil when there is none (a new file, a file only
    /// older versions of Strata closed, a torn or damaged copy).
    static func decode(page0 base: UnsafeRawPointer) -> MetaSlot? {
        let start = base + offset
        guard start.u64(at: 0) == magic,
            Checksum.hash(start, count: byteCount - 8, seed: checksumSeed) == start.u64(at: byteCount - 8)
        else { return nil }
        return MetaSlot.decode(from: start + 8)
    }

    /// Writes the record of `meta` into `file` (no sync), or clears it when `meta` is nil (zeros: no record).
    ///
    /// - Throws: the write's error.
    static func write(_ meta: MetaSlot?, to file: StorageFile) throws {
        var bytes = [UInt8](repeating: 0, count: byteCount)
        if let meta {
            bytes.withUnsafeMutableBytes { buffer in
                let start = buffer.baseAddress!
                start.setU64(magic, at: 0)
                meta.encode(into: start + 8)
                start.setU64(
                    Checksum.hash(UnsafeRawPointer(start), count: byteCount - 8, seed: checksumSeed), at: byteCount - 8)
            }
        }
        try bytes.withUnsafeBytes { try file.write($0, at: UInt64(offset)) }
    }

    /// The version the copy acknowledges among those the open passed over, or nil when it acknowledges none.
    ///
    /// A version passed over whose root is the root of the version opened held the same data (a compacted copy
    /// commits once more without changes, so that either slot opens it): falling back to it loses nothing.
    ///
    /// - Parameters:
    ///   - acknowledged: the copy in the file (`decode`), if any.
    ///   - rejected: the newer version the open passed over, as the file holds its slot; nil when there is none
    ///     to compare with (that slot's own bytes are damaged, its version unknown): then a copy of any version
    ///     above the one opened counts.
    ///   - opened: the version the open falls back to.
    static func acknowledgedVersion(_ acknowledged: MetaSlot?, rejected: MetaSlot?, opened: MetaSlot) -> UInt64? {
        guard let acknowledged, acknowledged.version > opened.version, acknowledged.root != opened.root else {
            return nil
        }
        guard let rejected else { return acknowledged.version }
        return rejected == acknowledged ? acknowledged.version : nil
    }
}
