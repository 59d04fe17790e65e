import Foundation
import StrataStorage
import StrataTestSupport
import XCTest

/// A store on a real full disk: a 64 KiB tmpfs, filled. `FaultInjectionTests` makes each file operation fail with
/// `ENOSPC` through `FailingStorage`; what it cannot reach is a store into a shared mapping, which the kernel
/// answers with `SIGBUS` when the page has no block to go to. The store runs in a helper process, so a crash
/// fails the test instead of ending the test run. Mounting needs root; elsewhere the test is skipped and says so.
final class FullDiskTests: PagerTestCase {
    func testOpeningANewStoreOnAFullDiskSaysDiskFullAndWorksOnceThereIsRoom() throws {
        let directory = try TemporaryDirectory(prefix: "strata-full-disk")
        let mountPoint = directory.url.path
        guard Self.run("/usr/bin/mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", mountPoint]) == 0 else {
            throw XCTSkip("mounting a 64 KiB tmpfs needs root: opening a store on a full disk is not checked here")
        }
        defer { _ = Self.run("/usr/bin/umount", [mountPoint]) }
        let filler = mountPoint + "/filler"
        try Self.fill(filler)
        let path = mountPoint + "/db"

        let full = try HelperProcess(executable: helperExecutable(), arguments: ["commit-after", path, "0"])
        let (status, output, errors) = full.wait()
        XCTAssertEqual(full.process.terminationReason, .exit, "the store crashed on a full disk: \(errors)")
        XCTAssertEqual(status, 1, output)
        XCTAssertTrue(errors.contains("the disk is full"), errors)

        try FileManager.default.removeItem(atPath: filler)
        let roomy = try HelperProcess(executable: helperExecutable(), arguments: ["commit-after", path, "0"])
        let (roomyStatus, roomyOutput, roomyErrors) = roomy.wait()
        XCTAssertEqual(roomyStatus, 0, roomyErrors)
        XCTAssertEqual(roomyOutput, "open 1\ncommitted 2\n")
    }

    /// A store committing until its disk is full: the commit that finds no room throws `diskFull`, and the file
    /// opens at the last commit acknowledged, whole.
    func testCommitsUntilTheDiskIsFullLoseNothing() throws {
        let directory = try TemporaryDirectory(prefix: "strata-full-disk")
        let mountPoint = directory.url.path
        guard Self.run("/usr/bin/mount", ["-t", "tmpfs", "-o", "size=192k", "tmpfs", mountPoint]) == 0 else {
            throw XCTSkip("mounting a 192 KiB tmpfs needs root: commits on a full disk are not checked here")
        }
        defer { _ = Self.run("/usr/bin/umount", [mountPoint]) }
        let path = mountPoint + "/db"

        let writer = try HelperProcess(executable: helperExecutable(), arguments: ["commit-loop", path, "full"])
        let (status, output, errors) = writer.wait()
        XCTAssertEqual(writer.process.terminationReason, .exit, "the store crashed on a full disk: \(errors)")
        XCTAssertEqual(status, 1)
        XCTAssertTrue(errors.contains("the disk is full"), errors)
        let acknowledged = output.split(separator: "\n").last.flatMap { UInt64($0.split(separator: " ")[1]) }
        XCTAssertGreaterThan(acknowledged ?? 0, 2, output)

        let store = try Store.open(path: path, options: StoreOptions(readOnly: true))
        defer { store.close() }
        XCTAssertEqual(try checkedState(store).0, acknowledged)
    }

    /// Writes `path` until the file system has no room left.
    private static func fill(_ path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw StrataError.invalidArgument("cannot create '\(path)'") }
        defer { close(fd) }
        let block = [UInt8](repeating: 1, count: 4096)
        while block.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) > 0 {}
        guard errno == ENOSPC else { throw StrataError.invalidArgument("filling '\(path)' stopped with errno \(errno)") }
    }

    /// Runs `executable` with `arguments`, its output discarded; returns its exit status (-1 if it cannot start).
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
