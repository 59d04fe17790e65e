extension Store {
    /// File size, used and free bytes, pinned versions and the current version, for users to see why a file
    /// grows (a long-lived reader pins old pages) and when compacting would pay.
    ///
    /// - Throws: `transactionMisuse` when closed; `corruptFile` when the free list is damaged; `io`.
    public var status: StoreStatus {
        get throws {
            let reader = try beginRead()
            defer { reader.end() }
            let meta = reader.meta
            let extents = try pagedFile.freeList(of: meta, log: reader.log).extents
            let (pinned, durable, otherPins) = stateLock.withLock {
                (
                    pins, lockFile.durable.version,
                    lockFile.pinsOfOtherProcesses(ownSlot: readerSlot, clearingDead: false).map(\.version)
                )
            }
            // The status's own reader is not a pin worth reporting.
            var counts = pinned
            counts.remove(reader.pin)
            let ownPins = Set(counts.pins.map(\.version)).sorted()
            let oldest = (ownPins + otherPins).min()
            let freePages = extents.reduce(0) { $0 + $1.count }
            let waitingPages = FreeSpace(extents: extents)
                .waitingPageCount(pinLimit: min(oldest ?? .max, meta.version), durable: durable)
            let page = UInt64(pageSize)
            return StoreStatus(
                currentVersion: meta.version, oldestPinnedVersion: oldest, pinnedVersionsInProcess: ownPins,
                pageSize: pageSize, fileBytes: try pagedFile.file.size(), usedBytes: (meta.pageCount - freePages) * page,
                freeBytes: freePages * page, waitingBytes: waitingPages * page, openRecovery: openRecovery)
        }
    }
}
