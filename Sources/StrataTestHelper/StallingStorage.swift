import Foundation
import StrataStorage

/// The real file system, except that opening one file prints `recovering` and never returns: a process that
/// stops inside `Store.open` after it has taken the lock file's lifetime lock and before it has recovered the file.
final class StallingStorage: StorageIO, @unchecked Sendable {
    private let inner = POSIXStorage()
    private let stalledPath: String

    /// Stalls when the file at `path` (the data file) is opened.
    init(stallingAt path: String) {
        stalledPath = path
    }

    func openFile(at path: String, create: Bool, readOnly: Bool) throws -> StorageFile {
        if path == stalledPath {
            HelperCommand.say("recovering")
            while true { sleep(60) }
        }
        return try inner.openFile(at: path, create: create, readOnly: readOnly)
    }

    func fileExists(at path: String) -> Bool { inner.fileExists(at: path) }

    func rename(from source: String, to destination: String) throws { try inner.rename(from: source, to: destination) }

    func remove(at path: String) throws { try inner.remove(at: path) }

    func syncDirectory(containing path: String) throws { try inner.syncDirectory(containing: path) }

    func openLockFile(at path: String, byteCount: Int) throws -> LockFileHandle {
        try inner.openLockFile(at: path, byteCount: byteCount)
    }
}
