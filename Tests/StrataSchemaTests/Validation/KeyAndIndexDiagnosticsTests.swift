import StrataSchema
import StrataSchemaCompiler
import XCTest

/// Primary keys, `indexed` and `indexes`.
final class KeyAndIndexDiagnosticsTests: SchemaTestCase {
    private func item(primaryKey: String? = nil, indexes: String? = nil, properties: String) -> String {
        var extra: [String] = []
        if let primaryKey { extra.append("    primaryKey: \(primaryKey)") }
        if let indexes { extra.append("    indexes: \(indexes)") }
        return Examples.minimal(properties: properties, extra: extra.joined(separator: "\n"))
    }

    func testDoublePrimaryKeyIsRefused() {
        assertSingleError(item(primaryKey: "price", properties: "price: double"), line: 5, column: 17,
            contains: ["primary key 'price' of model 'Item' has type 'double'", "use an int, string, uuid or objectId"])
    }

    func testEnumPrimaryKeyIsRefused() {
        assertSingleError(item(primaryKey: "kind", properties: "kind: { enum: [a, b] }"), line: 5, column: 17,
            contains: ["has type 'enum', which cannot be a primary key"])
    }

    func testOptionalPrimaryKeyIsRefused() {
        assertSingleError(item(primaryKey: "id", properties: "id: int?"), line: 5, column: 17,
            contains: ["primary key 'id' of model 'Item' is optional ('int?')", "write 'int'"])
    }

    func testPrimaryKeyNamingAMissingPropertySuggestsOne() {
        assertSingleError(item(primaryKey: "ide", properties: "id: int"), line: 5, column: 17,
            contains: ["primary key 'ide' of model 'Item' is not one of its properties", "did you mean 'id'?"])
    }

    func testTransientPrimaryKeyIsRefused() {
        assertSingleError(item(primaryKey: "id", properties: "id: { type: int, transient: true }"), line: 5,
            column: 17, contains: ["is transient"])
    }

    func testIntegerStringAndUUIDPrimaryKeysAreAccepted() {
        for type in ["int", "int8", "int16", "int32", "int64", "string", "uuid"] {
            XCTAssertNotNil(loadVersion(item(primaryKey: "id", properties: "id: \(type)")), type)
        }
    }

    func testIndexedDoubleIsRefused() {
        assertSingleError(item(properties: "price: { type: double, indexed: true }"), line: 6, column: 30,
            contains: ["property 'Item.price' of type 'double' cannot be indexed", "remove 'indexed'"])
    }

    func testFullTextOnAnIntIsRefused() {
        assertSingleError(item(properties: "notes: { type: int, fullText: true }"), line: 6, column: 27,
            contains: ["property 'Item.notes' of type 'int' cannot have a full-text index", "remove 'fullText'"])
    }

    func testFullTextOnATransientStringIsRefused() {
        assertSingleError(item(properties: "notes: { type: string, fullText: true, transient: true }"), line: 6,
            column: 30, contains: ["is transient", "full-text index"])
    }

    func testFullTextOnStringsIsAcceptedAndRecorded() throws {
        let properties = "a: { type: string, fullText: true }\n      b: { type: string?, fullText: true, indexed: true }"
        let version = try XCTUnwrap(loadVersion(item(properties: properties)))
        let definitions = try XCTUnwrap(version.models.first?.properties)
        XCTAssertEqual(definitions.map(\.isFullText), [true, true])
        XCTAssertEqual(definitions.map(\.isIndexed), [false, true])
    }

    func testIndexedListIsRefused() {
        assertSingleError(item(properties: "tags: { type: [string], indexed: true }"), line: 6, column: 31,
            contains: ["of type '[string]' cannot be indexed"])
    }

    func testIndexedOptionalStringIsAccepted() {
        XCTAssertNotNil(loadVersion(item(properties: "name: { type: string?, indexed: true }")))
    }

    func testCompoundIndexOnDataIsRefused() {
        assertSingleError(item(indexes: "[[id, blob]]", properties: "id: int\n      blob: data"), line: 5,
            column: 20, contains: ["index of model 'Item' names 'blob' of type 'data', which cannot be indexed"])
    }

    func testCompoundIndexNamingAMissingPropertySuggestsOne() {
        assertSingleError(item(indexes: "[[id, nme]]", properties: "id: int\n      name: string"), line: 5,
            column: 20, contains: ["names 'nme', which is not one of its properties", "did you mean 'name'?"])
    }

    func testFlatIndexListSaysEachIndexIsAList() {
        assertSingleError(item(indexes: "[id]", properties: "id: int"), line: 5, column: 15,
            contains: ["each entry of 'indexes' in model 'Item' is a list of property names", "'[id]'"])
    }

    func testTransientIndexedPropertyIsRefused() {
        assertSingleError(item(properties: "name: { type: string, transient: true, indexed: true }"), line: 6,
            column: 46, contains: ["is transient, so it is not stored and cannot be indexed"])
    }
}
