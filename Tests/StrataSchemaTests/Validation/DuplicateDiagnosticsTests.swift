import StrataSchema
import StrataSchemaCompiler
import XCTest

/// Keys given twice are reported at the second occurrence, in the words of their context.
final class DuplicateDiagnosticsTests: SchemaTestCase {
    func testDuplicateModelIsReportedAtItsSecondDefinition() {
        let text = """
            schema: Shop
            version: 1
            models:
              Item:
                properties:
                  id: int
              Item:
                properties:
                  name: string

            """
        assertSingleError(text, line: 7, column: 3, contains: ["model 'Item' is defined twice", "first at line 4"])
    }

    func testDuplicatePropertyIsReportedAtItsSecondDefinition() {
        let text = Examples.minimal(properties: "id: int\n      name: string\n      id: string")
        assertSingleError(text, line: 8, column: 7,
            contains: ["property 'id' is defined twice in model 'Item'", "first at line 6"])
    }

    func testDuplicateQuotedPropertyIsReported() {
        let text = Examples.minimal(properties: "\"id\": int\n      id: string")
        assertSingleError(text, line: 7, column: 7, contains: ["property 'id' is defined twice in model 'Item'"])
    }

    func testPropertyDefinedThreeTimesGivesTwoErrors() {
        let text = Examples.minimal(properties: "id: int\n      id: int8\n      id: int16")
        let errors = compile(text).diagnostics.filter { $0.severity == .error }
        XCTAssertEqual(errors.map { $0.location?.line }, [7, 8])
        XCTAssertTrue(errors.allSatisfy { $0.message.contains("defined twice") })
    }

    func testDuplicateKeyInsideAPropertyIsReported() {
        let text = Examples.minimal(properties: "id: { type: int, type: string }")
        assertSingleError(text, line: 6, column: 24, contains: ["key 'type' appears twice in property 'Item.id'"])
    }

    func testDuplicateTopLevelKeyIsReported() {
        let text = "schema: Shop\nversion: 1\nversion: 2\nmodels: {}\n"
        assertSingleError(text, line: 3, column: 1, contains: ["key 'version' appears twice at the top of the file"])
    }

    func testDuplicateEnumCaseIsReported() {
        let text = Examples.minimal(properties: "id: int\n      level: { enum: [low, high, low] }")
        assertSingleError(text, line: 7, column: 34, contains: ["enum case 'low' of 'Item.level' is listed twice"])
    }
}
