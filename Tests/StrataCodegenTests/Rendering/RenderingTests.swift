import StrataSchema
import StrataSchemaCompiler
import XCTest
@testable import StrataCodegen

/// The small pieces every emitter relies on: literals, names, the writer.
final class RenderingTests: XCTestCase {
    func testStringLiteralEscapesQuotesBackslashesAndControlCharacters() {
        XCTAssertEqual(SwiftLiteral.string("say \"hi\"\\\n\t\u{1}é"), #""say \"hi\"\\\n\t\u{1}é""#)
    }

    func testFloatingPointLiteralsSpellInfinityAndNaNAsSwiftExpressions() {
        XCTAssertEqual(SwiftLiteral.floatingPoint(1.5), "1.5")
        XCTAssertEqual(SwiftLiteral.floatingPoint(-.infinity), "-.infinity")
        XCTAssertEqual(SwiftLiteral.floatingPoint(.nan), ".nan")
    }

    func testDateDefaultsAcceptTimestampsAndPlainDates() {
        XCTAssertEqual(SwiftLiteral.date("2024-05-01"), "Date(timeIntervalSince1970: 1714521600.0)")
        XCTAssertEqual(SwiftLiteral.date("2024-05-01T00:00:01Z"), "Date(timeIntervalSince1970: 1714521601.0)")
        XCTAssertNil(SwiftLiteral.date("next tuesday"))
    }

    func testUUIDDefaultsAreSpelledByTheirBytes() {
        XCTAssertEqual(SwiftLiteral.uuid("00000000-0000-0000-0000-0000000000FF"),
                       "UUID(uuid: (0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, "
                        + "0x00, 0x00, 0xFF))")
        XCTAssertNil(SwiftLiteral.uuid("not-a-uuid"))
    }

    func testKeywordsAreEscapedInDeclarationsButNotAsArgumentLabels() {
        XCTAssertEqual(SwiftIdentifier.escaped("default"), "`default`")
        XCTAssertEqual(SwiftIdentifier.escaped("title"), "title")
        XCTAssertEqual(SwiftIdentifier.label("default"), "default")
        XCTAssertEqual(SwiftIdentifier.label("inout"), "`inout`")
    }

    func testUniquenessRulesAreDocumentedOnTheirProperties() {
        let at = SourceLocation(path: "M.strata.yaml", line: 1, column: 1)
        let model = ModelDefinition(name: "Member", primaryKey: "id", properties: [
            PropertyDefinition(name: "id", type: .integer(.int64), isUnique: true, location: at),
            PropertyDefinition(name: "email", type: .string, isUnique: true, doc: "Where mail goes.", location: at),
            PropertyDefinition(name: "city", type: .string, location: at),
            PropertyDefinition(name: "badge", type: .integer(.int64), location: at),
            PropertyDefinition(name: "note", type: .string, location: at),
        ], uniqueGroups: [["city", "badge"]], location: at)
        let doc = { ModelClassEmitter.documentation(of: model.property(named: $0)!, in: model) }
        XCTAssertEqual(doc("email"), "Where mail goes.\n\nUnique: no two `Member` objects hold equal values here "
            + "(nil never collides); a write that would fails and keeps nothing.")
        XCTAssertEqual(doc("city")?.hasPrefix("Unique together with `badge`: no two `Member` objects"), true)
        XCTAssertEqual(doc("badge")?.hasPrefix("Unique together with `city`:"), true)
        XCTAssertNil(doc("id"), "the primary key is unique without saying so")
        XCTAssertNil(doc("note"))
    }

    func testDocCommentsWrapAtWordsWithinTheLineWidth() {
        var writer = SwiftWriter()
        writer.doc(String(repeating: "word ", count: 40) + "\n\nsecond paragraph")
        let lines = writer.text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        XCTAssertGreaterThan(lines.count, 3)
        XCTAssertTrue(lines.allSatisfy { $0.hasPrefix("///") && $0.count <= SwiftWriter.width }, writer.text)
        XCTAssertTrue(lines.contains("///"))
        XCTAssertEqual(lines.last, "/// second paragraph")
    }

    func testCallsThatDoNotFitTakeOneArgumentPerLine() {
        var writer = SwiftWriter()
        writer.call("short", ["a: 1", "b: 2"])
        let argument = String(repeating: "x", count: 50)
        writer.call("long", [argument, argument, argument], tail: ",")
        XCTAssertEqual(
            writer.text,
            "short(a: 1, b: 2)\nlong(\n    \(argument),\n    \(argument),\n    \(argument)\n),\n"
        )
    }

    func testEnumTypeNamedLikeAModelGetsASuffix() {
        let location = SourceLocation(path: "S.strata.yaml", line: 1, column: 1)
        let property = PropertyDefinition(name: "book", type: .enumeration(["paper", "ebook"]), location: location)
        let model = ModelDefinition(name: "Loan", properties: [property], location: location)
        let clashing = GeneratedProperty(property, column: 0, in: model, takenEnumNames: ["Book", "Loan"])
        XCTAssertEqual(clashing.enumTypeName, "BookKind")
        let free = GeneratedProperty(property, column: 0, in: model, takenEnumNames: ["Loan"])
        XCTAssertEqual(free.enumTypeName, "Book")
    }

    func testEnumTypeNamedLikeATypeTheClassUsesOrLikeItsPropertyGetsASuffix() {
        let location = SourceLocation(path: "S.strata.yaml", line: 1, column: 1)
        let names = ["date", "名前", "_1", "status"]
        let properties = names.map { PropertyDefinition(name: $0, type: .enumeration(["a"]), location: location) }
        let model = ModelDefinition(name: "Loan", properties: properties, location: location)
        let version = SchemaVersion(schemaName: "Shop", version: 1, models: [model], location: location)
        XCTAssertEqual(
            GeneratedProperty.translate(model, schemaTakenNames: EnumNaming.schemaTakenNames(of: version))
                .map(\.enumTypeName),
            ["DateKind", "名前Kind", "_1Kind", "Status"])
    }

    func testEveryLineSeparatorInADocStartsANewCommentLine() {
        var writer = SwiftWriter()
        writer.doc("a\rb\r\nc\u{2028}d\u{2029}e\u{85}f\u{0B}g\u{0C}h")
        XCTAssertEqual(writer.text, ["a", "b", "c", "d", "e", "f", "g", "h"].map { "/// \($0)\n" }.joined())
    }

    func testNarrowIntegersClampWhenReadFromTheStore() {
        XCTAssertEqual(
            AccessorCall.read(.integer(.int8), from: "accessor", at: 3, enumName: nil, fallback: ""),
            "Int8(clamping: accessor.int(at: 3))"
        )
        XCTAssertEqual(
            AccessorCall.write(.optional(.integer(.int16)), to: "accessor", at: 3),
            "accessor.setOptionalInt(newValue.map { Int64($0) }, at: 3)"
        )
    }
}
