import StrataSchema
import StrataSchemaCompiler
import XCTest

/// Models and schemas named like Swift's or Foundation's types compile, with a warning at the name saying which
/// type they hide and how to reach it (issue #24 item 3).
final class ShadowedNameDiagnosticsTests: SchemaTestCase {
    private func schema(named name: String = "Board", version: Int = 1, model: String) -> String {
        """
        schema: \(name)
        version: \(version)
        models:
          \(model):
            properties:
              title: string
        """
    }

    func testAModelNamedTaskIsAcceptedWithAWarningAtItsName() throws {
        let compilation = compile(schema(model: "Task"), path: "Board.v1.strata.yaml")
        XCTAssertFalse(compilation.hasErrors)
        XCTAssertEqual(compilation.histories.first?.current.models.map(\.name), ["Task"])
        XCTAssertEqual(compilation.diagnostics.map(\.description), [
            "Board.v1.strata.yaml:4:3: warning: model 'Task' hides Swift's 'Task' in the target that compiles it: "
                + "there, 'Task' means the model class (so 'Task.detached { }' fails with \"type 'Task' has no "
                + "member 'detached'\"); write 'Swift.Task' where the code means Swift's, or name the model "
                + "differently (for example 'TaskItem', with 'renamedFrom: Task' in the next version if it has "
                + "shipped)",
        ])
    }

    func testFoundationTypesAreQualifiedWithFoundation() throws {
        let warning = try XCTUnwrap(compile(schema(model: "Thread")).diagnostics.first)
        XCTAssertEqual(warning.severity, .warning)
        XCTAssertEqual(warning.location?.line, 4)
        XCTAssertEqual(warning.location?.column, 3)
        XCTAssertTrue(warning.message.contains("write 'Foundation.Thread' where the code means Foundation's"),
            warning.message)
    }

    func testASchemaNamedLikeASwiftTypeIsWarnedAboutAtItsName() throws {
        let compilation = compile(schema(named: "Result", model: "Outcome"))
        XCTAssertFalse(compilation.hasErrors)
        XCTAssertEqual(compilation.diagnostics.map(\.description), [
            "Test.strata.yaml:1:9: warning: schema 'Result' hides Swift's 'Result' in the target that compiles it: "
                + "there, 'Result' means the schema type; write 'Swift.Result' where the code means Swift's",
        ])
    }

    func testOnlyTheNewestVersionIsWarnedAbout() {
        let files = [
            ("Board.v1.strata.yaml", schema(model: "Error")),
            ("Board.v2.strata.yaml", schema(version: 2, model: "Issue").replacingOccurrences(
                of: "  Issue:\n", with: "  Issue:\n    renamedFrom: Error\n")),
        ]
        let compilation = compile(files)
        XCTAssertEqual(compilation.diagnostics.map(\.description), [])
        XCTAssertEqual(compilation.histories.first?.versions.count, 2)
    }

    func testOrdinaryNamesAreNotWarnedAbout() {
        XCTAssertEqual(compile(schema(model: "Chore")).diagnostics, [])
    }
}
