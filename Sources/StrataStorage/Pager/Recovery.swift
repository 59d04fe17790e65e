/// Chooses the version a file opens at: the meta slot with the higher version whose commit is whole.
///
/// A commit writes its nodes, its commit record and its meta slot, then syncs once. After a power failure any
/// subset of those writes may be on disk, torn at sector granularity. The meta slot's checksum rejects a torn
/// slot; the commit record (checksum in the slot) rejects a torn record; each node the record lists must be
/// present with the checksum the record gives, which rejects a missing or torn node. When the newest slot fails,
/// the other slot is used: it describes the last synced version, whose pages no later write touched (pages are
/// reused only once the version that freed them is durable).
enum Recovery {
    /// The newest whole version and the slot (0 or 1) holding it.
    ///
    /// - Throws: `corruptFile` when neither slot describes a whole version.
    static func newestWholeVersion(in file: PagedFile) throws -> (MetaSlot, Int) {
        let fileSize = try file.file.size()
        let candidates = [0, 1].compactMap { slot in file.meta(slot: slot).map { ($0, slot) } }
            .sorted { $0.0.version > $1.0.version }
        for (meta, slot) in candidates where isWhole(meta, in: file, fileSize: fileSize) {
            return (meta, slot)
        }
        throw StrataError.corruptFile(
            path: file.path, location: "meta slots (page 0, bytes 512-575 and 1024-1087)",
            detail: candidates.isEmpty
                ? "both meta slots are damaged; restore the file from a backup"
                : "no meta slot describes a version whose pages are all intact (versions "
                    + candidates.map { "\($0.0.version)" }.joined(separator: ", ")
                    + "); the file was truncated or overwritten; restore it from a backup")
    }

    /// Whether every page `meta` needs is in the file and every node its commit record lists is intact.
    static func isWhole(_ meta: MetaSlot, in file: PagedFile, fileSize: UInt64) -> Bool {
        let pagesInFile = fileSize / UInt64(file.pageSize)
        guard meta.pageCount <= pagesInFile, meta.pageCount <= file.mappablePages else { return false }
        for ref in [meta.root, meta.freeList, meta.commitRecord] where ref.page >= meta.pageCount { return false }
        if meta.commitRecord.isNone { return meta.version == 1 }
        let lease = file.makeLease()
        guard file.holds(meta.commitRecord, checksum: meta.commitRecordChecksum, fileSize: fileSize),
            let payload = try? file.payload(
                of: meta.commitRecord, kind: .commitRecord, pageCount: meta.pageCount, version: meta.version, lease: lease),
            let record = try? withExtendedLifetime(lease, { try CommitRecord.decode(payload, path: file.path, node: meta.commitRecord) })
        else { return false }
        for (page, checksum) in record.entries.map({ ($0.page, $0.checksum) }) {
            guard page < meta.pageCount, file.holds(NodeRef(rawValue: page), checksum: checksum, fileSize: fileSize)
            else { return false }
        }
        return true
    }
}
