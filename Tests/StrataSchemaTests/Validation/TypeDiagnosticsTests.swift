import StrataSchema
import StrataSchemaCompiler
import XCTest

/// Unknown types, links and linking objects.
final class TypeDiagnosticsTests: SchemaTestCase {
    private func twoModels(_ itemProperty: String, personProperty: String = "name: string") -> String {
        """
        schema: Shop
        version: 1
        models:
          Person:
            properties:
              \(personProperty)
          Item:
            properties:
              \(itemProperty)

        """
    }

    func testUnknownTypeSuggestsThePrimitive() {
        assertSingleError(Examples.minimal(properties: "id: int\n      name: strng"), line: 7, column: 13,
            contains: ["unknown type 'strng' for property 'Item.name'", "did you mean 'string'?"])
    }

    func testCapitalizedPrimitiveSuggestsTheLowerCaseName() {
        assertSingleError(Examples.minimal(properties: "id: int\n      name: String?"), line: 7, column: 13,
            contains: ["unknown type 'String?'", "did you mean 'string?'?"])
    }

    func testUnreadableTypeSpellingSaysHowToWriteTypes() {
        assertSingleError(Examples.minimal(properties: "id: int\n      name: string??"), line: 7, column: 13,
            contains: ["cannot read type 'string??'", "single '?'"])
    }

    func testOptionalListIsRefused() {
        assertSingleError(Examples.minimal(properties: "id: int\n      tags: \"[string]?\""), line: 7, column: 13,
            contains: ["a list is never nil", "'[string]'"])
    }

    func testListOfOptionalsIsRefused() {
        assertSingleError(Examples.minimal(properties: "id: int\n      tags: [string?]"), line: 7, column: 14,
            contains: ["list elements cannot be nil", "'[string]'"])
    }

    func testLinkToUnknownModelSuggestsTheModel() {
        assertSingleError(twoModels("owner: Persn?"), line: 9, column: 14,
            contains: ["unknown type 'Persn?' for property 'Item.owner'", "did you mean 'Person?'?"])
    }

    func testListOfUnknownModelSuggestsTheModel() {
        assertSingleError(twoModels("owners: [Persn]"), line: 9, column: 15,
            contains: ["unknown type '[Persn]'", "did you mean '[Person]'?"])
    }

    func testNonOptionalLinkSaysLinksAreAlwaysOptional() {
        assertSingleError(twoModels("owner: Person"), line: 9, column: 14,
            contains: ["a link to a model is always optional: write 'Person?'"])
    }

    func testLinkingObjectsNamingAMissingPropertySuggestsOne() {
        assertSingleError(twoModels("owners: { linkingObjects: Person.itms }", personProperty: "items: [Item]"),
            line: 9, column: 33, contains: ["model 'Person' has no property 'itms'", "did you mean 'items'?"])
    }

    func testLinkingObjectsNamingANonLinkIsRefused() {
        assertSingleError(twoModels("owners: { linkingObjects: Person.name }"), line: 9, column: 33,
            contains: ["'Person.name', which is 'string'", "not a stored link ('Item?') or list ('[Item]')"])
    }

    func testLinkingObjectsNamingALinkToAnotherModelIsRefused() {
        assertSingleError(twoModels("owners: { linkingObjects: Person.friend }", personProperty: "friend: Person?"),
            line: 9, column: 33, contains: ["'Person.friend', which is 'Person?'", "to model 'Item'"])
    }

    func testLinkingObjectsNamingAnUnknownModelSuggestsOne() {
        assertSingleError(twoModels("owners: { linkingObjects: Persons.items }", personProperty: "items: [Item]"),
            line: 9, column: 33, contains: ["names model 'Persons'", "did you mean 'Person'?"])
    }

    func testLinkingObjectsWrittenWithoutADotIsRefused() {
        assertSingleError(twoModels("owners: { linkingObjects: Person }"), line: 9, column: 33,
            contains: ["must be written 'Model.property'"])
    }

    func testLinkingObjectsThroughAnAmbiguousModelIsRefused() {
        let text = """
            schema: Shop
            version: 1
            models:
              Person:
                properties:
                  loans: [Loan]
              Loan:
                properties:
                  book: Book?
                  previousBook: Book?
              Book:
                properties:
                  borrowers: { linkingObjects: Person.loans }

            """
        assertSingleError(text, line: 13, column: 36, contains: ["ambiguous", "'book', 'previousBook'"])
    }

    func testPropertyWithoutTypeIsRefused() {
        assertSingleError(Examples.minimal(properties: "id: { indexed: true }"), line: 6, column: 7,
            contains: ["property 'Item.id' has no type"])
    }

    func testShorthandPropertyWithoutTypeIsRefused() {
        assertSingleError(Examples.minimal(properties: "id: int\n      name:"), line: 7, column: 7,
            contains: ["property 'Item.name' has no type", "'name: string'"])
    }

    func testPropertyWithTwoTypesIsRefused() {
        assertSingleError(Examples.minimal(properties: "id: { type: int, enum: [a] }"), line: 6, column: 24,
            contains: ["has both 'type' and 'enum'"])
    }

    func testOptionalKeyOutsideAnEnumIsRefused() {
        assertSingleError(Examples.minimal(properties: "id: { type: int, optional: true }"), line: 6, column: 24,
            contains: ["'optional' is only for enum properties", "'type: string?'"])
    }

    func testEnumWithoutCasesIsRefused() {
        assertSingleError(Examples.minimal(properties: "level: { enum: [] }"), line: 6, column: 22,
            contains: ["must list its cases"])
    }
}
