import StrataSchema
import StrataSchemaCompiler
import XCTest

/// `unique: true` on a property and `unique: [[a, b]]` on a model: what is accepted, what is refused and where.
final class UniquenessDiagnosticsTests: SchemaTestCase {
    private func item(unique: String? = nil, properties: String) -> String {
        Examples.minimal(properties: properties, extra: unique.map { "    unique: \($0)" } ?? "")
    }

    func testUniquePropertiesAndGroupsAreRead() throws {
        let version = try XCTUnwrap(loadVersion(item(unique: "[[a, b]]",
            properties: "id: int\n      email: { type: string?, unique: true }\n      a: string\n      b: int")))
        let model = try XCTUnwrap(version.models.first)
        XCTAssertEqual(model.property(named: "email")?.isUnique, true)
        XCTAssertEqual(model.property(named: "a")?.isUnique, false)
        XCTAssertEqual(model.uniqueGroups, [["a", "b"]])
        XCTAssertEqual(model.uniquenessRules, [["email"], ["a", "b"]])
    }

    func testUniqueDoubleIsRefused() {
        assertSingleError(item(properties: "price: { type: double, unique: true }"), line: 6, column: 30,
            contains: ["property 'Item.price' of type 'double' cannot be unique", "remove 'unique'"])
    }

    func testUniqueListIsRefused() {
        assertSingleError(item(properties: "tags: { type: [string], unique: true }"), line: 6, column: 31,
            contains: ["of type '[string]' cannot be unique", "not lists, sets, maps or links"])
    }

    func testUniqueTransientIsRefused() {
        assertSingleError(item(properties: "name: { type: string, transient: true, unique: true }"), line: 6,
            column: 46, contains: ["is transient, so it is not stored and cannot be unique"])
    }

    func testUniqueGroupOnDataIsRefused() {
        assertSingleError(item(unique: "[[id, blob]]", properties: "id: int\n      blob: data"), line: 5,
            column: 19, contains: ["uniqueness rule of model 'Item' names 'blob' of type 'data'"])
    }

    func testUniqueGroupNamingAMissingPropertySuggestsOne() {
        assertSingleError(item(unique: "[[id, nme]]", properties: "id: int\n      name: string"), line: 5,
            column: 19, contains: ["names 'nme', which is not one of its properties", "did you mean 'name'?"])
    }

    func testFlatUniqueListSaysEachRuleIsAList() {
        assertSingleError(item(unique: "[id]", properties: "id: int"), line: 5, column: 14,
            contains: ["each entry of 'unique' in model 'Item' is a list of property names", "'unique: true'"])
    }

    func testUniqueFlagMustBeABool() {
        assertSingleError(item(properties: "name: { type: string, unique: yes please }"), line: 6, column: 37,
            contains: ["'unique' of property 'Item.name' must be true or false"])
    }
}
