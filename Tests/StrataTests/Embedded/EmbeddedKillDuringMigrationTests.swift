import Foundation
import StrataTestSupport
import XCTest

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Kills a child process with SIGKILL while it migrates a file in which a model becomes embedded
/// (`strata-migration-helper`'s `Homestead`), then checks that the file still holds version 1 intact (barns
/// top-level, every link as written) and that the migration then runs again to the end.
final class EmbeddedKillDuringMigrationTests: XCTestCase {
    private let farms = 20_000

    func testAKilledEmbeddingMigrationLeavesVersion1IntactAndRunsAgain() throws {
        let helper = try BuiltExecutable(named: "strata-migration-helper")
        let directory = try TemporaryDirectory()
        let path = directory.url.appendingPathComponent("homestead.strata").path
        let written = try helper.run(["write-embedded-v1", path, String(farms)], timeout: 600)
        XCTAssertEqual(written.status, 0, written.errorOutput)
        var killedMidway = 0
        for attempt in 0..<2 {
            let (process, stdout, _) = try helper.start(["migrate-embedded", path])
            var output = waitForReports(1 + attempt * 4, from: stdout)
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            output += String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let check = try helper.run(["verify-embedded", path, String(farms)], timeout: 600)
            XCTAssertEqual(check.status, 0, "after kill \(attempt): \(check.errorOutput)")
            let state = check.output.trimmingCharacters(in: .whitespacesAndNewlines)
            if output.contains("migrated \(farms) objects") {
                XCTAssertEqual(state, "version 2 migrated \(farms)")
                try FileManager.default.removeItem(atPath: path)
                let again = try helper.run(["write-embedded-v1", path, String(farms)], timeout: 600)
                XCTAssertEqual(again.status, 0, again.errorOutput)
            } else {
                XCTAssertEqual(state, "version 1 intact \(farms)", "a killed migration must leave version 1 as it was")
                killedMidway += 1
            }
        }
        XCTAssertGreaterThan(killedMidway, 0, "no kill landed during a migration (each run finished first)")
        let migrated = try helper.run(["migrate-embedded", path], timeout: 600)
        XCTAssertEqual(migrated.status, 0, migrated.errorOutput)
        let check = try helper.run(["verify-embedded", path, String(farms)], timeout: 600)
        XCTAssertEqual(check.output.trimmingCharacters(in: .whitespacesAndNewlines), "version 2 migrated \(farms)")
    }

    /// Reads the child's output until it printed `count` progress lines (or ended, or 5 minutes passed).
    private func waitForReports(_ count: Int, from stdout: Pipe) -> String {
        var text = ""
        let deadline = Date().addingTimeInterval(300)
        while Date() < deadline {
            let chunk = stdout.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
            if text.components(separatedBy: "progress ").count - 1 >= count { break }
        }
        return text
    }
}
