import Foundation
import StrataTestSupport
import XCTest

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Kills a child process with SIGKILL in the middle of migrating a big file, then checks that the file still
/// holds version 1, intact, and that the migration then runs again cleanly; and lets a migration run out of disk.
///
/// The default run kills twice; `STRATA_LONG_TESTS=1` kills ten times at random points.
final class KillDuringMigrationTests: XCTestCase {
    private let entries = 20_000

    func testKilledMigrationLeavesTheOldVersionIntactAndRunsAgainCleanly() throws {
        let loop = MigrationKillLoop(
            write: "write-v1", migrate: "migrate", verify: "verify", fileName: "ledger.strata", count: entries,
            newVersion: 3)
        let kills = ProcessInfo.processInfo.environment["STRATA_LONG_TESTS"] == "1" ? 10 : 2
        var generator = SystemRandomNumberGenerator()
        // Progress comes every 1,024 objects, about 40 times in all: kill after a random number of the first half.
        try loop.run(kills: kills) { _ in Int.random(in: 1...20, using: &generator) }
    }

    /// A migration that runs out of disk (a real full disk, `SmallFileSystem`) fails with `diskFull` and leaves
    /// version 1 as it was; once there is room, it runs again to the end. Mounting needs root; skipped elsewhere.
    func testMigrationOnAFullDiskLeavesTheOldVersionIntactAndRunsOnceThereIsRoom() throws {
        guard let disk = try SmallFileSystem(kilobytes: 8 << 10) else {
            throw XCTSkip("mounting an 8 MiB tmpfs needs root: a migration on a full disk is not checked here")
        }
        let helper = try BuiltExecutable(named: "strata-migration-helper")
        let path = disk.path + "/ledger.strata"
        let written = try helper.run(["write-v1", path, String(entries)], timeout: 600)
        XCTAssertEqual(written.status, 0, written.errorOutput)
        let filler = try disk.fill()

        let full = try helper.run(["migrate", path], timeout: 600)
        XCTAssertEqual(full.status, 1, "the migration did not fail on a full disk: \(full.output)")
        XCTAssertTrue(full.errorOutput.contains("the disk is full"), full.errorOutput)
        let intact = try helper.run(["verify", path, String(entries)], timeout: 600)
        XCTAssertEqual(intact.output.trimmingCharacters(in: .whitespacesAndNewlines), "version 1 intact \(entries)")

        try FileManager.default.removeItem(atPath: filler)
        let migrated = try helper.run(["migrate", path], timeout: 600)
        XCTAssertEqual(migrated.status, 0, migrated.errorOutput)
        let check = try helper.run(["verify", path, String(entries)], timeout: 600)
        XCTAssertEqual(check.output.trimmingCharacters(in: .whitespacesAndNewlines), "version 3 migrated \(entries)")
    }
}
