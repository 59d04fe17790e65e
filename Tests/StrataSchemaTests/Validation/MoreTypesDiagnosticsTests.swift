import StrataSchema
import StrataSchemaCompiler
import XCTest

/// The `decimal`, `objectId` and `any` types: spellings, defaults, indexes and primary keys.
final class MoreTypesDiagnosticsTests: SchemaTestCase {
    private func property(_ text: String, primaryKey: String? = nil) -> String {
        Examples.minimal(properties: text, extra: primaryKey.map { "    primaryKey: \($0)" } ?? "")
    }

    private func type(of text: String) throws -> PropertyType? {
        try XCTUnwrap(loadVersion(property(text))).models.first?.properties.first?.type
    }

    func testTheNewTypesAndTheirOptionalsAndListsAreRead() throws {
        XCTAssertEqual(try type(of: "amount: decimal"), .decimal)
        XCTAssertEqual(try type(of: "amount: decimal?"), .optional(.decimal))
        XCTAssertEqual(try type(of: "ref: objectId?"), .optional(.objectId))
        XCTAssertEqual(try type(of: "ids: \"[objectId]\""), .list(.objectId))
        XCTAssertEqual(try type(of: "value: any"), .any)
        XCTAssertEqual(try type(of: "value: any?"), .any, "any holds null itself: any? is any")
        XCTAssertEqual(try type(of: "values: \"[any?]\""), .list(.any))
        XCTAssertEqual(try type(of: "extras: map<any?>"), .map(.any), "map<any?> is map<any>, as any? is any")
        XCTAssertEqual(try type(of: "charms: set<any?>"), .set(.any))
        XCTAssertEqual(try type(of: "coins: set<decimal>"), .set(.decimal))
        XCTAssertEqual(try type(of: "stamps: map<objectId?>"), .map(.optional(.objectId)))
        XCTAssertEqual(PropertyType.any.schemaSpelling, "any")
        XCTAssertTrue(PropertyType.any.isNullable)
    }

    func testDecimalDefaultsAreKeptAsExactText() throws {
        XCTAssertEqual(loadVersion(property("a: { type: decimal, default: 0 }"))?.models.first?.properties.first?.defaultValue,
                       .string("0"))
        XCTAssertEqual(loadVersion(property("a: { type: decimal, default: \"10.250\" }"))?.models.first?.properties.first?.defaultValue,
                       .string("10.250"))
        XCTAssertEqual(loadVersion(property("a: { type: decimal, default: 1.5 }"))?.models.first?.properties.first?.defaultValue,
                       .string("1.5"))
        assertSingleError(property("a: { type: decimal, default: \"ten\" }"), line: 6, column: 36,
            contains: ["'ten' is not a decimal number"])
    }

    func testObjectIdDefaultsAreAutoOrHex() throws {
        XCTAssertEqual(loadVersion(property("id: { type: objectId, default: auto }"))?.models.first?.properties.first?.defaultValue,
                       .auto)
        XCTAssertEqual(loadVersion(property("id: { type: objectId, default: \"507F1F77BCF86CD799439011\" }"))?
            .models.first?.properties.first?.defaultValue, .string("507f1f77bcf86cd799439011"))
        assertSingleError(property("id: { type: objectId, default: \"12\" }"), line: 6, column: 38,
            contains: ["'12' is not an ObjectId", "'auto' for a new one"])
    }

    func testAnyTakesNoDefaultButNull() throws {
        XCTAssertNotNil(loadVersion(property("value: { type: any, default: null }")))
        assertSingleError(property("value: { type: any, default: 3 }"), line: 6, column: 36,
            contains: ["an any property starts as null"])
    }

    func testAllThreeAreIndexableAndObjectIdIsAPrimaryKey() throws {
        XCTAssertNotNil(loadVersion(property("""
            a: { type: decimal, indexed: true }
                  b: { type: objectId, indexed: true }
                  c: { type: any, indexed: true }
            """)))
        XCTAssertNotNil(loadVersion(property("id: objectId", primaryKey: "id")))
        assertSingleError(property("id: decimal", primaryKey: "id"), line: 5, column: 17,
            contains: ["cannot be a primary key: use an int, string, uuid or objectId property"])
    }
}
