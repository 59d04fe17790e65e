#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An open store file: the pager under the table layer.
///
/// A store hands out read transactions (each pins the newest committed version; any number, in any threads and
/// processes) and one write transaction at a time (across threads and processes). Commits are copy-on-write:
/// a page a live version can reach is never written, so a crash at any instant leaves a committed version.
///
/// The store is thread-safe. Opening the same path twice in a process returns the same store (the cross-process
/// locks belong to the process, so one store per file per process is the rule).
public final class Store: @unchecked Sendable {
    /// The store file's path (`memory:<identifier>` for in-memory stores).
    public let path: String
    /// The options the store was opened with.
    package let options: StoreOptions
    /// The page size of the file.
    package let pageSize: Int
    /// What this open found when the newest commit in the file was not whole (the version it opened instead, the
    /// version passed over, whether that one had been acknowledged), or `nil` when it opened the newest commit.
    /// Only the process that opens the file first checks it: in a process that opened the store while another
    /// had it open, this is `nil`.
    public let openRecovery: OpenRecovery?

    let io: StorageIO
    let pagedFile: PagedFile
    let lockFile: LockFile
    let readerSlot: Int
    /// This process's reading side of the commit log (docs/ARCHITECTURE.md, "Commit path"): readers and the writer
    /// read the pages written since the last checkpoint through it. Nil when the store has no log (the default while
    /// `StoreOptions.commitLog` is off, docs/ARCHITECTURE.md "What remains"): reads then go to the data file alone.
    let logReader: LogReader?
    /// The two commit log files (nil without a log; `StoreOptions.commitLog`).
    let logFiles: [StorageFile]?
    /// This process's writing side of the commit log: made by the first opener's recovery, or by the first write
    /// of a process that joined (`followLog`). Used under the writer lock only.
    var logWriter: LogWriter?

    /// Guards everything below, held only briefly; taken after the writer gate, never before it.
    let stateLock = ThreadLock()
    let writerGate = WriterGate()
    /// Wakes `waitForCommit` callers after a commit or on close.
    let commitSignal = CommitSignal()
    /// Versions (with the log generation each is read through) pinned by this process's readers, with how many
    /// readers pin each.
    var pins = PinCounts()
    /// Run by `beginRead` between reading the current version and pinning it (`setBeforePinning`); nil but in
    /// tests.
    var beforePinning: (() -> Void)?
    var openTransactions = 0
    var isClosed = false
    var resourcesReleased = false
    var refusesWrites = false
    /// The free space and commit record after this process's last commit, so the next write transaction need
    /// not decode them again.
    var writeCache: WriteCache?
    /// The catalog this process last decoded or wrote, so a transaction opening it again skips the decoding.
    let catalogCache = CatalogCache()
    var lastSync = Store.monotonicSeconds()
    var flushScheduled = false
    /// Flushes running now; `close()` waits for them so it never unmaps under one.
    var flushesInProgress = 0
    /// The thread that began the open write transaction, to refuse a nested `beginWrite` instead of deadlocking.
    var writerThread: pthread_t?
    /// The file's size as last seen by this process's writer (read and written under the writer lock).
    var knownFileSize: UInt64

    struct WriteCache {
        var version: UInt64
        var freeSpace: FreeSpace
        var freeListBase: FreeListBase?
        var record: CommitRecord
    }

    /// Opens the store at `path`, creating it when missing (unless `options.readOnly`).
    ///
    /// A file this process already has open, under any name that leads to it, gives the same `Store` (the
    /// `fcntl` locks that coordinate processes belong to the process, not to a descriptor): `close()` then closes
    /// it for every holder, and the last reference going away closes it too.
    ///
    /// The first process to open a file checks it: the meta slot with the higher version is used if every node
    /// its commit record lists is intact, otherwise the other slot, and `openRecovery` says so. Falling back past
    /// a commit the lock file recorded as acknowledged throws `lostCommit` unless `options.acceptsLostCommits`.
    ///
    /// - Throws: `lostCommit`, `notADatabase`, `unsupportedFormat`, `corruptFile`, `io`, `diskFull`,
    ///   `invalidArgument` (bad options), `readOnly`-style `io` when a read-only open finds no file, `io` (`ELOOP`)
    ///   for a symbolic link where the store would create a file (see `POSIXStorage`).
    public static func open(path: String, options: StoreOptions = .init()) throws -> Store {
        guard let io = options.io else {
            let resolved = resolvedPath(path)
            try refuseCreatingThroughLink(path, resolved: resolved, readOnly: options.readOnly)
            return try StoreRegistry.shared.store(key: "file:" + resolved, readOnly: options.readOnly, encryptionKey: options.encryptionKey) {
                let storage = POSIXStorage(filePermissions: options.filePermissions)
                return try Store.opening(path: resolved, io: storage, options: options)
            }
        }
        return try Store.opening(path: path, io: io, options: options)
    }

