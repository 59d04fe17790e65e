#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The real file system through POSIX calls: `pread`/`pwrite`, `fdatasync` (`F_FULLFSYNC` on Darwin),
/// `ftruncate`, `mmap`, `rename` and a directory `fsync`.
///
/// Files are never opened through a symbolic link in their last component (`O_NOFOLLOW`): a link planted at the name
/// of a file Strata creates (the lock file, a temporary copy) would otherwise make Strata write the file the link
/// names. Every file opened must be a regular file. A path that is a link to an existing database is resolved
/// before it gets here (`Store.open`), so opening a database through a link still works.
package final class POSIXStorage: StorageIO, @unchecked Sendable {
    /// The permission bits new files are created with (the process's umask still applies): `0o644` by default.
    package let filePermissions: UInt16

    /// Creates the file-system storage; new files get `filePermissions` (masked by the umask).
    package init(filePermissions: UInt16 = 0o644) {
        self.filePermissions = filePermissions
    }

    /// Opens `path` with `open(2)`, never through a symbolic link; `create` makes a new file, which must not exist
    /// (`O_EXCL`: callers create only fresh temporary files, after removing a leftover one).
    ///
    /// - Throws: `StrataError.io` when it cannot be opened, is a symbolic link, or is not a regular file (a folder,
    ///   a pipe, a device: opened without waiting, since opening a pipe would wait for a writer forever).
    package func openFile(at path: String, create: Bool, readOnly: Bool) throws -> StorageFile {
        var flags = readOnly ? O_RDONLY : O_RDWR
        flags |= O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW
        if create && !readOnly { flags |= O_CREAT | O_EXCL }
        let fd = open(path, flags, mode_t(filePermissions))
        if fd < 0 { throw Self.openError("open", path: path) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            _ = Glibc_close(fd)
            throw Self.notARegularFile("open", path: path)
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        return POSIXFile(path: path, descriptor: fd)
    }

    /// Whether anything has the name `path` (`lstat(2)`): a symbolic link counts, even one whose target is missing,
    /// so that a name a link holds is never taken for free (a copy's output, a file to create).
    package func fileExists(at path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// Whether `path` is a symbolic link (`lstat(2)`).
    package static func isSymbolicLink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK
    }

    /// The error for a failed `open(2)` of `path`: a symbolic link (`ELOOP` under `O_NOFOLLOW`) says so.
    static func openError(_ operation: String, path: String) -> StrataError {
        let code = errno
        guard code == ELOOP || (code == EMLINK && isSymbolicLink(path)) else {
            return SystemError.error(operation, path: path, code: code)
        }
        return symbolicLinkError(operation, path: path)
    }

    /// The error for a symbolic link where Strata opens, creates or removes a file of its own.
    static func symbolicLinkError(_ operation: String, path: String) -> StrataError {
        .io(
            operation: operation, path: path, errno: ELOOP,
            message: "it is a symbolic link; Strata never follows, replaces or removes a link at the name of a file it "
                + "creates (a link planted there could make it overwrite another file): remove the link, or choose "
                + "another path")
    }

    /// The error for a name that holds something other than a regular file.
    static func notARegularFile(_ operation: String, path: String) -> StrataError {
        .io(
            operation: operation, path: path, errno: EINVAL,
            message: "it is not a regular file (a folder, a pipe or a device)")
    }

    /// `rename(2)`.
    package func rename(from source: String, to destination: String) throws {
        #if canImport(Glibc)
        let result = Glibc.rename(source, destination)
        #else
        let result = Darwin.rename(source, destination)
        #endif
        if result != 0 { throw SystemError.current("rename to '\(destination)'", path: source) }
    }

    /// `unlink(2)`; a missing file is fine. A symbolic link is refused (`ELOOP`): Strata removes only files it
    /// made (leftovers of a creation or a compaction, the files of a store it deletes), and it never makes links.
    package func remove(at path: String) throws {
        if Self.isSymbolicLink(path) { throw Self.symbolicLinkError("remove", path: path) }
        if unlink(path) != 0 && errno != ENOENT { throw SystemError.current("unlink", path: path) }
    }

    /// Opens the directory holding `path` and `fsync`s it, so creations and renames in it survive power loss. A file
    /// system that cannot sync directories (`EINVAL`) is not an error.
    package func syncDirectory(containing path: String) throws {
        let directory = Self.directory(of: path)
        let fd = open(directory, O_RDONLY | O_CLOEXEC)
        if fd < 0 { throw SystemError.current("open directory", path: directory) }
        defer { _ = Glibc_close(fd) }
        // A file system that cannot sync a directory says EINVAL (some network and FUSE ones; Linux's /proc): the
        // rename is then as durable as that file system makes it, and refusing to create or copy a database there
        // would help nobody. SQLite does the same.
        if fsync(fd) != 0 && errno != EINVAL { throw SystemError.current("fsync directory", path: directory) }
    }

    /// Opens (creating if needed) the lock file read-write, never through a symbolic link, sizes it to
    /// `byteCount` and maps it shared.
    package func openLockFile(at path: String, byteCount: Int) throws -> LockFileHandle {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, mode_t(filePermissions))
        if fd < 0 { throw Self.openError("open lock file", path: path) }
        var info = stat()
        if fstat(fd, &info) != 0 {
            let error = SystemError.current("stat lock file", path: path)
            _ = Glibc_close(fd)
            throw error
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            _ = Glibc_close(fd)
            throw Self.notARegularFile("open lock file", path: path)
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        if Int(info.st_size) < byteCount && ftruncate(fd, off_t(byteCount)) != 0 {
            let error = SystemError.current("size lock file", path: path)
            _ = Glibc_close(fd)
            throw error
        }
        if let error = Self.allocateBlocks(of: fd, byteCount: byteCount, path: path) {
            _ = Glibc_close(fd)
            throw error
        }
        guard let memory = mmap(nil, byteCount, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), memory != MAP_FAILED
        else {
            let error = SystemError.current("mmap lock file", path: path)
            _ = Glibc_close(fd)
            throw error
        }
        return POSIXLockFile(path: path, descriptor: fd, memory: memory, byteCount: byteCount)
    }

    /// Gives the lock file's bytes their disk blocks before it is mapped. `ftruncate` leaves a new file sparse,
    /// and on a full disk the first store into a shared mapping of a sparse page is a `SIGBUS`, not an error: a
    /// store opened for the first time on a full disk crashed in its first write to the lock file. Allocating
    /// changes no byte (another process may already use the file), and turns a full disk into `diskFull`.
    ///
    /// - Returns: the error to throw, or nil.
    static func allocateBlocks(of fd: Int32, byteCount: Int, path: String) -> StrataError? {
        #if canImport(Glibc)
        // Where the file system cannot allocate ahead, glibc writes a zero byte into each block that reads as zero.
        let code = posix_fallocate(fd, 0, off_t(byteCount))
        guard code != 0 else { return nil }
        #else
        var request = fstore_t(
            fst_flags: UInt32(F_ALLOCATEALL), fst_posmode: F_PEOFPOSMODE, fst_offset: 0, fst_length: off_t(byteCount),
            fst_bytesalloc: 0)
        guard fcntl(fd, F_PREALLOCATE, &request) == -1 else { return nil }
        let code = errno
        #endif
        if code == EOPNOTSUPP || code == ENOSYS || code == EINVAL { return nil }
        return SystemError.error("allocate lock file", path: path, code: code)
    }

    /// The last component of `path` (all of it when it has no `/`).
    static func fileName(of path: String) -> String {
        path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
    }

    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let directory = String(path[..<slash])
        return directory.isEmpty ? "/" : directory
    }
}

