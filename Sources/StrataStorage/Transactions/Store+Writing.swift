import Dispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Store {
    /// Begins the write transaction, waiting while another thread or process writes.
    ///
    /// - Throws: `readOnly`, `writesRefusedAfterFailedSync` (a sync failed earlier: reopen the store),
    ///   `transactionMisuse` (closed), `corruptFile` (the free list or commit record of the current version is
    ///   damaged), `io`.
    public func beginWrite() throws -> WriteTransaction {
        // Waiting always takes the locks, so the transaction is never nil.
        guard let transaction = try beginWrite(waiting: true) else { throw closedError() }
        return transaction
    }

    /// Begins the write transaction if no other thread or process writes now, without waiting: `nil` when the
    /// writer lock is taken. For callers that must not block their thread (`Database.asyncWrite`, which polls
    /// with `Task.sleep` between tries).
    ///
    /// - Throws: What ``beginWrite()`` throws.
    public func tryBeginWrite() throws -> WriteTransaction? {
        try beginWrite(waiting: false)
    }

    /// Begins the write transaction, waiting for the writer gate and the file's writer lock or, when `waiting` is
    /// false, returning `nil` at once when either is taken.
    private func beginWrite(waiting: Bool) throws -> WriteTransaction? {
        guard !options.readOnly else { throw StrataError.readOnly(path: path) }
        try stateLock.withLock {
            guard !isClosed else { throw closedError() }
            guard !refusesWrites else { throw StrataError.writesRefusedAfterFailedSync(path: path) }
            if let writerThread, pthread_equal(writerThread, pthread_self()) != 0 {
                throw StrataError.transactionMisuse(
                    "a write transaction on '\(path)' is already open on this thread; commit or roll it back first")
            }
            openTransactions += 1
        }
        if waiting {
            writerGate.enter()
        } else if !writerGate.tryEnter() {
            endWrite(unlockingFile: false)
            return nil
        }
        stateLock.withLock { writerThread = pthread_self() }
        do {
            guard try lockFile.lockWriter(waiting: waiting) else {
                stateLock.withLock { writerThread = nil }
                writerGate.leave()
                endWrite(unlockingFile: false)
                return nil
            }
        } catch {
            stateLock.withLock { writerThread = nil }
            writerGate.leave()
            endWrite(unlockingFile: false)
            throw error
        }
        do {
            // A deleted lock file: a process opening the store now makes a new one, recovers the file as its first
            // opener and writes, unaware of this process. Two writers would overwrite each other's pages.
            guard !lockFile.handle.isDeleted else {
                throw StrataError.io(
                    operation: "begin a write on", path: path, errno: ENOENT,
                    message: "its lock file \(lockFile.path) was deleted while the store was open, so other processes "
                        + "can no longer see this one; close the store in every process and open it again")
            }
            return try makeWriteTransaction()
        } catch {
            endWrite()
            throw error
        }
    }

    private func makeWriteTransaction(afterSync synced: Bool = false) throws -> WriteTransaction {
        struct Start {
            var meta: MetaSlot
            var durable: (version: UInt64, slot: Int)
            var oldestPin: UInt64?
            var oldestGeneration: UInt64?
            var cache: WriteCache?
        }
        let start = try stateLock.withLock { () throws -> Start in
            guard !refusesWrites else { throw StrataError.writesRefusedAfterFailedSync(path: path) }
            // The pins are read after the base version's publication (this process holds the writer lock, taken
            // after the last writer published): a reader that pins after this read pins that version or a newer one.
            let meta = try currentMeta()
            var pinned = lockFile.pinsOfOtherProcesses(ownSlot: readerSlot, clearingDead: true)
            if let own = pins.oldest { pinned.append(own) }
            return Start(
                meta: meta, durable: lockFile.durable, oldestPin: pinned.map(\.version).min(),
                oldestGeneration: pinned.map(\.generation).min(), cache: writeCache)
        }
        if start.durable.version == 0 {
            // The lock file does not know which version is durable (its first opener was read-only and could not
            // sync), and a commit chooses its meta slot and the pages it may reuse by it: sync, then start again.
            guard !synced else {
                throw StrataError.io(
                    operation: "record the durable version in", path: lockFile.path, errno: 0,
                    message: "it still names no durable version after a sync; close the store and open it again")
            }
            try syncCurrentVersion { durable, _ in durable == 0 }
            return try makeWriteTransaction(afterSync: true)
        }
        let meta = start.meta
        // With a commit log, a writer after another process's commits takes the log's end from its reader first.
        try followLog(base: meta, ownsLastCommit: start.cache?.version == meta.version)
        // Pages freed at v are reachable from versions before v: reusable once every reader pins v or later and no
        // power loss can bring back a version that reaches them (see `FreeSpace`).
        var pinLimit = min(start.oldestPin ?? .max, meta.version)
        if let bound = deltaBaseReuseBound(oldestPinnedGeneration: start.oldestGeneration) {
            pinLimit = min(pinLimit, bound)
        }
        // Under the writer lock the generation is the one the base version is read through (only writers begin one).
        let log = try logReader?.view(generation: lockFile.generation, version: meta.version)
        var freeSpace: FreeSpace
        var freeListBase: FreeListBase?
        var record: CommitRecord
        if let cache = start.cache, cache.version == meta.version {
            freeSpace = cache.freeSpace
            freeListBase = cache.freeListBase
            record = cache.record
        } else {
            let stored = try pagedFile.freeList(of: meta, log: log)
            freeSpace = FreeSpace(extents: stored.extents)
            freeListBase = stored.base
            record = CommitRecord()
            if start.durable.version < meta.version && !meta.commitRecord.isNone {
                let lease = pagedFile.makeLease()
                let payload = try pagedFile.payload(
                    of: meta.commitRecord, kind: .commitRecord, pageCount: meta.pageCount, version: meta.version,
                    lease: lease, log: log)
                record = try withExtendedLifetime(lease) {
                    try CommitRecord.decode(payload, path: path, node: meta.commitRecord)
                }
            }
        }
        freeSpace.release(pinLimit: pinLimit, durable: start.durable.version)
        // Everything up to the durable version is on disk: the next commit record need only cover what follows.
        if start.durable.version >= meta.version { record = CommitRecord() }
        return WriteTransaction(
            store: self, base: meta, freeSpace: freeSpace, freeListBase: freeListBase, carried: record,
            durableVersion: start.durable.version, writeSlot: 1 - start.durable.slot, log: log)
    }

    /// With deltas that stand on the data file's pages (`StoreOptions.logDeltasOnDataFile`), the newest version
    /// whose freed pages may be reused: pages freed in log generation g wait until no reader pins g and g is
    /// checkpointed, so no checkpoint or replay writes over a page a delta of g stands on while a reader or the
    /// replay may still make it (docs/ARCHITECTURE.md, "Why readers stay right", point 7). That is the version the
    /// oldest generation in use follows (the header's `checkpointed`: every version up to it belongs to an ended,
    /// checkpointed generation). Nil without that rule. Call holding the writer lock, after `followLog`.
    private func deltaBaseReuseBound(oldestPinnedGeneration: UInt64?) -> UInt64? {
        guard let logWriter, options.logDeltas, options.logDeltasOnDataFile, pagedFile.decrypted == nil,
            pagedFile.bindsNodes
        else { return nil }
        let oldest = min(oldestPinnedGeneration ?? logWriter.generation, logWriter.generation)
        // A generation whose header this process does not know (its file was reset since) reuses nothing yet.
        return logWriter.checkpointedVersion(of: oldest) ?? 0
    }

    /// Releases the writer lock and gate after a write transaction.
    func endWrite(unlockingFile: Bool = true) {
        if unlockingFile {
            stateLock.withLock { writerThread = nil }
            lockFile.unlockWriter()
            writerGate.leave()
        }
        stateLock.withLock { leaveTransaction() }
    }

    /// Writes a commit's nodes and meta slot (growing the file first if needed). Called under the writer lock.
    func writeCommit(nodes: SealedNodes, meta: MetaSlot, slot: Int) throws {
        try writeNodes(nodes, filePages: meta.pageCount)
        try meta.write(to: pagedFile.file, slot: slot)
    }

    /// Writes sealed nodes to their pages, first growing the file to hold `filePages` pages if it is shorter.
    /// Called under the writer lock.
    func writeNodes(_ nodes: SealedNodes, filePages: UInt64) throws {
        let needed = filePages * UInt64(pageSize)
        if needed > knownFileSize {
            knownFileSize = try pagedFile.file.size()
            if needed > knownFileSize {
                // Grow in steps (an eighth of the file, 16 pages to 64 MiB) so most commits change no file size.
                let step = min(max(needed / 8, 16 * UInt64(pageSize)), 64 << 20)
                let grown = (needed + step + UInt64(pageSize) - 1) / UInt64(pageSize) * UInt64(pageSize)
                try pagedFile.file.truncate(to: grown)
                knownFileSize = grown
            }
        }
        try writeCoalesced(nodes.sortedByPage())
    }

    /// Whether spilled nodes can become views of the file: the storage maps pages (a real file) at offsets the
    /// system's page size divides.
    var spillsToMappedPages: Bool {
        io is POSIXStorage && pageSize % Int(getpagesize()) == 0 && pagedFile.decrypted == nil
    }

    /// Writes nodes sorted by page, each padded with zeros to its whole pages, adjacent ones joined into writes of
    /// up to 64 KiB.
    ///
    /// - Whole pages: a write that covers part of a page the page cache does not hold makes the kernel read the
    ///   rest of that page from the disk first, and wait for it. Measured on Linux 6.18 ext4 with the file's pages
    ///   dropped from the cache: 44–49 µs for a 540-byte or a 16,320-byte write, 5–9 µs for 4,096 or 16,384
    ///   bytes. Most of a one-value commit's nodes are shorter than their pages: once the system had reclaimed
    ///   the file's pages, such a commit waited for one read per node.
    /// - Joined: a bulk commit allocates mostly at the end of the file, and thousands of small writes cost more
    ///   than a few large ones.
    /// - At most 64 KiB each: the page cache sizes its folios by the write. One 4 MiB write leaves 4 MiB folios
    ///   behind, and every later small write into one (a commit changing a few pages) walks all its 1,024
    ///   blocks, on write and again on sync: 15 µs instead of 4 µs per 8 KiB write, a third of a one-value
    ///   commit's time. A larger staging buffer would also be a fixed part of a bulk load's memory.
    private func writeCoalesced(_ nodes: [SealedNodes.Node]) throws {
        guard !nodes.isEmpty else { return }
        let limit = 64 << 10
        let staging = UnsafeMutableRawPointer.allocate(byteCount: limit, alignment: 64)
        defer { staging.deallocate() }
        // The staged bytes go at `runStart` in the file.
        var runStart: UInt64 = 0
        var staged = 0
        func flush() throws {
            guard staged > 0 else { return }
            try pagedFile.file.write(UnsafeRawBufferPointer(start: staging, count: staged), at: runStart)
            runStart += UInt64(staged)
            staged = 0
        }
        for node in nodes {
            let start = node.page * UInt64(pageSize)
            if staged > 0 && start != runStart + UInt64(staged) { try flush() }
            if staged == 0 { runStart = start }
            let total = Int(node.pages) * pageSize
            var offset = 0
            while offset < total {
                if staged == limit { try flush() }
                let count = min(total - offset, limit - staged)
                let copied = max(0, min(count, node.byteCount - offset))
                if copied > 0 { (staging + staged).copyMemory(from: node.bytes + offset, byteCount: copied) }
                if copied < count {
                    (staging + staged + copied).initializeMemory(as: UInt8.self, repeating: 0, count: count - copied)
                }
                staged += count
                offset += count
            }
        }
        try flush()
    }

    /// Syncs after a commit as the durability setting asks; returns whether the commit is now durable (for
    /// `.none`, whether it is to be treated as such).
    ///
    /// - Throws: the sync's error, after which the store refuses writes until reopened.
    ///
    /// - Parameter bookkeepingBytes: what the commit's free list and commit record take; a `.batched` commit syncs
    ///   early when they pass `batchedBookkeepingLimit`.
    func syncCommit(carrying bookkeepingBytes: Int = 0) throws -> Bool {
        switch options.durability {
        case .none:
            return true
        case .full:
            try syncFile(durableCommits: true)
            return true
        case .batched:
            let now = Store.monotonicSeconds()
            if now - stateLock.withLock({ lastSync }) >= options.batchInterval
                || bookkeepingBytes > Store.batchedBookkeepingLimit
            {
                try syncFile(durableCommits: true)
                return true
            }
            scheduleFlush()
            return false
        }
    }

    /// Bytes of free list and commit record beyond which a `.batched` commit syncs before its interval is up.
    /// Measured on 30,000 one-value commits to 1M objects: the two nodes grew to 9 of a commit's 15 pages by the
    /// end of a 100 ms interval; syncing once they pass 16 KiB gave about 10% more commits per second and a file
    /// 16% smaller (pages freed since the last sync cannot be reused before the next, so the file grew to hold
    /// them). Measured again once such commits cost ~55 µs of CPU (W5, 30,000 commits, limits 2/4/8/16/32 KiB):
    /// the file ended at 28.5/28.5/32.1/36.2/40.7 MB; user+sys CPU was lowest from 8 to 16 KiB (below that a
    /// sync every few commits adds kernel time, above it the record and waiting extents grow), and commits per
    /// second differed by less than the noise of a shared machine. Measured a third time (strata-bench's
    /// `.batched` W5, 10,000 commits after 10,000 `.full` ones, three alternating runs of each): 8 KiB left the
    /// file at 29.4 MB against 32.3 MB at 16 KiB, for 7,011 against 7,267 commits a second (medians; the runs of
    /// one limit spread wider than that). A file that stays as small as SQLite's after a burst of small commits
    /// is worth a few percent of `.batched` throughput, so 8 KiB.
    static let batchedBookkeepingLimit = 2 * 4096

    /// Syncs the nodes written so far, before a commit that spilled writes its own nodes and meta slot
    /// (`WriteTransaction.syncSpilledNodes`). Called under the writer lock.
    ///
    /// - Throws: the sync's error, after which the store refuses writes until reopened.
    func syncWrittenNodes() throws {
        try syncFile(durableCommits: false)
    }

    /// Syncs what makes commits durable (`durableCommits`: the commit log when the store has one, else the data
    /// file), or the data file.
    private func syncFile(durableCommits: Bool) throws {
        do {
            if durableCommits { try syncCommitsFile() } else { try pagedFile.file.sync() }
            stateLock.withLock { lastSync = Store.monotonicSeconds() }
        } catch {
            // After a failed fsync the kernel may have dropped the dirty pages: nothing is known about the disk.
            stateLock.withLock { refusesWrites = true }
            throw error
        }
    }

    /// Makes `meta` the current version for every thread and process, and remembers the write state.
    func publish(
        meta: MetaSlot, slot: Int, durable: Bool, freeSpace: FreeSpace, freeListBase: FreeListBase?,
        record: CommitRecord
    ) {
        stateLock.withLock {
            lockFile.publish(meta: meta, slot: slot, durable: durable)
            writeCache = WriteCache(
                version: meta.version, freeSpace: freeSpace, freeListBase: freeListBase,
                record: durable ? CommitRecord() : record)
        }
        // `.none` counts a commit as durable without syncing it. (Outside the state lock: the data file's record
        // is a write, and the lock file's mark moves by compare-and-exchange, as the flush's and the close's do.)
        if durable && options.durability != .none { markSynced(meta) }
        commitSignal.notify(lockFile.versionWord)
    }

    /// Syncs commits not yet synced (`.batched`), making them durable now. Do not call it inside a write
    /// transaction of this thread (it waits for the writer lock).
    ///
    /// - Throws: the sync's error (writes are then refused until reopen); `transactionMisuse` when closed.
    public func flush() throws {
        _ = try flushPending(waiting: true)
    }

    /// Syncs what is not yet durable; returns false when `waiting` is false and another writer holds the lock.
    ///
    /// Counted in `flushesInProgress`, which `close()` waits to reach zero before releasing the files.
    private func flushPending(waiting: Bool) throws -> Bool {
        guard !options.readOnly else { return true }
        try stateLock.withLock {
            if isClosed { throw closedError() }
            flushesInProgress += 1
        }
        defer {
            stateLock.withLock {
                flushesInProgress -= 1
                releaseIfIdle()
            }
        }
        if waiting {
            writerGate.enter()
        } else if !writerGate.tryEnter() {
            return false
        }
        defer { writerGate.leave() }
        guard try lockFile.lockWriter(waiting: waiting) else { return false }
        defer { lockFile.unlockWriter() }
        try syncCurrentVersion { durable, current in durable < current }
        return true
    }

    /// Syncs the file and marks the current version durable in the lock file, when `needed` says so of the durable
    /// and current versions. Call holding the writer lock.
    private func syncCurrentVersion(when needed: (_ durable: UInt64, _ current: UInt64) -> Bool) throws {
        let (current, slot) = try currentMetaAndSlot()
        guard needed(lockFile.durable.version, current.version) else { return }
        try syncFile(durableCommits: true)
        lockFile.markDurable(version: current.version, slot: slot)
        markSynced(current)
    }

    /// Arranges a flush one batch interval from now, so a `.batched` commit is never left unsynced for long.
    /// The deferred flush never waits for a writer (a `close()` waits for it): when one is busy it tries again
    /// an interval later.
    private func scheduleFlush() {
        let alreadyScheduled = stateLock.withLock { () -> Bool in
            defer { flushScheduled = true }
            return flushScheduled
        }
        guard !alreadyScheduled else { return }
        DispatchQueue.global().asyncAfter(deadline: .now() + options.batchInterval) { [weak self] in
            guard let self else { return }
            self.stateLock.withLock { self.flushScheduled = false }
            if (try? self.flushPending(waiting: false)) == false { self.scheduleFlush() }
        }
    }
}
