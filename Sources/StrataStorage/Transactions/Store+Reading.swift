extension Store {
    /// Begins a read transaction on the newest committed version.
    ///
    /// The version stays pinned (its pages are never reused) until the transaction ends. Never blocks on the
    /// writer.
    ///
    /// - Throws: `transactionMisuse` when the store is closed, `corruptFile` when the lock file's copy of the
    ///   current meta slot is damaged, `io` when the registration lock fails.
    public func beginRead() throws -> ReadTransaction {
        let meta = try stateLock.withLock { () throws -> MetaSlot in
            guard !isClosed else { throw closedError() }
            let meta = try lockFile.withRegistration { () throws -> MetaSlot in
                let meta = try currentMeta()
                pins[meta.version, default: 0] += 1
                lockFile.setPin(pins.keys.min() ?? 0, slot: readerSlot)
                return meta
            }
            openTransactions += 1
            return meta
        }
        return ReadTransaction(store: self, meta: meta)
    }

    /// Unpins `version` for one reader.
    func endRead(version: UInt64) {
        stateLock.withLock {
            if let count = pins[version] { pins[version] = count > 1 ? count - 1 : nil }
            // If the lock cannot be taken the older pin stays: conservative, never unsafe.
            _ = try? lockFile.withRegistration { lockFile.setPin(pins.keys.min() ?? 0, slot: readerSlot) }
            leaveTransaction()
        }
    }

    /// The current version's meta slot from the lock file. Call with the registration lock held.
    func currentMeta() throws -> MetaSlot {
        guard let meta = lockFile.current.meta else {
            throw StrataError.corruptFile(
                path: lockFile.path, location: "current meta copy (bytes 64-127)",
                detail: "the lock file is damaged; close every process using the store and delete the lock file")
        }
        return meta
    }
}
