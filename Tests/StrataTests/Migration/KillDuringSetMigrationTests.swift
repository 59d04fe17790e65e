import Foundation
import StrataTestSupport
import XCTest

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Kills a child process with SIGKILL in the middle of migrating lists into sets and filling a new map (the
/// `Shelf` schema of `strata-migration-helper`), then checks that the file still holds version 1 with its repeats,
/// and that the migration then runs again to the end.
final class KillDuringSetMigrationTests: XCTestCase {
    private let boxes = 20_000

    func testKilledMigrationIntoSetsAndMapsLeavesVersion1AndRunsAgain() throws {
        let helper = try BuiltExecutable(named: "strata-migration-helper")
        let directory = try TemporaryDirectory()
        let path = directory.url.appendingPathComponent("shelf.strata").path
        let written = try helper.run(["write-shelf-v1", path, String(boxes)], timeout: 600)
        XCTAssertEqual(written.status, 0, written.errorOutput)
        var killedMidway = 0
        for attempt in 0..<2 {
            let (process, stdout, _) = try helper.start(["migrate-shelf", path])
            var output = waitForReports(2 + attempt * 3, from: stdout)
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            output += String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let check = try helper.run(["verify-shelf", path, String(boxes)], timeout: 600)
            XCTAssertEqual(check.status, 0, "after kill \(attempt): \(check.errorOutput)")
            let state = check.output.trimmingCharacters(in: .whitespacesAndNewlines)
            if output.contains("migrated \(boxes) objects") {
                XCTAssertEqual(state, "version 2 migrated \(boxes)")
                try FileManager.default.removeItem(atPath: path)
                let again = try helper.run(["write-shelf-v1", path, String(boxes)], timeout: 600)
                XCTAssertEqual(again.status, 0, again.errorOutput)
            } else {
                XCTAssertEqual(state, "version 1 intact \(boxes)", "a killed migration must leave version 1 as it was")
                killedMidway += 1
            }
        }
        XCTAssertGreaterThan(killedMidway, 0, "no kill landed during a migration (each run finished first)")
        let migrated = try helper.run(["migrate-shelf", path], timeout: 600)
        XCTAssertEqual(migrated.status, 0, migrated.errorOutput)
        XCTAssertTrue(migrated.output.contains("migrated \(boxes) objects"), migrated.output)
        let check = try helper.run(["verify-shelf", path, String(boxes)], timeout: 600)
        XCTAssertEqual(check.status, 0, check.errorOutput)
        XCTAssertEqual(check.output.trimmingCharacters(in: .whitespacesAndNewlines), "version 2 migrated \(boxes)")
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
