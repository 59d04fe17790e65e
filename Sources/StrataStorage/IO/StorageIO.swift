/// The file system as the store sees it: every byte Strata reads or writes goes through this protocol, so tests
/// can record writes (to build power-loss images) or make the Nth operation fail.
///
/// Implementations: `POSIXStorage` (the real file system, the default) and `MemoryStorage` (files in memory, used
/// by in-memory stores and by tests).
package protocol StorageIO: AnyObject, Sendable {
    /// Opens the file at `path`.
    ///
    /// - Parameters:
    ///   - path: The file's path.
    ///   - create: Whether to create an empty file when none exists.
    ///   - readOnly: Whether the file is only read.
    /// - Throws: `StrataError.io` when the file cannot be opened.
    func openFile(at path: String, create: Bool, readOnly: Bool) throws -> StorageFile

    /// Whether anything has the name `path`: a file, or a symbolic link (even one whose target is missing).
    func fileExists(at path: String) -> Bool

    /// Atomically replaces `destination` with `source`.
    ///
    /// - Throws: `StrataError.io` when the rename fails.
    func rename(from source: String, to destination: String) throws

    /// Deletes the file at `path`; deleting a missing file is not an error.
    ///
    /// - Throws: `StrataError.io` when the file exists but cannot be removed, or is a symbolic link (never removed:
    ///   Strata makes no links, so one at the name of a file Strata removes was planted there).
    func remove(at path: String) throws

    /// Makes the directory entry changes (creations, renames) of the directory holding `path` durable.
    ///
    /// - Throws: `StrataError.io` when the directory cannot be synced.
    func syncDirectory(containing path: String) throws

    /// Opens (creating if needed) the coordination file at `path`: a small shared memory region plus byte-range
    /// locks that work across processes.
    ///
    /// - Throws: `StrataError.io` when the file cannot be opened or mapped.
    func openLockFile(at path: String, byteCount: Int) throws -> LockFileHandle
}

/// One open file. The store serializes `write`, `sync` and `truncate`; `read` and `size` may run concurrently.
package protocol StorageFile: AnyObject, Sendable {
    /// The path the file was opened at (used in error messages).
    var path: String { get }

    /// The file's current size in bytes.
    ///
    /// - Throws: `StrataError.io` when the size cannot be read.
    func size() throws -> UInt64

    /// Fills `buffer` with the bytes at `offset`; bytes past the end of the file read as zero.
    ///
    /// - Throws: `StrataError.io` on a failed read.
    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64) throws

    /// Writes `bytes` at `offset`, extending the file if needed.
    ///
    /// - Throws: `StrataError.diskFull` when the disk is full, `StrataError.io` on any other failure.
    func write(_ bytes: UnsafeRawBufferPointer, at offset: UInt64) throws

    /// Makes every write so far durable (`fdatasync`, `F_FULLFSYNC` on Darwin).
    ///
    /// - Throws: `StrataError.io` when the sync fails; what the disk then holds is unknown.
    func sync() throws

    /// Sets the file's size, zero-filling when it grows.
    ///
    /// - Throws: `StrataError.diskFull` or `StrataError.io`.
    func truncate(to size: UInt64) throws

    /// Maps the file read-only at a base address that never moves while the file stays mapped.
    ///
    /// `reservingBytes` of address space are reserved, so the file can grow up to that size without a remap;
    /// only bytes below the file's size may be touched.
    ///
    /// - Throws: `StrataError.io` when the mapping fails.
    func map(reservingBytes: UInt64) throws -> UnsafeRawPointer

    /// Releases the mapping made by `map`; pointers into it become invalid.
    func unmap()

    /// Replaces the private memory at `address` (`byteCount` bytes, from `NodeMemory.mapped`) by a read-only
    /// view of the file's bytes at `offset`, at the same address, so pointers into it stay valid while the
    /// memory stops counting as the process's own. Returns false when the implementation cannot (the memory is
    /// then unchanged); `offset` and `byteCount` are multiples of the system page size, and the file already
    /// holds those bytes.
    func mapReadOnly(over address: UnsafeMutableRawPointer, byteCount: Int, at offset: UInt64) -> Bool

    /// Closes the file (and unmaps it).
    func close()
}

extension StorageFile {
    /// Files kept in memory (and test doubles) have no pages to map: spilled nodes keep their memory.
    package func mapReadOnly(over address: UnsafeMutableRawPointer, byteCount: Int, at offset: UInt64) -> Bool {
        false
    }
}

/// The coordination file: a shared memory region every process that opens the store maps, plus byte-range locks
/// that are released by the kernel when their process dies.
package protocol LockFileHandle: AnyObject, Sendable {
    /// The start of the shared region (zero-filled when the file is new).
    var memory: UnsafeMutableRawPointer { get }

    /// The size of the shared region.
    var byteCount: Int { get }

    /// Locks one byte of the lock file for this process.
    ///
    /// - Parameters:
    ///   - byte: Which byte (locks on different bytes are independent).
    ///   - exclusive: A write lock when true, a shared (read) lock when false.
    ///   - wait: Whether to wait for a conflicting lock to be released.
    /// - Returns: Whether the lock was taken (always true when `wait` is true).
    /// - Throws: `StrataError.io` when the lock call fails for another reason than a conflict.
    func lock(byte: Int, exclusive: Bool, wait: Bool) throws -> Bool

    /// Releases this process's lock on `byte`.
    func unlock(byte: Int)

    /// Whether another process holds a lock on `byte` (used to find reader slots of dead processes).
    func isLockedByAnotherProcess(byte: Int) -> Bool

    /// Unmaps the region and closes the file, releasing every lock this process holds on it.
    func close()

    /// Whether the file was deleted (or replaced) since it was opened: processes opening the store now get another
    /// lock file and cannot see this one.
    var isDeleted: Bool { get }
}

extension LockFileHandle {
    /// A lock region that is not a file is never deleted.
    package var isDeleted: Bool { false }
}
