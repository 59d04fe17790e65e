import Foundation
import XCTest
import StrataCodegen
import StrataSchema
import StrataSchemaCompiler

/// Generated code must build for large schemas (issue #23 item 2): one nested literal per schema made the Swift
/// type checker take gigabytes for a hundred models. How the cost grows is measured by `strata-bench compiler`
/// (docs/BENCHMARKS.md), not here: a timed test would fail on a busy machine, not on a regression.
final class GeneratedCodeScaleTests: XCTestCase {
    /// 300 models with links between them (the size at which the single literal ran the type checker out of
    /// 10 GB): the generated file type-checks against the built `Strata`. A thousand models type-check too (about
    /// 30 CPU seconds in a debug build here, minutes of wall time on a busy machine): `strata-bench compiler`.
    func testThreeHundredModelsGenerateCodeThatTypeChecks() throws {
        let text = try generatedCode(for: ScaleSchemaText.models(300))
        XCTAssertTrue(text.contains("private static func makeModel299() -> ModelDefinition"))
        try assertTypeChecks(text)
    }

    /// One model of 1,000 properties (8.7 GB of type checking with the single literal; its `persistedValues()`
    /// array literal alone took 1.6 GB): the generated file type-checks.
    func testAModelWithAThousandPropertiesGeneratesCodeThatTypeChecks() throws {
        let text = try generatedCode(for: ScaleSchemaText.properties(1_000))
        XCTAssertTrue(text.contains("values.append(unmanaged.p999.persistedValue)"))
        try assertTypeChecks(text)
    }

    /// Schemas of 2,000 models and of one model with 10,000 properties load and validate without a diagnostic,
    /// and the generated description lists every model and property (one `append` each). Larger sizes are the
    /// benchmark's: in a debug build on a busy machine they take minutes.
    func testLargeSchemasCompileAndGenerateEveryModelAndProperty() throws {
        let cases = [(ScaleSchemaText.models(2_000), 2_000), (ScaleSchemaText.properties(10_000), 1)]
        for (schema, modelCount) in cases {
            let text = try generatedCode(for: schema)
            XCTAssertEqual(text.components(separatedBy: "models.append(makeModel").count - 1, modelCount)
            XCTAssertEqual(text.components(separatedBy: "properties.append(PropertyDefinition(").count - 1, 10_000)
        }
    }

    // MARK: - Helpers

    private func generatedCode(for schema: String) throws -> String {
        let compilation = SchemaCompiler().compile(sources: [SchemaSource(path: "Scale.v1.strata.yaml", text: schema)])
        XCTAssertFalse(compilation.hasErrors, compilation.diagnostics.map(\.description).joined(separator: "\n"))
        return SwiftGenerator().generate(compilation.histories)
    }

    /// Runs `swiftc -typecheck` on `text` with the modules of this build, and fails with the compiler's output.
    private func assertTypeChecks(_ text: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("strata-scale-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = folder.appendingPathComponent("Scale.swift")
        try text.write(to: source, atomically: true, encoding: .utf8)
        let errors = folder.appendingPathComponent("errors.txt")
        try Data().write(to: errors)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swiftc", "-typecheck", "-swift-version", "6", "-I", try modulesFolder(), source.path]
        process.standardOutput = try FileHandle(forWritingTo: errors)
        process.standardError = process.standardOutput
        try process.run()
        process.waitUntilExit()
        let output = String(decoding: try Data(contentsOf: errors), as: UTF8.self)
        XCTAssertEqual(process.terminationStatus, 0, "swiftc -typecheck failed:\n\(output.prefix(4_000))",
            file: file, line: line)
    }

    /// The build's `Modules` folder (beside the test bundle), which holds `Strata.swiftmodule`.
    private func modulesFolder() throws -> String {
        let bundles = [Bundle.main] + Bundle.allBundles
        let candidates = bundles.flatMap { bundle in
            [bundle.bundleURL, bundle.bundleURL.deletingLastPathComponent()].map {
                $0.appendingPathComponent("Modules")
            }
        }
        guard let found = candidates.first(where: {
            FileManager.default.fileExists(atPath: $0.appendingPathComponent("Strata.swiftmodule").path)
        }) else {
            throw ModulesNotFound(searched: candidates.map(\.path))
        }
        return found.path
    }
}

/// The build's modules were not found beside the test bundle.
private struct ModulesNotFound: Error, CustomStringConvertible {
    let searched: [String]
    var description: String { "no Modules/Strata.swiftmodule beside the test bundle; searched \(searched)" }
}
