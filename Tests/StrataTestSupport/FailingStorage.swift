import Foundation
import StrataStorage

/// A `StorageIO` whose Nth write, sync, truncate or map fails, once or for good: for checking that every
/// failure surfaces as a `StrataError` and leaves a file that still opens.
package final class FailingStorage: StorageIO, @unchecked Sendable {
    /// The operations that can be made to fail.
    package enum Operation: String, Sendable, CaseIterable {
        /// `StorageFile.write`.
        case write
        /// `StorageFile.sync`.
        case sync
        /// `StorageFile.truncate`.
        case truncate
        /// `StorageFile.map`.
        case map
    }

    /// The storage doing the real work.
    package let inner: StorageIO
    /// Which operation fails.
    package let operation: Operation
    /// Its 1-based occurrence that fails first.
    package let failingOccurrence: Int
    /// Whether every later occurrence fails too.
    package let persistent: Bool
    /// The errno reported (`EIO`, `ENOSPC`, …).
    package let code: Int32

    private let lock = NSLock()
    private var counts: [Operation: Int] = [:]
    /// How many times an operation was made to fail.
    package private(set) var failures = 0

    /// Fails occurrence `occurrence` of `operation` (and later ones when `persistent`) with `code`.
    package init(inner: StorageIO, failing operation: Operation, at occurrence: Int, persistent: Bool, code: Int32 = EIO) {
        self.inner = inner
        self.operation = operation
        self.failingOccurrence = occurrence
        self.persistent = persistent
        self.code = code
    }

    /// Counts one `operation` on `path`; throws when it is the one to fail.
    func check(_ kind: Operation, path: String) throws {
        let fails = lock.withLock { () -> Bool in
            guard kind == operation else { return false }
            counts[kind, default: 0] += 1
            let count = counts[kind]!
            let fails = count == failingOccurrence || (persistent && count > failingOccurrence)
            if fails { failures += 1 }
            return fails
        }
        guard fails else { return }
        if code == ENOSPC { throw StrataError.diskFull(path: path) }
        throw StrataError.io(operation: kind.rawValue, path: path, errno: code, message: "injected failure")
    }

    /// Opens the file through the inner storage (watched or checked as this storage does).
    package func openFile(at path: String, create: Bool, readOnly: Bool) throws -> StorageFile {
        FailingFile(inner: try inner.openFile(at: path, create: create, readOnly: readOnly), storage: self)
    }

    /// Whether the inner storage has a file at `path`.
    package func fileExists(at path: String) -> Bool { inner.fileExists(at: path) }

    /// Renames in the inner storage.
    package func rename(from source: String, to destination: String) throws { try inner.rename(from: source, to: destination) }

    /// Removes from the inner storage.
    package func remove(at path: String) throws { try inner.remove(at: path) }

    /// Syncs the directory in the inner storage.
    package func syncDirectory(containing path: String) throws { try inner.syncDirectory(containing: path) }

    /// The inner storage's lock file (locks are not recorded or failed).
    package func openLockFile(at path: String, byteCount: Int) throws -> LockFileHandle {
        try inner.openLockFile(at: path, byteCount: byteCount)
    }
}

/// A file whose operations pass through `FailingStorage.check` first.
final class FailingFile: StorageFile, @unchecked Sendable {
    let inner: StorageFile
    let storage: FailingStorage
    var path: String { inner.path }

    init(inner: StorageFile, storage: FailingStorage) {
        self.inner = inner
        self.storage = storage
    }

    func size() throws -> UInt64 { try inner.size() }

    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64) throws { try inner.read(into: buffer, at: offset) }

    func write(_ bytes: UnsafeRawBufferPointer, at offset: UInt64) throws {
        try storage.check(.write, path: path)
        try inner.write(bytes, at: offset)
    }

    func sync() throws {
        try storage.check(.sync, path: path)
        try inner.sync()
    }

    func truncate(to size: UInt64) throws {
        try storage.check(.truncate, path: path)
        try inner.truncate(to: size)
    }

    func map(reservingBytes: UInt64) throws -> UnsafeRawPointer {
        try storage.check(.map, path: path)
        return try inner.map(reservingBytes: reservingBytes)
    }

    func unmap() { inner.unmap() }

    func close() { inner.close() }
}