    /// A store that lives in memory only, with the same behaviour as a file store.
    ///
    /// - Parameter identifier: Stores opened with the same identifier in one process share their content for as
    ///   long as one of them is open; `nil` gives a private store.
    /// - Throws: `invalidArgument` for bad options, `io` when memory cannot be reserved.
    package static func inMemory(identifier: String? = nil, options: StoreOptions = .init()) throws -> Store {
        var options = options
        let storage = MemoryStorage()
        options.io = storage
        // Nothing outlives the process, so there is nothing to compact.
        options.compactOnOpen = nil
        guard let identifier else {
            return try Store.opening(path: "memory:private", io: storage, options: options)
        }
        return try StoreRegistry.shared.store(key: "memory:" + identifier, readOnly: options.readOnly, encryptionKey: options.encryptionKey) {
            try Store.opening(path: "memory:" + identifier, io: storage, options: options)
        }
    }

    /// Opens the store over `lockFile`, already attached (`alone`: no other process has the store open, so this
    /// one recovers the file). A first opener that `keepsLifetimeLock` stays the only process until it calls
    /// `lockFile.share()` (compaction on open needs that); otherwise it lets other processes in at once.
    ///
    /// `compactedFrom` is the store this one replaces after compaction on open: what its open found
    /// (`openRecovery`) is reported by this one, whose file is the compacted copy.
    init(
        path: String, io: StorageIO, options: StoreOptions, lockFile: LockFile, alone: Bool, keepsLifetimeLock: Bool,
        compactedFrom: Store? = nil
    ) throws {
        guard FileHeader.pageSizes.contains(options.pageSize), options.pageSize & (options.pageSize - 1) == 0 else {
            throw StrataError.invalidArgument(
                "page size \(options.pageSize) is not a power of two between 2048 and 65536; use 4096 unless measured")
        }
        self.path = path
        self.options = options
        self.io = io
        let cipher = try options.encryptionKey.map { try NodeCipher(key: $0) }
        if alone && !options.readOnly { try Self.createIfMissing(path: path, io: io, options: options, cipher: cipher) }
        let file = try io.openFile(at: path, create: false, readOnly: options.readOnly)
        let pageSize: Int
        do {
            pageSize = try Self.readHeader(of: file, cipher: cipher)
        } catch {
            file.close()
            throw error
        }
        let pagedFile = try PagedFile(
            file: file, pageSize: pageSize, reservedBytes: options.maximumFileSize, cipher: cipher,
            cacheBytes: options.decryptedCacheBytes)
        if options.commitLog {
            guard !options.readOnly, options.compactOnOpen == nil else {
                file.close()
                throw StrataError.invalidArgument(
                    "a store with a commit log opens read-write and without compaction on open (both not built yet)")
            }
            logFiles = try Self.openLogFiles(path: path, io: io)
        } else {
            logFiles = nil
        }
        let openedLogFiles = logFiles
        var recoveredWriter: LogWriter?
        if alone {
            let choice: Recovery.Choice
            if let openedLogFiles {
                let opening = try Self.openLog(
                    files: openedLogFiles, pagedFile: pagedFile, checkpointThreshold: options.logCheckpointThreshold)
                choice = opening.choice
                recoveredWriter = opening.writer
            } else {
                choice = try Recovery.choose(in: pagedFile)
            }
            var (meta, slot) = (choice.meta, choice.slot)
            // The acknowledged version: the lock file's durable mark, or the data file's own copy of the last slot
            // synced (`AcknowledgedSlot`), which a copy of the file without its lock file keeps.
            let markedSlot = AcknowledgedSlot.decode(page0: UnsafeRawPointer(pagedFile.base))
            let acknowledged = { (rejectedVersion: UInt64?) -> UInt64? in
                let rejected = rejectedVersion.flatMap { version in
                    pagedFile.decodedMetaSlots().first { $0.meta.version == version }?.meta
                }
                let marked = AcknowledgedSlot.acknowledgedVersion(markedSlot, rejected: rejected, opened: meta)
                return [lockFile.previousAcknowledgedVersion, marked].compactMap { $0 }.max()
            }
            var recovery = choice.rejected.map {
                OpenRecovery(
                    openedVersion: meta.version, rejectedVersion: $0.version,
                    acknowledgedVersion: acknowledged($0.version), reason: $0.reason)
            }
            // A version the lock file recorded as synced that page 0 does not name (`LostMetaSlot`): its slot is
            // written again when the file holds it whole, and its loss is a lost commit when it does not.
            var restoredSlot = false
            if openedLogFiles == nil {
                switch try Self.lostMetaSlot(choice: choice, lockFile: lockFile, pagedFile: pagedFile) {
                case let .restore(synced, syncedSlot):
                    try Self.restoreMetaSlot(synced, slot: syncedSlot, in: file, path: path, readOnly: options.readOnly)
                    (meta, slot, restoredSlot) = (synced, syncedSlot, true)
                case let .lost(lost): recovery = lost
                case nil: break
                }
            }
            // With a log, the versions the log held are in the data file now: the lost-commit check compares the
            // acknowledged version with the version after the replay.
            if recovery == nil, openedLogFiles != nil, let acknowledged = acknowledged(nil),
                acknowledged > meta.version
            {
                recovery = OpenRecovery(
                    openedVersion: meta.version, rejectedVersion: nil, acknowledgedVersion: acknowledged,
                    reason: "the data file and its commit log end at version \(meta.version), before the version the "
                        + "lock file recorded as acknowledged: the log was damaged, cut or replaced")
            }
            if let recovery, recovery.lostAcknowledgedCommit, !options.acceptsLostCommits {
                // The lock file keeps the acknowledged version it carried (`LockFile.attach`): the next open is
                // refused the same way until the file is restored or opened accepting the loss.
                throw StrataError.lostCommit(
                    path: path, lostVersion: recovery.rejectedVersion ?? recovery.acknowledgedVersion ?? 0,
                    openableVersion: meta.version, detail: recovery.reason)
            }
            openRecovery = recovery ?? compactedFrom?.openRecovery
            // Falling back means the versions after this one are written anew: the data file's record of a later
            // acknowledged version no longer describes them. The sync below makes the clearing durable.
            if recovery != nil, markedSlot != nil, !options.readOnly { try AcknowledgedSlot.write(nil, to: file) }
            // Whatever the chosen version's pages are, make them durable before anything builds on them: writers
            // that open the store later take it as durable, and a process killed with commits not yet synced
            // (`.batched`) leaves them in the system's cache. A read-only opener syncs as well (a sync changes no
            // byte of the file); should the system refuse, the version stays unmarked and the first writer syncs.
            // No sync when the last session left exactly this version current and synced (`LockFile.markSynced`:
            // a `.full` or `.batched` sync, or a `.batched` close): its pages are on disk already, and an open of
            // a file left as it was (the usual case) costs no disk flush. The whole meta slot must match, so a
            // file replaced under an old lock file is synced as before.
            let synced: Bool
            if choice.rejected == nil, !restoredSlot, let left = lockFile.previousSynced?.meta, left == meta {
                synced = true
            } else if options.readOnly {
                synced = (try? file.sync()) != nil
            } else {
                try file.sync()
                synced = true
            }
            lockFile.initialize(meta: meta, slot: slot, durable: synced)
            if let recoveredWriter { lockFile.publishGeneration(recoveredWriter.generation) }
            // The lock file's mark only: the data file's record (`markSynced(_:)`) is left as the last writer wrote
            // it, so an open writes no byte of a file it found as it was left (and costs cold opens no write).
            if synced { lockFile.markSynced(version: meta.version) }
        } else {
            openRecovery = nil
        }
        readerSlot = try lockFile.claimReaderSlot(processID: getpid())
        if alone && !keepsLifetimeLock { try lockFile.share() }
        knownFileSize = try file.size()
        logWriter = recoveredWriter
        logReader = try openedLogFiles.map {
            try LogReader(
                files: $0, pageSize: pageSize, mappedBytes: Self.logMappedBytes(options: options),
                sealByteCount: pagedFile.sealByteCount, data: file)
        }
        self.pageSize = pageSize
        self.pagedFile = pagedFile
        self.lockFile = lockFile
    }

