#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The names of the files a store keeps beside its data file, and deleting them.
extension Store {
    /// The lock file of the store at `path`.
    static func lockPath(for path: String) -> String { path + ".lock" }

    /// The two commit log files of the store at `path`: even generations in the first, odd ones in the second.
    static func logPaths(for path: String) -> [String] { [path + ".log", path + ".log2"] }

    /// The temporary name a new file is written under, synced, before it is renamed to `path`.
    static func creatingPath(for path: String) -> String { path + ".creating" }

    /// The name the compacted copy is written under before it replaces the file at `path`.
    static func compactionPath(for path: String) -> String { path + ".compacting" }

    /// What a compaction of the file at `path` that was killed before its rename leaves: the copy, its lock file
    /// and, if it was killed while creating the copy, the copy's first page under its temporary name.
    static func compactionLeftovers(for path: String) -> [String] {
        let copy = compactionPath(for: path)
        return [copy, lockPath(for: copy), creatingPath(for: copy)]
    }

    /// Every file the store at `path` may have beside the file itself: its lock file, its commit log files, and
    /// what an interrupted creation or compaction leaves (the next process to open the store first removes the
    /// compaction's). For deleting a store whole.
    package static func companionPaths(of path: String) -> [String] {
        [lockPath(for: path), creatingPath(for: path)] + logPaths(for: path) + compactionLeftovers(for: path)
    }

    /// Refuses `destination` as the name of a copy of the store at `source`: the store itself, or one of its
    /// companion files (its lock file; what creation or compaction writes and what the next open removes), which
    /// the store would overwrite or delete. Both paths are compared resolved (`./`, `..`, links to folders).
    ///
    /// - Throws: `invalidArgument` naming what `destination` is.
    package static func checkCopyDestination(_ destination: String, source: String) throws {
        let resolvedSource = resolvedPath(source)
        let resolvedDestination = resolvedPath(destination)
        if resolvedDestination == resolvedSource {
            throw StrataError.invalidArgument(
                "'\(destination)' is the database being copied; choose another path for the copy")
        }
        if companionPaths(of: resolvedSource).contains(resolvedDestination) {
            throw StrataError.invalidArgument(
                "'\(destination)' is the name of one of the files '\(source)' keeps beside it (its lock file, or what "
                    + "creating or compacting it writes and the next open removes); choose another path for the copy")
        }
    }

    /// Deletes the store file at `path`, its lock file and what an interrupted creation or compaction left beside
    /// it (`companionPaths(of:)`), provided no process has the store open: deleting files in use would leave their
    /// processes on a file without a name, and the next process to open the path on a new file, each unaware of
    /// the other. A symbolic link at `path` is followed: the file it names is deleted, the link is not.
    ///
    /// It holds the lock file's lifetime lock exclusively (the lock every process holds shared while it has the
    /// store open) while it deletes, so no process can open the store half deleted.
    ///
    /// - Returns: Whether a store file existed.
    /// - Throws: `io` with `EBUSY` when this process or another has the store open; `io` when a file exists but
    ///   cannot be removed.
    @discardableResult
    package static func deleteFiles(at path: String) throws -> Bool {
        let resolved = resolvedPath(path)
        return try StoreRegistry.shared.withoutOpenStore(key: "file:" + resolved, path: resolved) {
            let io = POSIXStorage()
            let lockPath = lockPath(for: resolved)
            var lockFile: LockFileHandle?
            if io.fileExists(at: lockPath) {
                let handle = try io.openLockFile(at: lockPath, byteCount: LockFile.byteCount)
                guard try handle.lock(byte: LockFile.lifetimeByte, exclusive: true, wait: false) else {
                    handle.close()
                    throw inUse(resolved, by: "another process")
                }
                lockFile = handle
            }
            defer { lockFile?.close() }
            let existed = io.fileExists(at: resolved)
            // The lock file last: while it has a name, a process opening the store waits on it.
            for file in [resolved] + companionPaths(of: resolved).reversed() { try io.remove(at: file) }
            return existed
        }
    }

    /// The error for deleting a store that is open.
    static func inUse(_ path: String, by holder: String) -> StrataError {
        .io(
            operation: "delete", path: path, errno: EBUSY,
            message: "the database is open in \(holder); close it there before deleting its files")
    }
}
