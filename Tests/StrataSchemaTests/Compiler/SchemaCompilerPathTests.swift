import Foundation
import StrataSchema
import StrataSchemaCompiler
import XCTest

/// `compile(paths:)`: finding, reading and reporting files on disk.
final class SchemaCompilerPathTests: SchemaTestCase {
    func testFoldersAreSearchedRecursivelyForSchemaFilesOnly() throws {
        let folder = try TemporaryFolder()
        try folder.write("Schemas/Shop/Shop.v1.strata.yaml", Examples.shop(1, Examples.item(["id: int"])))
        try folder.write("Schemas/Shop/nested/Shop.v2.strata.yml", Examples.shop(2, Examples.item(["id: int64"])))
        try folder.write("Schemas/Shop/notes.yaml", "not: a schema")
        try folder.write("Schemas/.build/Other.strata.yaml", "this: is ignored")
        let compilation = compiler.compile(paths: [folder.path + "/Schemas"])
        XCTAssertEqual(compilation.diagnostics, [])
        let history = try XCTUnwrap(compilation.histories.first)
        XCTAssertEqual(history.versions.map(\.version), [1, 2])
        XCTAssertEqual(history.plans.first?.steps,
            [.convertProperty(model: "Item", property: "id", from: .integer(.int), to: .integer(.int64))])
    }

    func testHistoriesAreSortedByName() throws {
        let folder = try TemporaryFolder()
        let zoo = "schema: Zoo\nversion: 1\nmodels:\n  Animal:\n    properties:\n      id: int\n"
        try folder.write("b.strata.yaml", zoo)
        try folder.write("a.strata.yaml", Examples.shop(1, Examples.item(["id: int"])))
        let compilation = compiler.compile(paths: [folder.path])
        XCTAssertEqual(compilation.histories.map(\.name), ["Shop", "Zoo"])
    }

    func testMissingPathIsAnErrorNamingIt() {
        let path = "/nonexistent/strata/Shop.strata.yaml"
        let compilation = compiler.compile(paths: [path])
        XCTAssertTrue(compilation.hasErrors)
        XCTAssertEqual(compilation.diagnostics.map(\.description),
            ["\(path):1:1: error: no such file or folder '\(path)': check the path"])
    }

    func testFileThatIsNotUTF8IsAnError() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("Bad.strata.yaml", Data([0x73, 0x63, 0xFF, 0xFE, 0x0A]))
        let compilation = compiler.compile(paths: [path])
        XCTAssertEqual(compilation.diagnostics.map(\.description),
            ["\(path):1:1: error: '\(path)' is not UTF-8 text: save it as UTF-8"])
        XCTAssertTrue(compilation.histories.isEmpty)
    }

    func testExplicitNonSchemaFileIsIgnoredWithAWarning() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("notes.yaml", "a: b")
        let compilation = compiler.compile(paths: [path])
        XCTAssertFalse(compilation.hasErrors)
        XCTAssertEqual(compilation.diagnostics.first?.severity, .warning)
        XCTAssertTrue(compilation.diagnostics.first?.message.contains("is not a schema file") == true)
    }

    func testFolderWithoutSchemaFilesGivesAWarning() throws {
        let folder = try TemporaryFolder()
        let compilation = compiler.compile(paths: [folder.path])
        XCTAssertFalse(compilation.hasErrors)
        XCTAssertEqual(compilation.diagnostics.map(\.message),
            ["no schema files (*.strata.yaml) found in \(folder.path)"])
        XCTAssertEqual(compilation.histories, [])
    }

    func testDiagnosticsAreSortedByPathLineAndColumn() {
        let bad = Examples.minimal(properties: "a: strin\n      b: flot")
        let alsoBad = Examples.minimal(version: 2, properties: "a: strin\n      b: flot")
        let compilation = compile([("z.strata.yaml", alsoBad), ("a.strata.yaml", bad)])
        let positions = compilation.diagnostics.compactMap { $0.location }.map { "\($0)" }
        XCTAssertEqual(positions,
            ["a.strata.yaml:6:10", "a.strata.yaml:7:10", "z.strata.yaml:6:10", "z.strata.yaml:7:10"])
    }

    func testOneBadFileWithholdsEveryHistory() {
        let good = "schema: Zoo\nversion: 1\nmodels:\n  Animal:\n    properties:\n      id: int\n"
        let compilation = compile([("good.strata.yaml", good), ("bad.strata.yaml", "schema: Shop\n")])
        XCTAssertTrue(compilation.hasErrors)
        XCTAssertEqual(compilation.histories, [])
    }

    func testSchemaHistoryLookupByName() {
        let compilation = compile(Examples.minimal())
        XCTAssertEqual(compilation.history(named: "Shop")?.current.version, 1)
        XCTAssertNil(compilation.history(named: "Nope"))
    }
}
