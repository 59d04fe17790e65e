import Foundation
import StrataStorage
import StrataTestSupport
import XCTest

/// A store on a real full disk (`SmallFileSystem`). `FaultInjectionTests` makes each file operation fail with
/// `ENOSPC` through `FailingStorage`; what it cannot reach is a store into a shared mapping, which the kernel
/// answers with `SIGBUS` when the page has no block. The store runs in a helper process, so a crash fails the test
/// instead of ending the test run. Mounting needs root; elsewhere the tests are skipped and say so.
final class FullDiskTests: PagerTestCase {
    func testOpeningANewStoreOnAFullDiskSaysDiskFullAndWorksOnceThereIsRoom() throws {
        guard let disk = try SmallFileSystem(kilobytes: 64) else {
            throw XCTSkip("mounting a 64 KiB tmpfs needs root: opening a store on a full disk is not checked here")
        }
        let filler = try disk.fill()
        let path = disk.path + "/db"

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
        guard let disk = try SmallFileSystem(kilobytes: 192) else {
            throw XCTSkip("mounting a 192 KiB tmpfs needs root: commits on a full disk are not checked here")
        }
        let path = disk.path + "/db"

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
}
