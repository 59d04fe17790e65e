import XCTest
import StrataCodegen
import StrataSchema
import StrataSchemaCompiler

/// Pins the generated text. Re-record after an intended change with `STRATA_RECORD_GOLDEN=1 swift test`.
final class GoldenFileTests: XCTestCase {
    /// The repository's root, found from this file's path.
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    func testFixtureModelsMatchTheCheckedInGeneratedFile() throws {
        let text = SwiftGenerator().generate(FixtureSchemas.all)
        try GoldenFile(relativePath: "Generated/FixtureModels.swift").check(text)
    }

    func testDemoLibrarySchemaMatchesItsGoldenFile() throws {
        let folder = Self.repositoryRoot.appendingPathComponent("Schemas/strata-demo").path
        let compilation = SchemaCompiler().compile(paths: [folder])
        XCTAssertFalse(compilation.hasErrors, compilation.diagnostics.map(\.description).joined(separator: "\n"))
        XCTAssertEqual(compilation.histories.map(\.name), ["Library"])
        let text = SwiftGenerator().generate(compilation.histories)
        try GoldenFile(relativePath: "Golden/Library.swift.golden").check(text)
    }

    func testGenerationIsDeterministic() {
        XCTAssertEqual(SwiftGenerator().generate(FixtureSchemas.all), SwiftGenerator().generate(FixtureSchemas.all))
    }
}
