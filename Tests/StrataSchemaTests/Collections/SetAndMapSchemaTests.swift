import StrataSchema
import StrataSchemaCompiler
import XCTest

/// `set<T>` and `map<T>` in schema files: what is read, what is refused (with its position), and the migration steps
/// they take.
final class SetAndMapSchemaTests: SchemaTestCase {
    private func twoModels(_ itemProperty: String) -> String {
        """
        schema: Shop
        version: 1
        models:
          Person:
            properties:
              name: string
          Item:
            properties:
              \(itemProperty)

        """
    }

    func testEverySpellingIsRead() throws {
        let version = try XCTUnwrap(loadVersion(twoModels("""
            tags: set<string>
                  ratings: set<double?>
                  owners: set<Person>
                  scores: map<int>
                  notes: "map<string?>"
                  holders: map<Person?>
                  spaced: set< int >
            """)))
        let item = try XCTUnwrap(version.model(named: "Item"))
        XCTAssertEqual(item.properties.map(\.type), [
            .set(.string), .set(.optional(.double)), .set(.link("Person")), .map(.integer(.int)),
            .map(.optional(.string)), .map(.optional(.link("Person"))), .set(.integer(.int)),
        ])
        XCTAssertEqual(item.properties.map(\.type.schemaSpelling), [
            "set<string>", "set<double?>", "set<Person>", "map<int>", "map<string?>", "map<Person?>", "set<int>",
        ])
    }

    func testOptionalSetsAndMapsAreRefused() {
        assertSingleError(Examples.minimal(properties: "id: int\n      tags: set<string>?"), line: 7, column: 13,
            contains: ["a set is never nil", "'set<string>'"])
        assertSingleError(Examples.minimal(properties: "id: int\n      tags: map<int>?"), line: 7, column: 13,
            contains: ["a map is never nil", "'map<int>'"])
    }

    func testCollectionsOfCollectionsAreRefused() {
        assertSingleError(Examples.minimal(properties: "id: int\n      tags: set<[int]>"), line: 7, column: 13,
            contains: ["sets of lists, sets or maps are not supported"])
        assertSingleError(Examples.minimal(properties: "id: int\n      tags: map<set<int>>"), line: 7, column: 13,
            contains: ["maps of lists, sets or maps are not supported"])
        assertSingleError(Examples.minimal(properties: "id: int\n      tags: \"[set<int>]\""), line: 7, column: 13,
            contains: ["lists of lists, sets or maps are not supported"])
        assertSingleError(Examples.minimal(properties: "id: int\n      tags: set<int"), line: 7, column: 13,
            contains: ["cannot read type 'set<int'", "'set<string>'"])
    }

    func testObjectElementsNeedTheRightOptionality() {
        assertSingleError(twoModels("owners: set<Person?>"), line: 9, column: 15,
            contains: ["a set of objects never holds nil", "'set<Person>'"])
        assertSingleError(twoModels("holders: map<Person>"), line: 9, column: 16,
            contains: ["they are optional", "'map<Person?>'"])
        assertSingleError(twoModels("owners: set<Persn>"), line: 9, column: 15,
            contains: ["unknown type 'set<Persn>'", "did you mean 'set<Person>'?"])
        assertSingleError(twoModels("holders: map<Persn?>"), line: 9, column: 16,
            contains: ["unknown type 'map<Persn?>'", "did you mean 'map<Person?>'?"])
    }

