/// A synced version whose meta slot page 0 does not hold: the lock file recorded version v as synced (its meta slot
/// and the data-file slot it went to are in the lock file), and neither of page 0's slots names it, while both name
/// older versions that are whole. Either page 0's write of that slot was lost or overwritten with an older copy
/// (a disk that drops or misdirects a write, a page restored from an older copy), or the data file was replaced
/// under its lock file (a backup restored). The first opener tells them apart by v's commit record, which only a
/// file that held v can have (its checksum is in v's slot): see docs/ARCHITECTURE.md, "An acknowledged commit is
/// never lost silently".
extension Store {
    /// What the open does about the version the lock file recorded as synced.
    enum LostMetaSlot {
        /// The file holds every node of that version: page 0 lost its slot, which the open writes again.
        case restore(meta: MetaSlot, slot: Int)
        /// The file held that version (its commit record is there) but a node of it is missing or damaged: an
        /// acknowledged commit was lost.
        case lost(OpenRecovery)
    }

    /// Compares the version the lock file recorded as synced with `choice`, the newest whole version page 0 names
    /// (a store without a commit log): nil when there is nothing to do (the lock file names no newer version, or a
    /// version this file never held: a file replaced under its lock file opens as it is).
    ///
    /// - Throws: the file's size could not be read.
    static func lostMetaSlot(choice: Recovery.Choice, lockFile: LockFile, pagedFile: PagedFile) throws -> LostMetaSlot? {
        guard choice.rejected == nil, let synced = lockFile.previousSynced, synced.meta.version > choice.meta.version,
            !synced.meta.commitRecord.isNone
        else { return nil }
        let fileSize = try pagedFile.file.size()
        guard pagedFile.holds(synced.meta.commitRecord, checksum: synced.meta.commitRecordChecksum, fileSize: fileSize)
        else { return nil }
        guard let problem = Recovery.problem(with: synced.meta, in: pagedFile, fileSize: fileSize) else {
            return .restore(meta: synced.meta, slot: synced.slot)
        }
        return .lost(
            OpenRecovery(
                openedVersion: choice.meta.version, rejectedVersion: synced.meta.version,
                acknowledgedVersion: synced.meta.version,
                reason: "version \(synced.meta.version), which the lock file recorded as synced, is named by neither "
                    + "meta slot of page 0 (page 0 lost the write of its slot; its commit record is at page "
                    + "\(synced.meta.commitRecord.page)) and is not whole: \(problem)"))
    }

    /// Writes `meta`'s slot into page 0 again (slot `slot`) and the data file's acknowledged record with it, before
    /// the open's sync makes both durable.
    ///
    /// - Throws: `corruptFile` for a read-only open, which cannot write it (opening the older version instead
    ///   would let a writer that joins build over the newer version's pages); the write's error.
    static func restoreMetaSlot(_ meta: MetaSlot, slot: Int, in file: StorageFile, path: String, readOnly: Bool)
        throws
    {
        guard !readOnly else {
            throw StrataError.corruptFile(
                path: path, location: FileHeader.slotLocation(slot),
                detail: "it lost the write of version \(meta.version), which the lock file recorded as synced and "
                    + "whose pages are all intact; open the store once read-write (not read-only) to write the slot "
                    + "again")
        }
        try meta.write(to: file, slot: slot)
        try AcknowledgedSlot.write(meta, to: file)
    }
}
