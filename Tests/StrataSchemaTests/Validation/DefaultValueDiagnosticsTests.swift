import StrataSchema
import StrataSchemaCompiler
import XCTest

/// Defaults of the wrong type, out of range, or `auto` where it means nothing.
final class DefaultValueDiagnosticsTests: SchemaTestCase {
    private func property(_ text: String, primaryKey: String? = nil) -> String {
        Examples.minimal(properties: text, extra: primaryKey.map { "    primaryKey: \($0)" } ?? "")
    }

    func testTextDefaultOfAnIntegerIsRefused() {
        assertSingleError(property("count: { type: int, default: \"x\" }"), line: 6, column: 36,
            contains: ["default of property 'Item.count' is wrong",
                "the property is 'int', but the default is the text 'x'"])
    }

    func testNumberDefaultOfAStringSaysToQuoteIt() {
        assertSingleError(property("name: { type: string, default: 42 }"), line: 6, column: 38,
            contains: ["the property is a string, but the default is the integer 42", "\"42\""])
    }

    func testEnumDefaultNotAmongItsCasesSuggestsOne() {
        assertSingleError(property("level: { enum: [low, high], default: hgh }"), line: 6, column: 44,
            contains: ["'hgh' is not a case of the enum (low, high)", "did you mean 'high'?"])
    }

    func testAutoOnAStringMeansNothing() {
        assertSingleError(property("name: { type: string, default: auto }"), line: 6, column: 38,
            contains: ["'auto'", "means nothing for 'string'", "\"auto\" in quotes"])
    }

    func testQuotedAutoOnAStringIsTheText() throws {
        let version = try XCTUnwrap(loadVersion(property("name: { type: string, default: \"auto\" }")))
        XCTAssertEqual(version.models.first?.properties.first?.defaultValue, .string("auto"))
    }

    func testAutoOnAnIntegerThatIsNotThePrimaryKeyIsRefused() {
        assertSingleError(property("count: { type: int, default: auto }"), line: 6, column: 36,
            contains: ["applies only to the model's int primary key"])
    }

    func testAutoOnAnIntegerPrimaryKeyIsAccepted() {
        XCTAssertNotNil(loadVersion(property("id: { type: int, default: auto }", primaryKey: "id")))
    }

    func testAutoOnABoolIsRefused() {
        assertSingleError(property("flag: { type: bool, default: auto }"), line: 6, column: 36,
            contains: ["means nothing for 'bool'"])
    }

    func testOutOfRangeInt8DefaultIsRefused() {
        assertSingleError(property("small: { type: int8, default: 300 }"), line: 6, column: 37,
            contains: ["300 does not fit in 'int8' (-128 to 127)"])
    }

    func testIntegerTooLargeForSixtyFourBitsIsRefused() {
        assertSingleError(property("big: { type: int, default: 99999999999999999999 }"), line: 6, column: 34,
            contains: ["is not an integer that fits in 64 bits"])
    }

    func testNullDefaultOfANonOptionalIsRefused() {
        assertSingleError(property("name: { type: string, default: null }"), line: 6, column: 38,
            contains: ["not optional, so its default cannot be null", "'string?'"])
    }

    func testMalformedDateDefaultIsRefused() {
        assertSingleError(property("since: { type: date, default: 2024-02-30 }"), line: 6, column: 37,
            contains: ["'2024-02-30' is not a date", "ISO 8601"])
    }

    func testMalformedUUIDDefaultIsRefused() {
        assertSingleError(property("key: { type: uuid, default: not-a-uuid }"), line: 6, column: 35,
            contains: ["'not-a-uuid' is not a UUID"])
    }

    func testDefaultOnAListIsRefused() {
        assertSingleError(property("tags: { type: [string], default: x }"), line: 6, column: 40,
            contains: ["a list starts empty and has no default"])
    }

    func testListAsADefaultIsRefused() {
        assertSingleError(property("name: { type: string, default: [a] }"), line: 6, column: 38,
            contains: ["a default is a single value"])
    }

    func testFloatDefaultOfAnIntegerIsRefused() {
        assertSingleError(property("count: { type: int32, default: 1.5 }"), line: 6, column: 38,
            contains: ["the property is 'int32', but the default is the number 1.5"])
    }
}
