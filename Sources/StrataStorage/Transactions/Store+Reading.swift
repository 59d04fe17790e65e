extension Store {
    /// Begins a read transaction on the newest committed version.
    ///
    /// The version stays pinned (its pages are never reused) until the transaction ends. Never blocks on the
    /// writer, and takes no file lock: the pin goes into this process's reader slot, then the current version is
    /// read again, and a version published in between starts the pin over (`LockFile`'s notes say why that is
    /// enough).
    ///
    /// - Throws: `transactionMisuse` when the store is closed, `corruptFile` when the lock file's copy of the
    ///   current meta slot is damaged.
    public func beginRead() throws -> ReadTransaction {
        let meta = try stateLock.withLock { () throws -> MetaSlot in
            guard !isClosed else { throw closedError() }
            while true {
                let meta = try currentMeta()
                beforePinning?()
                pins[meta.version, default: 0] += 1
                lockFile.setPin(pins.keys.min() ?? 0, slot: readerSlot)
                if lockFile.latestVersion == meta.version {
                    openTransactions += 1
                    return meta
                }
                // A writer published meanwhile and may not have seen the pin: its next commit could reuse pages
                // of `meta`. Pin the newer version instead.
                unpin(meta.version)
            }
        }
        return ReadTransaction(store: self, meta: meta)
    }

    /// Unpins `version` for one reader.
    func endRead(version: UInt64) {
        stateLock.withLock {
            unpin(version)
            leaveTransaction()
        }
    }

    /// Runs `body` in every `beginRead` of this store between reading the current version and pinning it, with
    /// the store's state lock held (so `body` must not use this store; another process may commit meanwhile): the
    /// window in which a commit makes a reader pin again. Nil removes it. For tests.
    package func setBeforePinning(_ body: (() -> Void)?) {
        stateLock.withLock { beforePinning = body }
    }

    /// Drops one pin of `version` and stores the oldest pin left in this process's slot. Call with `stateLock`
    /// held.
    private func unpin(_ version: UInt64) {
        if let count = pins[version] { pins[version] = count > 1 ? count - 1 : nil }
        lockFile.setPin(pins.keys.min() ?? 0, slot: readerSlot)
    }

    /// The current version's meta slot from the lock file, read without a lock.
    func currentMeta() throws -> MetaSlot {
        try currentMetaAndSlot().meta
    }

    /// The current version's meta slot and the data-file slot holding it, read together without a lock.
    func currentMetaAndSlot() throws -> (meta: MetaSlot, slot: Int) {
        let current = lockFile.current
        guard let meta = current.meta else {
            throw StrataError.corruptFile(
                path: lockFile.path, location: "current meta copy (bytes 16-23 and 64-223)",
                detail: "the lock file is damaged; close every process using the store and delete the lock file")
        }
        return (meta, current.slot)
    }
}
