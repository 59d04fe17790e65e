/// The data file's record of its newest acknowledged version (`AcknowledgedSlot`, docs/ARCHITECTURE.md "An
/// acknowledged commit is never lost silently"): written after each sync that made a version durable (an open that
/// falls back clears it: `Store.init`).
extension Store {
    /// Marks `meta`, whose sync has just returned, synced in both records of it: the lock file's synced mark
    /// (`LockFile.markSynced`) and the data file's own (``recordAcknowledged(_:)``). Every sync that makes a
    /// version durable ends here, so neither record can be left behind by a new sync point.
    func markSynced(_ meta: MetaSlot) {
        lockFile.markSynced(version: meta.version)
        recordAcknowledged(meta)
    }

    /// Records `meta`, whose sync has returned, as acknowledged in the data file (page 0, its own sector), without
    /// a sync: the record names a version already on disk, so it reaches the disk with the next commit's sync (which
    /// writes page 0's meta slot anyway) or the system's write-back, and losing it costs the record, not data. A
    /// store with a commit log records nothing (its data file holds a version only after a checkpoint), nor does a
    /// failed write matter: a torn record fails its checksum and counts as none.
    private func recordAcknowledged(_ meta: MetaSlot) {
        guard logReader == nil, !options.readOnly else { return }
        try? AcknowledgedSlot.write(meta, to: pagedFile.file)
    }
}
