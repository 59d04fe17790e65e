import XCTest

/// Kills a child process with SIGKILL in the middle of migrating lists into sets and filling a new map (the
/// `Shelf` schema of `strata-migration-helper`), then checks that the file still holds version 1 with its repeats,
/// and that the migration then runs again to the end.
final class KillDuringSetMigrationTests: XCTestCase {
    func testKilledMigrationIntoSetsAndMapsLeavesVersion1AndRunsAgain() throws {
        let loop = MigrationKillLoop(
            write: "write-shelf-v1", migrate: "migrate-shelf", verify: "verify-shelf", fileName: "shelf.strata",
            count: 20_000, newVersion: 2)
        try loop.run(kills: 2) { attempt in 2 + attempt * 3 }
    }
}
