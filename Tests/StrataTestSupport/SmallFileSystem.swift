import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A small tmpfs mounted on a fresh temporary directory, unmounted when the value is deinitialized: a real disk that
/// can be filled or made read-only, for what a `StorageIO` that fails on purpose cannot show (the kernel's answer to a store into a
/// shared mapping of a page with no block is `SIGBUS`, not an error). Mounting needs root on Linux.
package final class SmallFileSystem {
    /// Where it is mounted.
    package let path: String
    private let directory: TemporaryDirectory

    /// Mounts a tmpfs of `kilobytes` KiB; nil when this process may not mount one (not root, not Linux).
    package init?(kilobytes: Int) throws {
        directory = try TemporaryDirectory(prefix: "strata-small-fs")
        path = directory.url.path
        guard Self.run("/usr/bin/mount", ["-t", "tmpfs", "-o", "size=\(kilobytes)k", "tmpfs", path]) == 0 else { return nil }
    }

    /// Unmounts lazily (`umount -l`): a store the test still holds open cannot keep the mount alive.
    deinit { _ = Self.run("/usr/bin/umount", ["-l", path]) }

    /// Makes the file system read-only (`mount -o remount,ro`): writes and new files then fail with `EROFS`.
    ///
    /// - Throws: `CocoaError` when the remount fails.
    package func makeReadOnly() throws {
        guard Self.run("/usr/bin/mount", ["-o", "remount,ro", path]) == 0 else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path])
        }
    }

    /// Writes the file `name` until no room is left, and returns its path (remove it to make room again).
    ///
    /// - Throws: `CocoaError` when the file cannot be created or writing stops for another reason than a full disk.
    @discardableResult
    package func fill(named name: String = "filler") throws -> String {
        let filler = path + "/" + name
        let fd = open(filler, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: filler]) }
        defer { close(fd) }
        let block = [UInt8](repeating: 1, count: 4096)
        while block.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) > 0 {}
        guard errno == ENOSPC else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: filler]) }
        return filler
    }

    /// Runs `executable` with `arguments`, output discarded; returns its exit status (-1 when it could not start
    /// or ended by a signal).
    private static func run(_ executable: String, _ arguments: [String]) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return -1 }
        process.waitUntilExit()
        return process.terminationReason == .exit ? process.terminationStatus : -1
    }
}
