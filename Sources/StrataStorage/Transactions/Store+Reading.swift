extension Store {
    /// Begins a read transaction on the newest committed version.
    ///
    /// The version stays pinned (its pages are never reused, nor the commit-log generation it is read through)
    /// until the transaction ends. Never blocks on the writer, and takes no file lock: the pin goes into this
    /// process's reader slot, then the current version and generation are read again, and a version or generation
    /// published in between starts the pin over (`LockFile`'s notes say why that is enough).
    ///
    /// - Throws: `transactionMisuse` when the store is closed, `corruptFile` when the lock file's copy of the
    ///   current meta slot is damaged.
    public func beginRead() throws -> ReadTransaction {
        let (meta, pin) = try stateLock.withLock { () throws -> (MetaSlot, ReaderPin) in
            guard !isClosed else { throw closedError() }
            while true {
                // The generation first: a checkpoint publishes a new one before the versions that read through it.
                let generation = lockFile.generation
                let meta = try currentMeta()
                beforePinning?()
                let pin = ReaderPin(version: meta.version, generation: generation)
                pins.add(pin)
                lockFile.setPin(pins.oldest, slot: readerSlot)
                if lockFile.latestVersion == meta.version && lockFile.generation == generation {
                    openTransactions += 1
                    return (meta, pin)
                }
                // A writer published meanwhile and may not have seen the pin: its next commit could reuse pages
                // of `meta`, or its checkpoint the log file of `generation`. Pin the newer ones instead.
                unpin(pin)
            }
        }
        // With a commit log, the pinned version's pages written since the last checkpoint are read from the log.
        let log: LogView?
        do {
            log = try logView(pin: pin)
        } catch {
            endRead(pin: pin)
            throw error
        }
        return ReadTransaction(store: self, meta: meta, pin: pin, log: log)
    }

    /// The view of the commit log a reader of `pin` reads through (`LogReader.view`), or nil when the store has no
    /// log. The pin must be taken first: it keeps the generation's file from being reset under the view.
    ///
    /// - Throws: `corruptFile` when the log does not hold the pinned generation or ends before its version; `io`.
    func logView(pin: ReaderPin) throws -> LogView? {
        guard let logReader else { return nil }
        return try logReader.view(generation: pin.generation, version: pin.version)
    }

    /// Unpins `pin` for one reader.
    func endRead(pin: ReaderPin) {
        stateLock.withLock {
            unpin(pin)
            leaveTransaction()
        }
    }

    /// Runs `body` in every `beginRead` of this store between reading the current version and pinning it, with
    /// the store's state lock held (so `body` must not use this store; another process may commit meanwhile): the
    /// window in which a commit makes a reader pin again. Nil removes it. For tests.
    package func setBeforePinning(_ body: (() -> Void)?) {
        stateLock.withLock { beforePinning = body }
    }

    /// Drops one reader's `pin` and stores the oldest pin left in this process's slot. Call with `stateLock` held.
    private func unpin(_ pin: ReaderPin) {
        pins.remove(pin)
        lockFile.setPin(pins.oldest, slot: readerSlot)
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
