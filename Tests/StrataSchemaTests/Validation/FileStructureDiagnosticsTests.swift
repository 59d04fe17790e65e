import StrataSchema
import StrataSchemaCompiler
import XCTest

/// Problems with the file as YAML and its top-level shape.
final class FileStructureDiagnosticsTests: SchemaTestCase {
    func testYAMLSyntaxErrorPointsAtTheBadLine() {
        let text = "schema: Shop\nversion: 1\nmodels:\n  Item:\n    properties:\n      id: int\n     name: string\n"
        assertSingleError(text, line: 7, column: 6, contains: ["YAML syntax error", "fix the indentation"])
    }

    func testUnclosedFlowListIsASyntaxError() {
        let text = "schema: Shop\nversion: 1\nmodels:\n  Item:\n    properties:\n      id: [int\n"
        assertSingleError(text, line: 7, column: 1, contains: ["YAML syntax error"])
    }

    func testTabIndentationIsASyntaxErrorNotACrash() {
        let text = "schema: Shop\nversion: 1\nmodels:\n\tItem:\n"
        assertSingleError(text, line: 4, column: 1, contains: ["YAML syntax error"])
    }

    func testEmptyFileSaysWhatASchemaFileStartsWith() {
        assertSingleError("", line: 1, column: 1, contains: ["the file is empty", "schema: Name"])
    }

    func testFileThatIsAListIsRefused() {
        assertSingleError("- a\n- b\n", line: 1, column: 1, contains: ["not a mapping"])
    }

    func testUnknownTopLevelKeySuggestsTheKnownOne() {
        let text = "schema: Shop\nversion: 1\naccess: public\nmodels: {}\nremovedModel: [Old]\n"
        assertSingleError(text, line: 5, column: 1,
            contains: ["unknown key 'removedModel' at the top of a schema file", "did you mean 'removedModels'?"])
    }

    func testUnknownModelKeySuggestsTheKnownOne() {
        assertSingleError(Examples.minimal(extra: "    primaryKy: id"), line: 5, column: 5,
            contains: ["unknown key 'primaryKy' in model 'Item'", "did you mean 'primaryKey'?"])
    }

    func testUnknownPropertyKeySuggestsTheKnownOne() {
        assertSingleError(Examples.minimal(properties: "id: { type: int, indxed: true }"), line: 6, column: 24,
            contains: ["unknown key 'indxed' in property 'Item.id'", "did you mean 'indexed'?"])
    }

    func testMissingSchemaKeyIsReported() {
        assertSingleError("version: 1\nmodels: {}\n", line: 1, column: 1, contains: ["lacks 'schema: Name'"])
    }

    func testMissingVersionKeyIsReported() {
        assertSingleError("schema: Shop\nmodels: {}\n", line: 1, column: 1, contains: ["lacks 'version: 1'"])
    }

    func testMissingModelsKeyIsReported() {
        assertSingleError("schema: Shop\nversion: 1\n", line: 1, column: 1, contains: ["lacks 'models:'"])
    }

    func testZeroVersionIsRefused() {
        assertSingleError("schema: Shop\nversion: 0\nmodels: {}\n", line: 2, column: 10,
            contains: ["version 0 is not a positive number"])
    }

    func testNegativeVersionIsRefused() {
        assertSingleError("schema: Shop\nversion: -3\nmodels: {}\n", line: 2, column: 10,
            contains: ["version -3 is not a positive number"])
    }

    func testVersionThatIsNotANumberIsRefused() {
        assertSingleError("schema: Shop\nversion: two\nmodels: {}\n", line: 2, column: 10,
            contains: ["version must be a positive whole number", "'two'"])
    }

    func testHugeVersionIsRefusedWithoutOverflow() {
        assertSingleError("schema: Shop\nversion: 99999999999999999999999\nmodels: {}\n", line: 2, column: 10,
            contains: ["version must be a positive whole number"])
    }

    func testUnknownAccessLevelSuggestsOne() {
        assertSingleError("schema: Shop\nversion: 1\naccess: publik\nmodels: {}\n", line: 3, column: 9,
            contains: ["access 'publik'", "did you mean 'public'?"])
    }

    func testUnknownMigrateValueIsRefused() {
        assertSingleError(Examples.minimal(extra: "    migrate: costum"), line: 5, column: 14,
            contains: ["migrate 'costum' is not known", "did you mean 'custom'?"])
    }

    func testModelWithoutPropertiesIsRefused() {
        assertSingleError("schema: Shop\nversion: 1\nmodels:\n  Item:\n    doc: Nothing here.\n", line: 4, column: 3,
            contains: ["model 'Item' has no 'properties:'"])
    }

    func testNonUTF8ControlCharacterIsAPositionedError() {
        let text = "schema: Shop\nversion: 1\nmodels:\n  Item:\n    properties:\n      id: in\u{7}t\n"
        let compilation = compile(text)
        XCTAssertTrue(compilation.hasErrors)
        XCTAssertEqual(compilation.diagnostics.first?.location?.line, 6)
    }
}