/// `close(2)` under a name that does not clash with the protocols' `close()`.
@inline(__always)
func Glibc_close(_ fd: Int32) -> Int32 {
    #if canImport(Glibc)
    return Glibc.close(fd)
    #else
    return Darwin.close(fd)
    #endif
}

/// One open file descriptor.
final class POSIXFile: StorageFile, @unchecked Sendable {
    let path: String
    private var descriptor: Int32
    private var mapping: (base: UnsafeMutableRawPointer, length: Int)?

    init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    deinit { close() }

    func size() throws -> UInt64 {
        var info = stat()
        if fstat(descriptor, &info) != 0 { throw SystemError.current("stat", path: path) }
        return UInt64(info.st_size)
    }

    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64) throws {
        guard let base = buffer.baseAddress else { return }
        var done = 0
        while done < buffer.count {
            let count = pread(descriptor, base + done, buffer.count - done, off_t(offset) + off_t(done))
            if count < 0 {
                if errno == EINTR { continue }
                throw SystemError.current("read", path: path)
            }
            if count == 0 {
                // Past the end of the file: the rest reads as zero, as the protocol promises.
                (base + done).initializeMemory(as: UInt8.self, repeating: 0, count: buffer.count - done)
                return
            }
            done += count
        }
    }

    func write(_ bytes: UnsafeRawBufferPointer, at offset: UInt64) throws {
        guard let base = bytes.baseAddress else { return }
        var done = 0
        while done < bytes.count {
            let count = pwrite(descriptor, base + done, bytes.count - done, off_t(offset) + off_t(done))
            if count < 0 {
                if errno == EINTR { continue }
                throw SystemError.current("write", path: path)
            }
            done += count
        }
    }

    func sync() throws {
        #if canImport(Darwin)
        if fcntl(descriptor, F_FULLFSYNC) == 0 { return }
        if fsync(descriptor) != 0 { throw SystemError.current("fsync", path: path) }
        #else
        if fdatasync(descriptor) != 0 { throw SystemError.current("fdatasync", path: path) }
        #endif
    }

    func truncate(to size: UInt64) throws {
        if ftruncate(descriptor, off_t(size)) != 0 { throw SystemError.current("ftruncate", path: path) }
    }

    func map(reservingBytes: UInt64) throws -> UnsafeRawPointer {
        if let mapping { return UnsafeRawPointer(mapping.base) }
        let length = Int(clamping: reservingBytes)
        // Mapping past the end of the file is allowed; those pages are only touched once the file has grown.
        guard let base = mmap(nil, length, PROT_READ, MAP_SHARED, descriptor, 0), base != MAP_FAILED else {
            throw SystemError.current("mmap", path: path)
        }
        mapping = (base, length)
        return UnsafeRawPointer(base)
    }

    func mapReadOnly(over address: UnsafeMutableRawPointer, byteCount: Int, at offset: UInt64) -> Bool {
        if let view = mmap(address, byteCount, PROT_READ, MAP_SHARED | MAP_FIXED, descriptor, off_t(offset)),
            view == address
        {
            return true
        }
        // A failed MAP_FIXED may already have discarded the memory: put private memory back and fill it from the
        // file, which holds the same bytes.
        guard let restored = mmap(address, byteCount, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0),
            restored == address
        else { return false }
        try? read(into: UnsafeMutableRawBufferPointer(start: address, count: byteCount), at: offset)
        return false
    }

    func unmap() {
        if let mapping { munmap(mapping.base, mapping.length) }
        mapping = nil
    }

    func close() {
        unmap()
        if descriptor >= 0 { _ = Glibc_close(descriptor) }
        descriptor = -1
    }
}

