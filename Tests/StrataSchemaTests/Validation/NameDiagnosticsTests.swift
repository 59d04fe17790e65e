import StrataSchema
import StrataSchemaCompiler
import XCTest

/// Names must be Swift identifiers of at most 255 UTF-8 bytes, and must not hide types generated code uses.
final class NameDiagnosticsTests: SchemaTestCase {
    func testPropertyNameThatIsNotAnIdentifierSuggestsOne() {
        assertSingleError(Examples.minimal(properties: "first-name: string"), line: 6, column: 7,
            contains: ["model 'Item': property name 'first-name' is not a valid Swift identifier", "'firstName'"])
    }

    func testModelNameStartingWithADigitIsRefused() {
        let text = "schema: Shop\nversion: 1\nmodels:\n  2Item:\n    properties:\n      id: int\n"
        assertSingleError(text, line: 4, column: 3, contains: ["model name '2Item' is not a valid Swift identifier"])
    }

    func testSchemaNameThatIsNotAnIdentifierIsRefused() {
        assertSingleError("schema: my shop\nversion: 1\nmodels: {}\n", line: 1, column: 9,
            contains: ["schema name 'my shop' is not a valid Swift identifier", "'myShop'"])
    }

    func testEnumCaseThatIsNotAnIdentifierIsRefused() {
        assertSingleError(Examples.minimal(properties: "level: { enum: [low, very-high] }"), line: 6, column: 28,
            contains: ["property 'Item.level': enum case name 'very-high' is not a valid Swift identifier"])
    }

    func testNameOf256BytesIsRefusedAnd255Accepted() {
        let long = String(repeating: "a", count: 256)
        assertSingleError(Examples.minimal(properties: "\(long): int"), line: 6, column: 7,
            contains: ["is 256 UTF-8 bytes long", "at most 255 bytes"])
        XCTAssertNotNil(loadVersion(Examples.minimal(properties: "\(String(repeating: "a", count: 255)): int")))
    }

    func testMultiByteNameIsMeasuredInUTF8Bytes() {
        let name = String(repeating: "é", count: 128)  // 256 bytes, 128 characters
        assertSingleError(Examples.minimal(properties: "\(name): int"), line: 6, column: 7,
            contains: ["256 UTF-8 bytes"])
    }

    func testModelNamedLikeAFoundationTypeIsRefused() {
        let text = "schema: Shop\nversion: 1\nmodels:\n  Date:\n    properties:\n      id: int\n"
        assertSingleError(text, line: 4, column: 3,
            contains: ["model name 'Date' is the name of a type generated code uses", "'DateModel'"])
    }

    func testModelNamedLikeItsSchemaIsRefused() {
        let text = "schema: Item\nversion: 1\nmodels:\n  Item:\n    properties:\n      id: int\n"
        assertSingleError(text, line: 4, column: 3,
            contains: ["schema 'Item' has a model of the same name", "Swift type 'Item'"])
    }

    func testLowerCaseModelNameIsOnlyAWarning() throws {
        let text = "schema: Shop\nversion: 1\nmodels:\n  item:\n    properties:\n      id: int\n"
        let compilation = compile(text)
        XCTAssertFalse(compilation.hasErrors)
        XCTAssertEqual(compilation.diagnostics.map(\.description),
            ["Test.strata.yaml:4:3: warning: model name 'item' should start with an upper-case letter, "
                + "as Swift type names do"])
    }

    func testTwoEnumsGeneratingTheSameNestedTypeAreRefused() {
        let text = Examples.minimal(properties: "status: { enum: [a] }\n      Status: { enum: [b] }")
        let errors = compile(text).diagnostics.filter { $0.severity == .error }
        XCTAssertEqual(errors.count, 1, "\(errors)")
        XCTAssertEqual(errors.first?.location?.line, 7)
        XCTAssertTrue(errors.contains { $0.message.contains("would both generate the nested type 'Item.StatusKind'") })
    }
}
