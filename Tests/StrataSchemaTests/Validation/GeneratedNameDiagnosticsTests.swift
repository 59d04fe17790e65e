import StrataSchema
import StrataSchemaCompiler
import XCTest

/// Names the generated code needs for itself, and characters Swift's lexer rejects, are refused at their position
/// with the reason and another name (issue #23 item 1); names that can be made to work are accepted.
final class GeneratedNameDiagnosticsTests: SchemaTestCase {
    func testPropertyNamedLikeAMemberOfObjectIsRefusedWithASuggestion() {
        assertSingleError(Examples.minimal(properties: "database: string"), line: 6, column: 7, contains: [
            "property 'Item.database' cannot have this name: the model classes already have a member 'database'",
            "for example 'databaseValue'",
        ])
    }

    func testKeywordsThatCannotNameAMemberAreRefused() {
        assertSingleError(Examples.minimal(properties: "self: bool"), line: 6, column: 7,
            contains: ["property 'Item.self' cannot have this name", "'selfValue'"])
        assertSingleError(Examples.minimal(properties: "init: bool"), line: 6, column: 7,
            contains: ["property 'Item.init' cannot have this name"])
    }

    func testPropertyNamedLikeATypeTheClassUsesIsRefused() {
        assertSingleError(Examples.minimal(properties: "Date: date"), line: 6, column: 7, contains: [
            "property 'Item.Date' cannot have this name: it is the name of a type the generated class uses",
            "for example 'date'",
        ])
    }

    func testPropertyNamedLikeAModelOrTheSchemaIsRefused() {
        assertSingleError(Examples.minimal(properties: "Item: int"), line: 6, column: 7,
            contains: ["it is the name of model 'Item'"])
        assertSingleError(Examples.minimal(properties: "Shop: int"), line: 6, column: 7,
            contains: ["it is the schema's name"])
    }

    func testModelNamedLikeAVersionNamespaceOrASchemaMemberIsRefused() {
        let text = { (name: String) in
            "schema: Shop\nversion: 1\nmodels:\n  \(name):\n    properties:\n      id: int\n"
        }
        assertSingleError(text("V1"), line: 4, column: 3,
            contains: ["model name 'V1' is the name of a version namespace", "'V1Model'"])
        assertSingleError(text("version"), line: 4, column: 3,
            contains: ["model name 'version' is a member of the generated schema type", "'VersionModel'"])
        assertSingleError(text("Element"), line: 4, column: 3,
            contains: ["model name 'Element' is the name of a type generated code uses"])
    }

    func testSchemaNamedLikeAMemberOfEveryModelClassIsRefused() {
        let text = { (name: String) in
            "schema: \(name)\nversion: 1\nmodels:\n  Item:\n    properties:\n      id: int\n"
        }
        assertSingleError(text("observe"), line: 1, column: 9, contains: [
            "schema name 'observe' is the name of a member of every model class", "'ObserveSchema'",
        ])
        assertSingleError(text("V2"), line: 1, column: 9, contains: ["is the name of a version namespace"])
    }

    func testCharactersSwiftRejectsAreRefusedEvenWhenUnicodeCallsThemLetters() {
        assertSingleError(Examples.minimal(properties: "aⸯb: int"), line: 6, column: 7,
            contains: ["property name 'aⸯb' is not a valid Swift identifier"])
        assertSingleError(Examples.minimal(properties: "\u{345}x: int"), line: 6, column: 7,
            contains: ["is not a valid Swift identifier"])
        XCTAssertNotNil(loadVersion(Examples.minimal(properties: "x\u{345}: int")))
        XCTAssertNotNil(loadVersion(Examples.minimal(properties: "名前: string")))
    }

    func testEnumPropertiesWhoseTypeWouldClashAreAcceptedWithASuffixedType() {
        let version = loadVersion(Examples.minimal(properties: "名前: { enum: [a, b] }\n      date: { enum: [c] }"))
        let model = version?.models.first
        let taken = model.flatMap { model in version.map { EnumNaming.takenNames(in: model, of: $0) } } ?? []
        XCTAssertEqual(EnumNaming.typeName(forProperty: "名前", taken: taken), "名前Kind")
        XCTAssertEqual(EnumNaming.typeName(forProperty: "date", taken: taken), "DateKind")
        XCTAssertEqual(EnumNaming.typeName(forProperty: "status", taken: taken), "Status")
    }

    func testTwoEnumPropertiesThatWouldShareASuffixedTypeAreRefused() {
        assertSingleError(Examples.minimal(properties: "date: { enum: [a] }\n      dateKind: { enum: [b] }"),
            line: 7, column: 7, contains: ["would both generate the nested type 'Item.DateKind'"])
    }
}
