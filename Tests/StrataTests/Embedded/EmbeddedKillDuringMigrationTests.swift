import XCTest

/// Kills a child process with SIGKILL while it migrates a file in which a model becomes embedded
/// (`strata-migration-helper`'s `Homestead`), then checks that the file still holds version 1 intact (barns
/// top-level, every link as written) and that the migration then runs again to the end.
final class EmbeddedKillDuringMigrationTests: XCTestCase {
    func testAKilledEmbeddingMigrationLeavesVersion1IntactAndRunsAgain() throws {
        let loop = MigrationKillLoop(
            write: "write-embedded-v1", migrate: "migrate-embedded", verify: "verify-embedded",
            fileName: "homestead.strata", count: 20_000, newVersion: 2)
        try loop.run(kills: 2) { attempt in 1 + attempt * 4 }
    }
}