/// The lock file: a shared mapping plus `fcntl` byte-range locks (released by the kernel when the process dies).
///
/// `fcntl` locks belong to the process, and closing any descriptor of the file drops all of them, so a process
/// keeps exactly one `POSIXLockFile` per lock file (the store's registry makes sure of it).
final class POSIXLockFile: LockFileHandle, @unchecked Sendable {
    let path: String
    let memory: UnsafeMutableRawPointer
    let byteCount: Int
    private var descriptor: Int32

    init(path: String, descriptor: Int32, memory: UnsafeMutableRawPointer, byteCount: Int) {
        self.path = path
        self.descriptor = descriptor
        self.memory = memory
        self.byteCount = byteCount
    }

    deinit { close() }

    func lock(byte: Int, exclusive: Bool, wait: Bool) throws -> Bool {
        var request = flock()
        request.l_type = Int16(exclusive ? F_WRLCK : F_RDLCK)
        request.l_whence = Int16(SEEK_SET)
        request.l_start = off_t(byte)
        request.l_len = 1
        while true {
            if fcntl(descriptor, wait ? F_SETLKW : F_SETLK, &request) == 0 { return true }
            if errno == EINTR { continue }
            if !wait && (errno == EAGAIN || errno == EACCES) { return false }
            throw SystemError.current("lock byte \(byte) of", path: path)
        }
    }

    func unlock(byte: Int) {
        var request = flock()
        request.l_type = Int16(F_UNLCK)
        request.l_whence = Int16(SEEK_SET)
        request.l_start = off_t(byte)
        request.l_len = 1
        _ = fcntl(descriptor, F_SETLK, &request)
    }

    func isLockedByAnotherProcess(byte: Int) -> Bool {
        var request = flock()
        request.l_type = Int16(F_WRLCK)
        request.l_whence = Int16(SEEK_SET)
        request.l_start = off_t(byte)
        request.l_len = 1
        // When the query itself fails, assume the owner lives: keeping a slot is safe, dropping it is not.
        guard fcntl(descriptor, F_GETLK, &request) == 0 else { return true }
        return request.l_type != Int16(F_UNLCK)
    }

    /// No name links to the file any more (`st_nlink` 0): it was deleted, or replaced by a rename.
    var isDeleted: Bool {
        var info = stat()
        return descriptor >= 0 && fstat(descriptor, &info) == 0 && info.st_nlink == 0
    }

    func close() {
        guard descriptor >= 0 else { return }
        munmap(memory, byteCount)
        _ = Glibc_close(descriptor)
        descriptor = -1
    }
}
