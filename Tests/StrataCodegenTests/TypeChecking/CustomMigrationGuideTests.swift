import Foundation
import StrataCodegen
import StrataSchemaCompiler
import XCTest

/// The "Custom migrations" guide in docs/MIGRATIONS.md, compiled: its YAML history goes through the schema compiler,
/// and the generated code of each release type-checks with that release's Swift, as an app's build would.
final class CustomMigrationGuideTests: XCTestCase {
    /// The code blocks of the guide, by the file name in the `<!-- guide-file: NAME -->` comment before each.
    static func guideFiles() throws -> [String: String] {
        let url = GoldenFileTests.repositoryRoot.appendingPathComponent("docs/MIGRATIONS.md")
        let lines = try String(contentsOf: url, encoding: .utf8).components(separatedBy: "\n")
        var files: [String: String] = [:]
        var index = 0
        while index < lines.count {
            let line = lines[index].trimmingCharacters(in: .whitespaces)
            index += 1
            guard line.hasPrefix("<!-- guide-file:"), line.hasSuffix("-->") else { continue }
            let name = line.dropFirst("<!-- guide-file:".count).dropLast("-->".count)
                .trimmingCharacters(in: .whitespaces)
            guard index < lines.count, lines[index].hasPrefix("```") else { continue }
            index += 1
            var body: [String] = []
            while index < lines.count, !lines[index].hasPrefix("```") {
                body.append(lines[index])
                index += 1
            }
            index += 1
            files[name] = body.joined(separator: "\n") + "\n"
        }
        return files
    }

    func testTheGuideNamesTheGeneratedAPI() throws {
        let text = try String(
            contentsOf: GoldenFileTests.repositoryRoot.appendingPathComponent("docs/MIGRATIONS.md"), encoding: .utf8)
        for name in ["## Custom migrations", "ContactsMigrations", "migrate<Model>(from:to:)",
            "Configuration(schema: Contacts.self, migrations:)", "Contacts.V<n>.<Model>"] {
            XCTAssertTrue(text.contains(name), "docs/MIGRATIONS.md does not mention \(name)")
        }
        let readme = try String(
            contentsOf: GoldenFileTests.repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        XCTAssertTrue(readme.contains("docs/MIGRATIONS.md#custom-migrations"), "README.md does not link the guide")
    }

    func testEachReleaseOfTheGuideTypeChecksWithItsGeneratedCode() throws {
        let files = try Self.guideFiles()
        let checker = try SwiftTypeChecker()
        for release in [2, 3] {
            let schemaNames = (1...release).map { "Contacts.v\($0).strata.yaml" }
            let sources = try schemaNames.map { name in
                let text = try XCTUnwrap(files[name], "docs/MIGRATIONS.md has no block marked \(name)")
                return SchemaSource(path: name, text: text)
            }
            let compilation = SchemaCompiler().compile(sources: sources)
            XCTAssertEqual(compilation.diagnostics.map(\.description), [], "release \(release)")
            XCTAssertEqual(compilation.histories.map(\.versions.count), [release])
            let appCode = try XCTUnwrap(files["Release\(release).swift"], "no block marked Release\(release).swift")
            let outcome = try checker.typeCheck([
                ("Contacts.generated.swift", SwiftGenerator().generate(compilation.histories)),
                ("Release\(release).swift", appCode),
            ])
            XCTAssertTrue(outcome.succeeded, "release \(release) does not type-check:\n\(outcome.output)")
        }
    }

    func testTheStepIntoVersionTwoIsWrittenTheSameWayInBothReleases() throws {
        let files = try Self.guideFiles()
        let signature = "func migratePerson(from old: Contacts.V1.Person, to new: Contacts.V2.Person) throws"
        XCTAssertTrue(files["Release2.swift"]?.contains(signature) == true)
        XCTAssertTrue(files["Release3.swift"]?.contains(signature) == true)
    }
}
