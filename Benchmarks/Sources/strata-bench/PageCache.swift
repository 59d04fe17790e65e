import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The system's cache of file pages, as far as a process can steer it.
enum PageCache {
    /// Syncs every file under `directory` and asks the system to drop its cached pages (`posix_fadvise`
    /// `POSIX_FADV_DONTNEED`; pages still mapped by a process stay). Where there is no such call (Darwin), it
    /// only syncs.
    static func drop(_ directory: URL) throws {
        guard let files = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil) else {
            throw BenchmarkError("cannot list \(directory.path)")
        }
        for case let file as URL in files where !file.hasDirectoryPath {
            let descriptor = open(file.path, O_RDONLY)
            guard descriptor >= 0 else { throw BenchmarkError("cannot open \(file.path): errno \(errno)") }
            defer { close(descriptor) }
            guard fsync(descriptor) == 0 else { throw BenchmarkError("cannot sync \(file.path): errno \(errno)") }
            #if canImport(Glibc)
            let result = posix_fadvise(descriptor, 0, 0, Int32(POSIX_FADV_DONTNEED))
            guard result == 0 else { throw BenchmarkError("cannot drop \(file.path) from the page cache: error \(result)") }
            #endif
        }
    }
}
