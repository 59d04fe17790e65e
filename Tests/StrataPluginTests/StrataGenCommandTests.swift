import Foundation
import StrataTestSupport
import XCTest

/// Runs the built `strata-gen` executable as the plugin and people do, checking its output and exit code.
final class StrataGenCommandTests: XCTestCase {
    private static let repositoryRoot = ConsumerPackage.repositoryRoot(from: #filePath)
    private var demoSchemas: String { Self.repositoryRoot.appendingPathComponent("Schemas/strata-demo").path }
    private var folder: TemporaryDirectory!

    override func setUpWithError() throws {
        folder = try TemporaryDirectory(prefix: "strata-gen-tests")
    }

    /// The `strata-gen` built next to this test bundle.
    private func strataGen() throws -> URL {
        let candidates = [Bundle.main.bundleURL, URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()]
            + Bundle.allBundles.map { $0.bundleURL.deletingLastPathComponent() }
        for folder in candidates {
            let executable = folder.appendingPathComponent("strata-gen")
            if FileManager.default.isExecutableFile(atPath: executable.path) { return executable }
        }
        throw XCTSkip("strata-gen is not built next to the test bundle (looked in \(candidates.map(\.path)))")
    }

    private func run(_ arguments: [String]) throws -> ConsumerPackageResult {
        try ConsumerPackageResult.run(try strataGen().path, arguments, in: folder.url)
    }

    /// A schema file with an unknown type on line 6, column 14.
    private func writeBrokenSchema() throws -> String {
        let path = folder.url.appendingPathComponent("Notes.strata.yaml").path
        try "schema: Notes\nversion: 1\nmodels:\n  Note:\n    properties:\n      title: strng\n"
            .write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func testCheckPrintsAOneLineSummaryForValidSchemas() throws {
        let result = try run(["check", demoSchemas])
        XCTAssertEqual(result.exitCode, 0, result.description)
        XCTAssertEqual(result.output, "OK: 1 schema (Library v1–v3), 3 files, 0 warnings\n")
    }

    func testCheckPrintsPositionedErrorsAndExitsWithOne() throws {
        let path = try writeBrokenSchema()
        let result = try run(["check", path])
        XCTAssertEqual(result.exitCode, 1, result.description)
        XCTAssertTrue(result.output.contains("\(path):6:14: error: unknown type 'strng'"), result.description)
        XCTAssertTrue(result.output.contains("did you mean 'string'?"), result.description)
        XCTAssertFalse(result.output.contains("OK:"), result.description)
    }

    /// A model named like a Swift type compiles with a warning at its name, from `check` and from `generate` (the
    /// command the plugin runs, whose standard error the build shows) alike (issue #24 item 3).
    func testAModelThatHidesASwiftTypeIsWarnedAboutByCheckAndGenerate() throws {
        let path = folder.url.appendingPathComponent("Board.strata.yaml").path
        try "schema: Board\nversion: 1\nmodels:\n  Task:\n    properties:\n      title: string\n"
            .write(toFile: path, atomically: true, encoding: .utf8)
        let warning = "\(path):4:3: warning: model 'Task' hides Swift's 'Task' in the target that compiles it"
        let check = try run(["check", path])
        XCTAssertEqual(check.exitCode, 0, check.description)
        XCTAssertTrue(check.output.contains(warning), check.description)
        XCTAssertTrue(check.output.contains("OK: 1 schema (Board v1), 1 file, 1 warning"), check.description)
        let output = folder.url.appendingPathComponent("Generated/Board.swift").path
        let generate = try run(["generate", "--output", output, path])
        XCTAssertEqual(generate.exitCode, 0, generate.description)
        XCTAssertTrue(generate.output.contains(warning), generate.description)
        XCTAssertTrue(FileManager.default.fileExists(atPath: output))
    }

    func testGenerateWritesTheSameCodeAsTheGoldenFile() throws {
        let output = folder.url.appendingPathComponent("Generated/Library.swift")
        let result = try run(["generate", "--output", output.path, demoSchemas])
        XCTAssertEqual(result.exitCode, 0, result.description)
        let golden = Self.repositoryRoot.appendingPathComponent("Tests/StrataCodegenTests/Golden/Library.swift.golden")
        XCTAssertEqual(try String(contentsOf: output, encoding: .utf8), try String(contentsOf: golden, encoding: .utf8))
    }

    func testGenerateWritesNoCodeWhenASchemaHasErrors() throws {
        let output = folder.url.appendingPathComponent("Out.swift")
        let result = try run(["generate", "--output", output.path, try writeBrokenSchema()])
        XCTAssertEqual(result.exitCode, 1, result.description)
        XCTAssertTrue(result.output.contains(":6:14: error:"), result.description)
        XCTAssertFalse(FileManager.default.fileExists(atPath: output.path))
    }

    func testDiffPrintsEachStepInPlainWords() throws {
        let result = try run(["diff", demoSchemas])
        XCTAssertEqual(result.exitCode, 0, result.description)
        let lines = result.output.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first, "Library (v1, v2, v3)")
        XCTAssertTrue(lines.contains("v1 → v2:"), result.output)
        XCTAssertTrue(lines.contains("  - rename model Writer to Author"), result.output)
        XCTAssertTrue(lines.contains("v2 → v3:"), result.output)
        XCTAssertTrue(lines.contains("  - rename property Member.yearsSinceBirth to age"), result.output)
        XCTAssertTrue(lines.contains("  - run the app's custom migration for Member"), result.output)
    }

    func testMissingPathIsAnError() throws {
        let result = try run(["check", folder.url.appendingPathComponent("nowhere").path])
        XCTAssertEqual(result.exitCode, 1, result.description)
        XCTAssertTrue(result.output.contains("no such file or folder"), result.description)
    }
}
