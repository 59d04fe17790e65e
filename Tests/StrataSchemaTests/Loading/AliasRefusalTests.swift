import StrataSchema
import StrataSchemaCompiler
import XCTest

/// Aliases are refused before Yams sees them; text that only looks like one is left alone.
final class AliasRefusalTests: SchemaTestCase {
    func testAliasAsAValueIsRefusedAtItsPosition() {
        let text = Examples.minimal(properties: "id: &t int\n      other: *t")
        assertSingleError(text, line: 7, column: 14, contains: ["YAML aliases ('*t') are not supported"])
    }

    func testAliasAsAKeyIsRefused() {
        let text = "schema: Shop\nversion: 1\nmodels:\n  &m Item:\n    properties:\n      id: int\n  *m : x\n"
        assertSingleError(text, line: 7, column: 3, contains: ["YAML aliases ('*m')"])
    }

    func testAliasInAFlowListIsRefused() {
        let text = Examples.minimal(properties: "level: { enum: [a, *b] }")
        assertSingleError(text, line: 6, column: 26, contains: ["YAML aliases ('*b')"])
    }

    func testStarsInTextCommentsAndBlockScalarsAreNotAliases() throws {
        let text = """
            schema: Shop   # *not an alias
            version: 1
            models:
              Item:
                doc: |
                  *bold* text in a block scalar
                  *more
                properties:
                  id: { type: string, default: "*quoted*", doc: 'it''s *fine*' }
                  note: { type: string, default: a*b }
                  text:
                    type: string
                    doc: a, *b in block context

            """
        let version = try XCTUnwrap(loadVersion(text))
        XCTAssertEqual(version.models.first?.doc, "*bold* text in a block scalar\n*more\n")
        XCTAssertEqual(version.models.first?.properties.first?.defaultValue, .string("*quoted*"))
    }

    func testWindowsLineEndingsArePositionedLikeUnixOnes() {
        let text = Examples.minimal(properties: "id: int\n      other: *t").replacingOccurrences(of: "\n", with: "\r\n")
        assertSingleError(text, line: 7, column: 14, contains: ["YAML aliases ('*t')"])
    }
}

extension AliasRefusalTests {
    func testPlainTextWithStarsIsReadAsWritten() throws {
        let version = try XCTUnwrap(loadVersion(Examples.minimal(properties: "id: { type: string, default: a*b }")))
        XCTAssertEqual(version.models.first?.properties.first?.defaultValue, .string("a*b"))
    }
}
