import Foundation
import XCTest

/// A checked-in expected output beside the tests, compared with what the code produces now.
///
/// On a mismatch the test fails with a unified `diff` of the two; with `STRATA_RECORD_GOLDEN=1` in the
/// environment it writes the new text instead (then review it with `git diff`).
struct GoldenFile {
    /// The file, relative to `Tests/StrataCodegenTests`.
    let relativePath: String

    /// The file's URL, found from this source file's path.
    var url: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(relativePath)
    }

    /// Compares `actual` with the file (or records it).
    func check(_ actual: String, file: StaticString = #filePath, line: UInt = #line) throws {
        if ProcessInfo.processInfo.environment["STRATA_RECORD_GOLDEN"] == "1" {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try actual.write(to: url, atomically: true, encoding: .utf8)
            return
        }
        guard let expected = try? String(contentsOf: url, encoding: .utf8) else {
            XCTFail("\(relativePath) is missing: record it with STRATA_RECORD_GOLDEN=1", file: file, line: line)
            return
        }
        guard expected != actual else { return }
        XCTFail(
            "\(relativePath) differs from the generated text (re-record with STRATA_RECORD_GOLDEN=1 if intended):\n"
                + Self.diff(expected: expected, actual: actual),
            file: file, line: line
        )
    }

    /// `diff -u` of the two texts, through temporary files.
    static func diff(expected: String, actual: String) -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("strata-golden-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let expectedURL = directory.appendingPathComponent("expected")
            let actualURL = directory.appendingPathComponent("actual")
            try expected.write(to: expectedURL, atomically: true, encoding: .utf8)
            try actual.write(to: actualURL, atomically: true, encoding: .utf8)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["diff", "-u", expectedURL.path, actualURL.path]
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            let output = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return String(decoding: output, as: UTF8.self)
        } catch {
            return "(no diff: \(error))"
        }
    }
}