    func testIndexesPrimaryKeysAndDefaultsAreRefused() {
        // A set of indexable values may be indexed by element (docs/SCHEMA.md, "Indexed sets"); not uniquely, not
        // in a compound index, and not a set of doubles.
        let indexed = compile(
            Examples.minimal(properties: "id: int\n      tags: { type: set<string?>, indexed: true }"))
        XCTAssertTrue(indexed.diagnostics.filter { $0.severity == .error }.isEmpty, indexed.diagnostics.description)
        assertSingleError(Examples.minimal(properties: "id: int\n      tags: { type: set<double>, indexed: true }"),
            line: 7, column: 34, contains: ["set<double>", "cannot be indexed"])
        assertSingleError(Examples.minimal(properties: "id: int\n      tags: { type: map<string>, indexed: true }"),
            line: 7, column: 34, contains: ["map<string>", "cannot be indexed"])
        assertSingleError(Examples.minimal(properties: "id: int\n      tags: { type: set<string>, unique: true }"),
            line: 7, column: 34, contains: ["set<string>", "cannot be unique"])
        assertSingleError(Examples.minimal(properties: "id: int\n      tags: { type: map<int>, default: 1 }"),
            line: 7, column: 40, contains: ["a map starts empty and has no default"])
        let key = compile(Examples.minimal(properties: "tags: set<string>", extra: "    primaryKey: tags"))
        XCTAssertEqual(key.diagnostics.filter { $0.severity == .error }.count, 1, key.diagnostics.description)
    }

    func testLinkingObjectsThroughSetsAndMaps() throws {
        let version = try XCTUnwrap(loadVersion("""
            schema: Shop
            version: 1
            models:
              Person:
                properties:
                  name: string
                  shelf: set<Item>
                  picks: map<Item?>
              Item:
                properties:
                  name: string
                  shelvedBy: { linkingObjects: Person.shelf }
                  pickedBy: { linkingObjects: Person.picks }

            """))
        let item = try XCTUnwrap(version.model(named: "Item"))
        XCTAssertEqual(version.linkingObjectsKeyPath(of: item.properties[1], in: "Item"), ["shelf"])
        XCTAssertEqual(version.linkingObjectsKeyPath(of: item.properties[2], in: "Item"), ["picks"])
    }

    func testMigrationStepsForSetsAndMaps() throws {
        let first = Examples.shop(1, Examples.item(["id: int", "tags: [string]", "ranks: [int8]", "old: set<int>"]))
        let second = Examples.shop(2, Examples.item(["id: int", "tags: set<string>", "ranks: set<int>",
            "scores: map<int>"], extra: ["removed: [old]"]))
        let history = try XCTUnwrap(compileWithoutErrors([("Shop.v1.strata.yaml", first), ("Shop.v2.strata.yaml", second)]))
        let plan = try XCTUnwrap(history.plans.first)
        XCTAssertEqual(Set(plan.steps), [
            .removeProperty(model: "Item", property: "old"),
            .addProperty(model: "Item", property: "scores", type: .map(.integer(.int)), defaultValue: nil),
            .convertProperty(model: "Item", property: "tags", from: .list(.string), to: .set(.string)),
            .convertProperty(model: "Item", property: "ranks", from: .list(.integer(.int8)), to: .set(.integer(.int))),
        ])
        XCTAssertTrue(plan.summary.contains(
            "convert property Item.tags from [string] to set<string> (duplicate elements are dropped)"), plan.summary)
        XCTAssertTrue(plan.summary.contains("add property Item.scores (map<int>), starting empty"), plan.summary)
    }

    func testASetBecomingAListNeedsCustomCode() {
        let first = Examples.shop(1, Examples.item(["id: int", "tags: set<string>"]))
        let second = Examples.shop(2, Examples.item(["id: int", "tags: [string]"]))
        let compilation = compile([("Shop.v1.strata.yaml", first), ("Shop.v2.strata.yaml", second)])
        XCTAssertTrue(compilation.diagnostics.contains { $0.message.contains("Strata cannot convert by itself") },
                      compilation.diagnostics.description)
    }

    func testFingerprintsTellSetsMapsAndListsApart() throws {
        let list = try XCTUnwrap(loadVersion(Examples.minimal(properties: "id: int\n      tags: [string]")))
        let set = try XCTUnwrap(loadVersion(Examples.minimal(properties: "id: int\n      tags: set<string>")))
        let map = try XCTUnwrap(loadVersion(Examples.minimal(properties: "id: int\n      tags: map<string>")))
        XCTAssertEqual(Set([list.fingerprint, set.fingerprint, map.fingerprint]).count, 3)
    }
}