    deinit {
        close()
    }

    /// Closes the store. Transactions still open keep the file open until they end; a `.batched` store syncs
    /// what it has not synced yet. Closing twice does nothing.
    public func close() {
        // The registry keeps only a weak reference and skips closed stores, so nothing to unregister here.
        let wasOpen = stateLock.withLock { () -> Bool in
            defer { isClosed = true }
            return !isClosed
        }
        guard wasOpen else { return }
        commitSignal.wakeEveryWaiter(lockFile.versionWord)
        // Wait for a running flush (one sync; a deferred one never waits for a writer), so that once close()
        // returns without open transactions, the files are closed and the path can be opened again.
        while stateLock.withLock({ flushesInProgress }) > 0 { usleep(1000) }
        stateLock.withLock { releaseIfIdle() }
    }

    /// Whether the file is encrypted (opened with `StoreOptions.encryptionKey`).
    package var isEncrypted: Bool { pagedFile.decrypted != nil }

    /// The newest committed version, by any thread or process, read from shared memory without a lock: poll it
    /// to learn about commits (notifications build on it).
    package var latestCommittedVersion: UInt64 {
        stateLock.withLock { resourcesReleased ? 0 : lockFile.latestVersion }
    }

    /// Counts the end of a transaction; the last one after `close()` releases the files. Call with `stateLock`
    /// held.
    func leaveTransaction() {
        openTransactions -= 1
        releaseIfIdle()
    }

