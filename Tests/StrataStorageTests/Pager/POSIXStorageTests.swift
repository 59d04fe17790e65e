import Foundation
import StrataStorage
import XCTest

/// The POSIX `StorageIO` where file systems differ.
final class POSIXStorageTests: XCTestCase {
    /// A file system that cannot sync a directory (`EINVAL`: some network and FUSE ones; Linux's `/proc` here)
    /// must not make creating, compacting or copying a database fail there; other failures still throw.
    func testADirectoryThatCannotBeSyncedIsNotAnError() throws {
        guard FileManager.default.fileExists(atPath: "/proc/self") else {
            throw XCTSkip("no /proc here: no file system at hand that refuses to sync a directory")
        }
        XCTAssertNoThrow(try POSIXStorage().syncDirectory(containing: "/proc/self/status"))
        XCTAssertThrowsError(try POSIXStorage().syncDirectory(containing: "/no/such/folder/file"))
    }
}
