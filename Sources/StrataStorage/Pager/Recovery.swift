/// Chooses the version a file opens at: the meta slot with the higher version whose commit is whole.
///
/// A commit writes its nodes, its commit record and its meta slot, then syncs once. After a power failure any
/// subset of those writes may be on disk, torn at sector granularity. The meta slot's checksum rejects a torn
/// slot; the commit record (checksum in the slot) rejects a torn record; each node the record lists must be
/// present with the checksum the record gives, which rejects a missing or torn node. When the newest slot fails,
/// the other slot is used: it describes the last synced version, whose pages no later write touched (pages are
/// reused only once the version that freed them is durable).
///
/// A version committed through the commit log (`MetaSlot.isLogCommit`) has no commit record and is whole as its
/// slot is: a checkpoint writes the slot into the data file only after syncing the pages it copied.
///
/// Falling back is only right for a commit that never completed. Whether the rejected commit was acknowledged
/// (its sync returned, the app was told it was committed) is not the file's to say: `Store` asks the lock file's
/// durable mark (see docs/ARCHITECTURE.md, "An acknowledged commit is never lost silently").
enum Recovery {
    /// The version a file opens at, and the newer slot it passed over, if any.
    struct Choice {
        /// The newest whole version.
        var meta: MetaSlot
        /// The slot (0 or 1) holding it.
        var slot: Int
        /// The newer meta slot that was rejected: its version (nil when the slot itself is unreadable) and why.
        var rejected: (version: UInt64?, reason: String)?
    }

    /// The newest whole version and the slot (0 or 1) holding it.
    ///
    /// - Throws: `corruptFile` when neither slot describes a whole version.
    static func newestWholeVersion(in file: PagedFile) throws -> (MetaSlot, Int) {
        let choice = try choose(in: file)
        return (choice.meta, choice.slot)
    }

    /// The newest whole version, and what was rejected on the way to it: a newer slot whose commit is not whole,
    /// or a slot whose own bytes are damaged (an empty slot, as a new file's second one, is not a rejection).
    ///
    /// - Throws: `corruptFile` when neither slot describes a whole version.
    static func choose(in file: PagedFile) throws -> Choice {
        let fileSize = try file.file.size()
        let candidates = file.decodedMetaSlots()
        // A slot that does not decode and is not all zeros was written and then damaged (or torn): it may have
        // held the newest version, which is unknown. A newer slot found not whole below says more, and replaces it.
        var rejected: (version: UInt64?, reason: String)? = [0, 1]
            .first { slot in file.meta(slot: slot) == nil && !isBlank(slot: slot, in: file) }
            .map { slot in (nil, "\(FileHeader.slotLocation(slot)) is damaged") }
        for (meta, slot) in candidates {
            guard let problem = problem(with: meta, in: file, fileSize: fileSize) else {
                return Choice(meta: meta, slot: slot, rejected: rejected)
            }
            // Candidates come newest first: the first one rejected is the newest version the file names.
            if rejected?.version == nil {
                rejected = (meta.version, "version \(meta.version) (meta slot \(slot)) is not whole: \(problem)")
            }
        }
        throw StrataError.corruptFile(
            path: file.path, location: "meta slots (page 0, bytes 512-575 and 1024-1087)",
            detail: candidates.isEmpty
                ? "both meta slots are damaged; restore the file from a backup"
                : "no meta slot describes a version whose pages are all intact (versions "
                    + candidates.map { "\($0.meta.version)" }.joined(separator: ", ")
                    + "); the file was truncated or overwritten; restore it from a backup")
    }

    /// Whether meta slot `slot` holds only zero bytes (never written).
    private static func isBlank(slot: Int, in file: PagedFile) -> Bool {
        let start = file.base + FileHeader.slotOffsets[slot]
        return (0..<MetaSlot.byteCount).allSatisfy { start.load(fromByteOffset: $0, as: UInt8.self) == 0 }
    }

    /// Whether every page `meta` needs is in the file and every node its commit record lists is intact.
    static func isWhole(_ meta: MetaSlot, in file: PagedFile, fileSize: UInt64) -> Bool {
        problem(with: meta, in: file, fileSize: fileSize) == nil
    }

    /// Why the version `meta` describes is not whole (a page it needs is past the end of the file, its commit
    /// record or a node the record lists is missing or damaged), or nil when it is whole.
    static func problem(with meta: MetaSlot, in file: PagedFile, fileSize: UInt64) -> String? {
        let pagesInFile = fileSize / UInt64(file.pageSize)
        guard meta.pageCount <= pagesInFile, meta.pageCount <= file.mappablePages else {
            return "it needs \(meta.pageCount) pages and the file holds \(pagesInFile)"
        }
        for ref in [meta.root, meta.freeList, meta.commitRecord] where ref.page >= meta.pageCount {
            return "node \(ref) lies past its \(meta.pageCount) pages"
        }
        // A version committed through the commit log has no commit record: a checkpoint wrote its slot after
        // syncing every page it needs (docs/ARCHITECTURE.md, "Why readers stay right").
        if meta.commitRecord.isNone {
            return meta.version == 1 || meta.isLogCommit ? nil : "it has no commit record"
        }
        let lease = file.makeLease()
        guard file.holds(meta.commitRecord, checksum: meta.commitRecordChecksum, fileSize: fileSize),
            let payload = try? file.payload(
                of: meta.commitRecord, kind: .commitRecord, pageCount: meta.pageCount, version: meta.version,
                lease: lease),
            let record = try? withExtendedLifetime(
                lease, { try CommitRecord.decode(payload, path: file.path, node: meta.commitRecord) })
        else { return "its commit record (page \(meta.commitRecord.page)) is missing or damaged" }
        for (page, checksum) in record.entries.map({ ($0.page, $0.checksum) }) {
            guard page < meta.pageCount, file.holds(NodeRef(rawValue: page), checksum: checksum, fileSize: fileSize)
            else { return "the node its commit record lists at page \(page) is missing or damaged" }
        }
        return nil
    }
}
