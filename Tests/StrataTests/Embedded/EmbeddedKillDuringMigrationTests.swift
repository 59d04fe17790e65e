import XCTest

/// Kills a child process with SIGKILL while it migrates a file in which a model becomes embedded
/// (`strata-migration-helper`'s `Homestead`) or stops being embedded (its `Paddock`), then checks that the file still
/// holds version 1 intact (every link as written, the table embedded or not as before) and that the migration then
/// runs again to the end.
final class EmbeddedKillDuringMigrationTests: XCTestCase {
    func testAKilledEmbeddingMigrationLeavesVersion1IntactAndRunsAgain() throws {
        let loop = MigrationKillLoop(
            write: "write-embedded-v1", migrate: "migrate-embedded", verify: "verify-embedded",
            fileName: "homestead.strata", count: 20_000, newVersion: 2)
        try loop.run(kills: 2) { attempt in 1 + attempt * 4 }
    }

    func testAKilledUnembeddingMigrationLeavesVersion1IntactAndRunsAgain() throws {
        let loop = MigrationKillLoop(
            write: "write-unembed-v1", migrate: "migrate-unembed", verify: "verify-unembed",
            fileName: "paddock.strata", count: 20_000, newVersion: 2)
        try loop.run(kills: 2) { attempt in 1 + attempt * 4 }
    }
}
