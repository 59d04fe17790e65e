#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Files kept in memory: the storage of in-memory stores, and the base of the recording and failing storages
/// the tests use to simulate power loss and I/O errors.
///
/// Every file lives in one reserved address range, so a mapping of it never moves. Writes are visible to the
/// mapping at once (as with a shared `mmap` of a real file). Byte-range locks always succeed: one process is all
/// there is.
package final class MemoryStorage: StorageIO, @unchecked Sendable {
    private let lock = ThreadLock()
    private var files: [String: MemoryFileData] = [:]
    private var lockFiles: [String: MemoryLockFile] = [:]
    private let capacity: UInt64

    /// Creates an empty storage whose files may each grow to `capacity` bytes (address space is reserved, memory
    /// is used only as the files grow).
    package init(capacity: UInt64 = 8 << 30) {
        self.capacity = capacity
    }

    /// Opens `path`, creating an empty file if `create` is true.
    package func openFile(at path: String, create: Bool, readOnly: Bool) throws -> StorageFile {
        try lock.withLock {
            if let data = files[path] { return MemoryFile(path: path, data: data, readOnly: readOnly) }
            guard create && !readOnly else {
                throw StrataError.io(operation: "open", path: path, errno: ENOENT, message: "No such file or directory")
            }
            let data = try MemoryFileData(path: path, capacity: capacity)
            files[path] = data
            return MemoryFile(path: path, data: data, readOnly: readOnly)
        }
    }

    /// Whether a file exists at `path`.
    package func fileExists(at path: String) -> Bool {
        lock.withLock { files[path] != nil }
    }

    /// Moves the file, replacing any file at `destination`.
    package func rename(from source: String, to destination: String) throws {
        try lock.withLock {
            guard let data = files.removeValue(forKey: source) else {
                throw StrataError.io(operation: "rename", path: source, errno: ENOENT, message: "No such file or directory")
            }
            files[destination] = data
        }
    }

    /// Deletes the file at `path`.
    package func remove(at path: String) throws {
        _ = lock.withLock { files.removeValue(forKey: path) }
    }

    /// Nothing to do: memory has no directory entries to make durable.
    package func syncDirectory(containing path: String) throws {}

    /// A shared region kept for the lifetime of this storage, so reopening sees the same coordination state.
    package func openLockFile(at path: String, byteCount: Int) throws -> LockFileHandle {
        try lock.withLock {
            if let existing = lockFiles[path], existing.byteCount == byteCount { return existing }
            let file = try MemoryLockFile(path: path, byteCount: byteCount)
            lockFiles[path] = file
            return file
        }
    }

    /// A copy of the bytes of the file at `path`, or nil when there is none.
    package func contents(ofFile path: String) -> [UInt8]? {
        guard let data = lock.withLock({ files[path] }) else { return nil }
        return data.snapshot()
    }

    /// Replaces (or creates) the file at `path` with `bytes`.
    ///
    /// - Throws: `StrataError.diskFull` when `bytes` exceeds the storage's capacity.
    package func setContents(_ bytes: [UInt8], ofFile path: String) throws {
        let data = try MemoryFileData(path: path, capacity: max(capacity, UInt64(bytes.count)))
        try bytes.withUnsafeBytes { try data.write($0, at: 0) }
        lock.withLock { files[path] = data }
    }
}

/// The bytes of one in-memory file in an anonymous mapping that never moves.
final class MemoryFileData: @unchecked Sendable {
    let path: String
    let base: UnsafeMutableRawPointer
    let capacity: UInt64
    private let lock = ThreadLock()
    private var length: UInt64 = 0

    init(path: String, capacity: UInt64) throws {
        self.path = path
        var size = capacity
        var mapped: UnsafeMutableRawPointer?
        // Reserve address space only; pages are backed by memory when first written.
        while mapped == nil && size >= 1 << 24 {
            let flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE
            if let result = mmap(nil, Int(size), PROT_READ | PROT_WRITE, flags, -1, 0), result != MAP_FAILED {
                mapped = result
            } else {
                size /= 2
            }
        }
        guard let mapped else { throw SystemError.current("reserve memory for", path: path) }
        base = mapped
        self.capacity = size
    }

    deinit { munmap(base, Int(capacity)) }

    var size: UInt64 { lock.withLock { length } }

    func write(_ bytes: UnsafeRawBufferPointer, at offset: UInt64) throws {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        let end = offset + UInt64(bytes.count)
        guard end <= capacity else { throw StrataError.diskFull(path: path) }
        (base + Int(offset)).copyMemory(from: source, byteCount: bytes.count)
        lock.withLock { length = max(length, end) }
    }

    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64) {
        guard let target = buffer.baseAddress, !buffer.isEmpty else { return }
        let available = offset < size ? Int(min(UInt64(buffer.count), size - offset)) : 0
        if available > 0 { target.copyMemory(from: base + Int(offset), byteCount: available) }
        if available < buffer.count {
            (target + available).initializeMemory(as: UInt8.self, repeating: 0, count: buffer.count - available)
        }
    }

    func truncate(to newSize: UInt64) throws {
        guard newSize <= capacity else { throw StrataError.diskFull(path: path) }
        lock.withLock {
            if newSize < length {
                // Bytes past the end must read as zero if the file grows again.
                (base + Int(newSize)).initializeMemory(as: UInt8.self, repeating: 0, count: Int(length - newSize))
            }
            length = newSize
        }
    }

    func snapshot() -> [UInt8] {
        let count = Int(size)
        return [UInt8](UnsafeRawBufferPointer(start: base, count: count))
    }
}

/// A handle on a `MemoryFileData`.
final class MemoryFile: StorageFile, @unchecked Sendable {
    let path: String
    private let data: MemoryFileData
    private let readOnly: Bool

    init(path: String, data: MemoryFileData, readOnly: Bool) {
        self.path = path
        self.data = data
        self.readOnly = readOnly
    }

    func size() throws -> UInt64 { data.size }

    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64) throws {
        data.read(into: buffer, at: offset)
    }

    func write(_ bytes: UnsafeRawBufferPointer, at offset: UInt64) throws {
        guard !readOnly else { throw StrataError.readOnly(path: path) }
        try data.write(bytes, at: offset)
    }

    func sync() throws {}

    func truncate(to size: UInt64) throws {
        guard !readOnly else { throw StrataError.readOnly(path: path) }
        try data.truncate(to: size)
    }

    func map(reservingBytes: UInt64) throws -> UnsafeRawPointer { UnsafeRawPointer(data.base) }

    func unmap() {}

    func close() {}
}

/// The coordination region of an in-memory store: plain memory, locks that never conflict.
final class MemoryLockFile: LockFileHandle, @unchecked Sendable {
    let path: String
    let memory: UnsafeMutableRawPointer
    let byteCount: Int

    init(path: String, byteCount: Int) throws {
        self.path = path
        self.byteCount = byteCount
        memory = .allocate(byteCount: byteCount, alignment: 64)
        memory.initializeMemory(as: UInt8.self, repeating: 0, count: byteCount)
    }

    deinit { memory.deallocate() }

    func lock(byte: Int, exclusive: Bool, wait: Bool) throws -> Bool { true }

    func unlock(byte: Int) {}

    func isLockedByAnotherProcess(byte: Int) -> Bool { false }

    func close() {}
}