    /// Releases the files once the store is closed and nothing uses them. Call with `stateLock` held.
    func releaseIfIdle() {
        if isClosed && openTransactions == 0 && flushesInProgress == 0 { releaseResources() }
    }

    /// Ends the store's use of the file: syncs a `.batched` store's last commits, frees the reader slot, unmaps
    /// and closes. Called with `stateLock` held once the store is closed and nothing uses it.
    func releaseResources() {
        guard !resourcesReleased else { return }
        resourcesReleased = true
        if !options.readOnly && options.durability == .batched && !refusesWrites {
            // `current` reads the meta and its slot as one pair (a mixed pair would mark the wrong slot durable).
            let current = lockFile.current
            if let meta = current.meta, lockFile.durable.version < meta.version,
                (try? syncCommitsFile()) != nil
            {
                lockFile.markDurable(version: meta.version, slot: current.slot)
                markSynced(meta)
            }
        }
        if logReader != nil, lockFile.isAlone() { checkpointAtLastClose() }
        trimUnusedTail()
        lockFile.releaseReaderSlot(readerSlot)
        lockFile.detach()
        pagedFile.file.close()
        for file in logFiles ?? [] { file.close() }
    }

    /// Cuts the file back to the pages the current version uses when no other process has the store open, so the
    /// growth a writer takes ahead of need (an eighth of the file, up to 64 MiB) is not left on disk. Page counts
    /// only grow from version to version, so every version either meta slot holds lies below the cut; a failed
    /// cut leaves a longer file, which is harmless.
    private func trimUnusedTail() {
        guard !options.readOnly, !refusesWrites, let meta = lockFile.current.meta, lockFile.isAlone() else { return }
        let needed = meta.pageCount * UInt64(pageSize)
        if let size = try? pagedFile.file.size(), size > needed { try? pagedFile.file.truncate(to: needed) }
    }

    // MARK: Opening

    /// Takes the lifetime lock; returns whether this process is the only one with the store open.
    static func attach(_ lockFile: LockFile) throws -> Bool {
        for _ in 0..<200 {
            if try lockFile.attach() { return true }
            if lockFile.isInitialized { return false }
            if let format = lockFile.foreignFormat {
                lockFile.handle.unlock(byte: 0)
                throw StrataError.io(
                    operation: "attach to", path: lockFile.path, errno: 0,
                    message: "a process running another version of Strata has the store open with lock file format "
                        + "\(format) (this version uses \(LockFile.format)); close the store there first")
            }
            // The first opener died while recovering: let go and try to become the first opener ourselves.
            lockFile.handle.unlock(byte: 0)
            usleep(10_000)
        }
        throw StrataError.io(
            operation: "attach to", path: lockFile.path, errno: 0,
            message: "another process holds the lock file but never initialized it; end that process and retry")
    }

