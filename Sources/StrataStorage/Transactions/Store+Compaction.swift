#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Opening a store, compacting its file first when `StoreOptions.compactOnOpen` asks for it.
///
/// Compaction rewrites the file with only live data (`Catalog.copy(into:)`), which moves every node, so it may
/// only happen while no other process can reach the file: the first opener holds the lock file's lifetime lock
/// exclusively from attaching until the new file is in place, and any process opening the store meanwhile waits
/// in `attach`. The copy is written and synced under a temporary name, then renamed over the file and the
/// directory synced: a crash leaves the old file or the new one, both whole. A compaction that fails (a full disk
/// is the usual reason: the copy needs room) leaves the file as it was and the store opens uncompacted.
extension Store {
    /// Attaches to the lock file of `path` and opens the store, compacting it first when the options ask for it
    /// and this process is the only one with the file open.
    static func opening(path: String, io: StorageIO, options: StoreOptions) throws -> Store {
        // A read-only open of a missing file leaves nothing behind, not even a lock file.
        if options.readOnly && !io.fileExists(at: path) { throw noDatabase(at: path) }
        let lockPath = lockPath(for: path)
        let lockExisted = io.fileExists(at: lockPath)
        let lockFile = LockFile(handle: try openLockFile(at: lockPath, io: io, readOnly: options.readOnly), path: lockPath)
        var alone = false
        do {
            alone = try attach(lockFile)
            // What a killed compaction left is garbage (a compaction runs under the lifetime lock this first opener
            // now holds, so none is running), never worth refusing the open over.
            if alone && !options.readOnly { for leftover in compactionLeftovers(for: path) { try? io.remove(at: leftover) } }
            guard alone, !options.readOnly, let shouldCompact = options.compactOnOpen else {
                return try Store(path: path, io: io, options: options, lockFile: lockFile, alone: alone, keepsLifetimeLock: false)
            }
            let store = try Store(path: path, io: io, options: options, lockFile: lockFile, alone: true, keepsLifetimeLock: true)
            let status = try store.status
            guard shouldCompact(status.fileBytes, status.usedBytes), (try? store.writeCompactedCopy()) != nil else {
                try lockFile.share()
                return store
            }
            store.releaseFileKeepingLock()
            do {
                try io.rename(from: compactionPath(for: path), to: path)
                try io.syncDirectory(containing: path)
            } catch {
                // The rename did not happen (or did, with the directory not yet durable): either file is whole.
                try? io.remove(at: compactionPath(for: path))
            }
            return try Store(
                path: path, io: io, options: options, lockFile: lockFile, alone: true, keepsLifetimeLock: false,
                compactedFrom: store)
        } catch {
            // A lock file this open made for a file that is no database (`strata info` pointed at another file) is
            // removed, while this process still holds it alone: nobody else uses it, and it would be litter.
            if alone, !lockExisted, Self.isNoDatabase(error) { try? io.remove(at: lockPath) }
            lockFile.detach()
            throw error
        }
    }

    /// Whether `error` says the file opened holds no database (another kind of file, or an empty one).
    private static func isNoDatabase(_ error: Error) -> Bool {
        switch error as? StrataError {
        case .notADatabase?: return true
        case .io(_, _, let code, _)? where code == ENOENT: return true
        default: return false
        }
    }

    /// The lock file at `path`; for a read-only open where none can be made (a read-only file system, or a folder
    /// this process may not write and no lock file in it, such as data shipped with an app), a private one in
    /// memory.
    ///
    /// Without a shared lock file the process cannot see other processes' readers or writers, so such a store
    /// reads the file as an immutable one: nothing may write it while it is open. A read-only file system makes
    /// that certain; a missing lock file means no process has the store open now. An existing lock file this
    /// process may not write means one may, so that stays an error. (Realm opens read-only files in read-only
    /// folders the same way.)
    private static func openLockFile(at path: String, io: StorageIO, readOnly: Bool) throws -> LockFileHandle {
        do {
            return try io.openLockFile(at: path, byteCount: LockFile.byteCount)
        } catch StrataError.io(let operation, let failedPath, let code, let message) {
            let unwritable = code == EROFS || ((code == EACCES || code == EPERM) && !io.fileExists(at: path))
            guard readOnly, unwritable else {
                throw StrataError.io(operation: operation, path: failedPath, errno: code, message: message)
            }
            return try MemoryLockFile(path: path, byteCount: LockFile.byteCount)
        }
    }

    /// Writes this store's newest version, with only live data, to `compactionPath(for: path)`, synced. Nothing is
    /// left there when it fails.
    private func writeCompactedCopy() throws {
        var copyOptions = StoreOptions(pageSize: pageSize, io: io)
        copyOptions.maximumFileSize = options.maximumFileSize
        copyOptions.encryptionKey = options.encryptionKey
        copyOptions.filePermissions = options.filePermissions
        let reader = try beginRead()
        defer { reader.end() }
        try Store.buildCompactedCopy(of: Catalog(reader: reader), at: Self.compactionPath(for: path), options: copyOptions)
    }

    /// Ends this store's use of its data file but keeps the lock file, and with it the exclusive lifetime lock:
    /// the file can then be replaced while no other process can open it.
    private func releaseFileKeepingLock() {
        stateLock.withLock {
            isClosed = true
            resourcesReleased = true
        }
        lockFile.releaseReaderSlot(readerSlot)
        // The shared state describes the file about to be replaced: should this process die before recovering the
        // new one, the next process to attach must not take it for the new file's.
        lockFile.invalidate()
        lockFile.forgetPreviousSyncedMeta()
        pagedFile.file.close()
    }
}
