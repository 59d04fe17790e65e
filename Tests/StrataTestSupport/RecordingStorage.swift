import Foundation
import StrataStorage

/// A `StorageIO` over `MemoryStorage` that remembers, for one file, what is durable (its bytes at the last
/// sync) and every write and size change since: the raw material of simulated power failures.
///
/// `onSync` runs at the start of each sync of the watched file, before it takes effect, with the writes the sync
/// is about to make durable: the moment a power failure hurts most.
package final class RecordingStorage: StorageIO, @unchecked Sendable {
    /// The storage holding the actual bytes.
    package let inner: MemoryStorage
    /// The watched file.
    package let path: String
    /// Called with the pending operations of each sync of the watched file, before the sync.
    package var onSync: (@Sendable (_ durable: [UInt8], _ pending: [PendingOperation]) -> Void)?

    private let lock = NSLock()
    private var durable: [UInt8] = []
    private var pending: [PendingOperation] = []

    /// An unsynced change to the watched file.
    package enum PendingOperation: Sendable {
        /// `bytes` written at `offset`.
        case write(offset: UInt64, bytes: [UInt8])
        /// The size set to `size`.
        case truncate(size: UInt64)
    }

    /// Watches `path` in `inner`.
    package init(inner: MemoryStorage = MemoryStorage(capacity: 1 << 30), path: String) {
        self.inner = inner
        self.path = path
    }

    /// The bytes of the watched file at its last sync.
    package var durableContents: [UInt8] { lock.withLock { durable } }

    /// Operations on the watched file since its last sync.
    package var pendingOperations: [PendingOperation] { lock.withLock { pending } }

    /// Opens the file through the inner storage (watched or checked as this storage does).
    package func openFile(at path: String, create: Bool, readOnly: Bool) throws -> StorageFile {
        let file = try inner.openFile(at: path, create: create, readOnly: readOnly)
        return path == self.path ? RecordingFile(inner: file, recorder: self) : file
    }

    /// Whether the inner storage has a file at `path`.
    package func fileExists(at path: String) -> Bool { inner.fileExists(at: path) }

    /// Renames in the inner storage.
    package func rename(from source: String, to destination: String) throws {
        try inner.rename(from: source, to: destination)
        // A file renamed into place was synced under its old name; the rename is durable once the directory is.
        if destination == path { lock.withLock { durable = inner.contents(ofFile: path) ?? []; pending = [] } }
    }

    /// Removes from the inner storage.
    package func remove(at path: String) throws { try inner.remove(at: path) }

    /// Syncs the directory in the inner storage.
    package func syncDirectory(containing path: String) throws { try inner.syncDirectory(containing: path) }

    /// The inner storage's lock file (locks are not recorded or failed).
    package func openLockFile(at path: String, byteCount: Int) throws -> LockFileHandle {
        try inner.openLockFile(at: path, byteCount: byteCount)
    }

    package func record(_ operation: PendingOperation, path: String) { lock.withLock { pending.append(operation) } }

    package func willSync(path: String) {
        let (durableNow, pendingNow) = lock.withLock { (durable, pending) }
        onSync?(durableNow, pendingNow)
    }

    package func didSync(path: String) {
        lock.withLock {
            durable = inner.contents(ofFile: path) ?? []
            pending = []
        }
    }
}

/// What a ``RecordingFile`` tells about its file's changes: ``RecordingStorage`` (one watched file) and the log
/// tests' recording of several files both keep what is durable and what is pending per sync.
package protocol FileChangeRecorder: AnyObject, Sendable {
    /// `operation` was made on the file at `path`, not yet durable.
    func record(_ operation: RecordingStorage.PendingOperation, path: String)
    /// The file at `path` is about to be synced.
    func willSync(path: String)
    /// The file at `path` has been synced.
    func didSync(path: String)
}

extension RecordingStorage: FileChangeRecorder {}

/// A watched file: every change recorded, then passed on.
package final class RecordingFile: StorageFile, @unchecked Sendable {
    let inner: StorageFile
    let recorder: any FileChangeRecorder
    package var path: String { inner.path }

    package init(inner: StorageFile, recorder: any FileChangeRecorder) {
        self.inner = inner
        self.recorder = recorder
    }

    package func size() throws -> UInt64 { try inner.size() }

    package func read(into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64) throws {
        try inner.read(into: buffer, at: offset)
    }

    package func write(_ bytes: UnsafeRawBufferPointer, at offset: UInt64) throws {
        try inner.write(bytes, at: offset)
        recorder.record(.write(offset: offset, bytes: [UInt8](bytes)), path: path)
    }

    package func sync() throws {
        recorder.willSync(path: path)
        try inner.sync()
        recorder.didSync(path: path)
    }

    package func truncate(to size: UInt64) throws {
        try inner.truncate(to: size)
        recorder.record(.truncate(size: size), path: path)
    }

    package func map(reservingBytes: UInt64) throws -> UnsafeRawPointer {
        try inner.map(reservingBytes: reservingBytes)
    }

    package func unmap() { inner.unmap() }

    package func close() { inner.close() }
}