    /// Creates an empty store at `path` when there is no file (or an empty one): written under a temporary
    /// name, synced, renamed into place, directory synced, so a crash never leaves a half-made file.
    private static func createIfMissing(path: String, io: StorageIO, options: StoreOptions, cipher: NodeCipher?) throws {
        if io.fileExists(at: path) {
            let existing = try io.openFile(at: path, create: false, readOnly: true)
            defer { existing.close() }
            if try existing.size() > 0 { return }
        }
        let temporary = creatingPath(for: path)
        try io.remove(at: temporary)
        let file = try io.openFile(at: temporary, create: true, readOnly: false)
        defer { file.close() }
        let meta = MetaSlot(
            version: 1, root: .none, freeList: .none, commitRecord: .none, commitRecordChecksum: 0, pageCount: 1,
            durableBase: 1)
        let encryption = cipher.map { EncryptionHeader(cipher: $0) }
        try FileHeader.encode(pageSize: options.pageSize, initialMeta: meta, encryption: encryption).withUnsafeBytes {
            try file.write($0, at: 0)
        }
        try file.sync()
        try io.rename(from: temporary, to: path)
        try io.syncDirectory(containing: path)
    }

    /// Checks page 0, and that `cipher`'s key (or no key) fits the file, and returns the page size.
    private static func readHeader(of file: StorageFile, cipher: NodeCipher?) throws -> Int {
        let size = try file.size()
        guard size >= UInt64(FileHeader.byteCount) else {
            if size == 0 { throw noDatabase(at: file.path) }
            throw StrataError.notADatabase(path: file.path)
        }
        var header = [UInt8](repeating: 0, count: FileHeader.byteCount)
        try header.withUnsafeMutableBytes { try file.read(into: $0, at: 0) }
        return try header.withUnsafeBytes { bytes in
            let pageSize = try FileHeader.pageSize(from: bytes.baseAddress!, path: file.path)
            let encryption = try EncryptionHeader.decode(from: bytes.baseAddress!, path: file.path)
            try EncryptionHeader.check(encryption, cipher: cipher, path: file.path)
            return pageSize
        }
    }

    // MARK: Small tools

    static func noDatabase(at path: String) -> StrataError {
        .io(operation: "open", path: path, errno: ENOENT,
            message: "no database exists here; open it without readOnly to create one")
    }

    static func monotonicSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// The one name of the file at `path`: absolute, with `.`, `..` and symbolic links (to the file or to a folder
    /// on the way) resolved; for a file not created yet, its folder's resolved path and its name.
    ///
    /// One file must be one store, under whatever name it is opened. In a process, two stores on one file would
    /// share the process's `fcntl` locks (both could write at once; closing either drops the other's locks); across
    /// processes, two names would mean two lock files (`NAME.strata.lock`) and no coordination at all.
    static func resolvedPath(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : currentDirectory() + "/" + path
        if let resolved = realPath(absolute) { return resolved }
        let folder = POSIXStorage.directory(of: absolute)
        guard let resolvedFolder = realPath(folder) else { return absolute }
        return (resolvedFolder == "/" ? "" : resolvedFolder) + "/" + POSIXStorage.fileName(of: absolute)
    }

    /// Refuses a `path` that is a symbolic link where opening would create the database through it: a link to a
    /// missing file, or to an empty one (a new database is written in its place). A link to an existing database
    /// opens it (resolved to its target, whose lock file is used); a read-only open of a link to a missing file
    /// is refused the same way, before any lock file is made beside it.
    ///
    /// - Throws: `io` (`ELOOP`) naming the link.
    private static func refuseCreatingThroughLink(_ path: String, resolved: String, readOnly: Bool) throws {
        guard POSIXStorage.isSymbolicLink(path) else { return }
        var info = stat()
        let targetExists = stat(resolved, &info) == 0
        guard !targetExists || (!readOnly && info.st_mode & S_IFMT == S_IFREG && info.st_size == 0) else { return }
        throw StrataError.io(
            operation: "open", path: path, errno: ELOOP,
            message: "it is a symbolic link to " + (targetExists ? "an empty file" : "a file that does not exist")
                + ", and Strata does not create a database through a link (a link planted there could make it "
                + "overwrite another file): create the database at a path that is not a link, or remove the link")
    }

    /// `realpath(3)` of `path`, or nil when it cannot be resolved (a missing file or folder).
    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private static func currentDirectory() -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return "." }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    func closedError() -> StrataError {
        .transactionMisuse("the store at '\(path)' is closed; open it again to use it")
    }
}
