import Foundation
import StrataTestSupport
import XCTest

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A kill loop over `strata-migration-helper`: writes version 1 of one of its test files, starts the migration and
/// kills it with SIGKILL after some progress reports, then checks that the file holds version 1 intact or, when the
/// migration committed before the kill landed, the whole new version; at the end the migration runs to completion.
struct MigrationKillLoop {
    /// The helper's command that writes version 1 (`write-v1`, `write-shelf-v1`, ...).
    let write: String
    /// The helper's command that migrates (`migrate`, `migrate-shelf`, ...).
    let migrate: String
    /// The helper's command that prints `version 1 intact N` or `version V migrated N`.
    let verify: String
    /// The file's name in a temporary directory.
    let fileName: String
    /// How many objects version 1 holds.
    let count: Int
    /// The version a finished migration reaches.
    let newVersion: Int

    /// Runs `kills` attempts, killing attempt `n` after `reportsBeforeKill(n)` progress lines, and asserts that at
    /// least one kill landed during a migration.
    func run(kills: Int, reportsBeforeKill: (Int) -> Int, file: StaticString = #filePath, line: UInt = #line) throws {
        let helper = try BuiltExecutable(named: "strata-migration-helper")
        let directory = try TemporaryDirectory()
        let path = directory.url.appendingPathComponent(fileName).path
        let written = try helper.run([write, path, String(count)], timeout: 600)
        XCTAssertEqual(written.status, 0, written.errorOutput, file: file, line: line)
        let migratedState = "version \(newVersion) migrated \(count)"
        var killedMidway = 0
        for attempt in 0..<kills {
            let reports = reportsBeforeKill(attempt)
            let (process, stdout, _) = try helper.start([migrate, path])
            var output = waitForReports(reports, from: stdout)
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            output += String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let check = try helper.run([verify, path, String(count)], timeout: 600)
            XCTAssertEqual(check.status, 0, "after kill \(attempt) at report \(reports): \(check.errorOutput)",
                           file: file, line: line)
            let state = check.output.trimmingCharacters(in: .whitespacesAndNewlines)
            if output.contains("migrated \(count) objects") {
                // The migration committed before the kill landed: the file must then be fully migrated.
                XCTAssertEqual(state, migratedState, file: file, line: line)
                try FileManager.default.removeItem(atPath: path)
                let again = try helper.run([write, path, String(count)], timeout: 600)
                XCTAssertEqual(again.status, 0, again.errorOutput, file: file, line: line)
            } else {
                XCTAssertEqual(state, "version 1 intact \(count)", "a killed migration must leave version 1 as it was",
                               file: file, line: line)
                killedMidway += 1
            }
        }
        XCTAssertGreaterThan(killedMidway, 0, "no kill landed during a migration (each run finished first)",
                             file: file, line: line)

        let migrated = try helper.run([migrate, path], timeout: 600)
        XCTAssertEqual(migrated.status, 0, migrated.errorOutput, file: file, line: line)
        XCTAssertTrue(migrated.output.contains("migrated \(count) objects"), migrated.output, file: file, line: line)
        let check = try helper.run([verify, path, String(count)], timeout: 600)
        XCTAssertEqual(check.status, 0, check.errorOutput, file: file, line: line)
        XCTAssertEqual(check.output.trimmingCharacters(in: .whitespacesAndNewlines), migratedState,
                       file: file, line: line)
    }

    /// Reads the child's output until it printed `count` progress lines (or ended, or 5 minutes passed), and
    /// returns what it read.
    private func waitForReports(_ count: Int, from stdout: Pipe) -> String {
        var text = ""
        let deadline = Date().addingTimeInterval(300)
        while Date() < deadline {
            let chunk = stdout.fileHandleForReading.availableData
            if chunk.isEmpty { break }  // the child closed its output: it ended
            text += String(decoding: chunk, as: UTF8.self)
            if text.components(separatedBy: "progress ").count - 1 >= count { break }
        }
        return text
    }
}
