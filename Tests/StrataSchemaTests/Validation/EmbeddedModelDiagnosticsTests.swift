import StrataSchema
import StrataSchemaCompiler
import XCTest

/// `embedded: true`: loaded, fingerprinted only when set, diffed into a step, and refused with positions where
/// Realm refuses it (a primary key, no owner, a cycle of embedded links, linking objects from an embedded model, a
/// set of embedded objects).
final class EmbeddedModelDiagnosticsTests: SchemaTestCase {
    private func schema(_ models: String, version: Int = 1) -> String {
        "schema: Homes\nversion: \(version)\nmodels:\n" + models
    }

    private let homes = """
          Person:
            properties:
              name: string
              home: Address?
              pastHomes: [Address]
          Address:
            embedded: true
            properties:
              city: { type: string, indexed: true }
              geo: Geo?
              people: { linkingObjects: Person.home }
          Geo:
            embedded: true
            properties:
              lat: double

        """

    func testEmbeddedModelsLoadWithTheirFlag() throws {
        let history = try XCTUnwrap(compileWithoutErrors([("Homes.v1.strata.yaml", schema(homes))]))
        let models = history.current.models
        XCTAssertEqual(models.filter(\.isEmbedded).map(\.name), ["Address", "Geo"])
        XCTAssertTrue(history.current.canonicalText.contains("model \"Address\"\n primaryKey -\n renamedFrom -\n migrate -\n embedded\n"))
    }

    func testTheFingerprintOfASchemaWithoutEmbeddedModelsDoesNotChange() throws {
        let plain = schema("  Person:\n    properties:\n      name: string\n")
        let explicit = schema("  Person:\n    embedded: false\n    properties:\n      name: string\n")
        let first = try XCTUnwrap(compileWithoutErrors([("Homes.v1.strata.yaml", plain)]))
        let second = try XCTUnwrap(compileWithoutErrors([("Homes.v1.strata.yaml", explicit)]))
        XCTAssertEqual(first.current.fingerprint, second.current.fingerprint)
        XCTAssertFalse(first.current.canonicalText.contains("embedded"))
    }

    func testAPrimaryKeyOnAnEmbeddedModelIsRefusedAtTheKey() {
        assertSingleError(
            schema("  Person:\n    properties:\n      home: Address?\n  Address:\n    embedded: true\n"
                + "    primaryKey: city\n    properties:\n      city: string\n"),
            line: 9, column: 17, contains: ["embedded model 'Address' cannot have a primary key"])
    }

    func testAnEmbeddedModelNoOtherModelLinksToIsRefused() {
        assertSingleError(
            schema("  Person:\n    properties:\n      name: string\n  Address:\n    embedded: true\n"
                + "    properties:\n      city: string\n"),
            line: 8, column: 5, contains: ["embedded model 'Address' is not reached by any link", "home: Address?"])
    }

    func testASetOfAnEmbeddedModelIsRefusedAtTheProperty() {
        assertSingleError(
            schema("  Person:\n    properties:\n      homes: set<Address>\n      home: Address?\n"
                + "  Address:\n    embedded: true\n    properties:\n      city: string\n"),
            line: 6, column: 14, contains: ["'Person.homes' is a set of the embedded model 'Address'", "[Address]"])
    }

    func testACycleOfEmbeddedLinksIsRefused() {
        let compilation = compile(schema("""
              Person:
                properties:
                  part: A?
              A:
                embedded: true
                properties:
                  b: B?
              B:
                embedded: true
                properties:
                  a: A?

            """))
        let messages = compilation.diagnostics.map(\.message)
        XCTAssertTrue(messages.contains { $0.contains("embedded model 'A' owns itself through A.b → B.a") }, "\(messages)")
        XCTAssertTrue(compilation.histories.isEmpty)
    }

    func testLinkingObjectsFromAnEmbeddedModelsLinkAreRefused() {
        let compilation = compile(schema("""
              Person:
                properties:
                  home: Address?
              Address:
                embedded: true
                properties:
                  city: City?
              City:
                properties:
                  name: string
                  addresses: { linkingObjects: Address.city }

            """))
        let errors = compilation.diagnostics.filter { $0.severity == .error }
        XCTAssertEqual(errors.count, 1, "\(errors)")
        XCTAssertTrue(errors.first?.message.contains("a link of the embedded model 'Address'") == true, "\(errors)")
        XCTAssertEqual(errors.first?.location?.line, 14)
    }

    func testAnEmbeddedValueThatIsNotABooleanIsRefused() {
        assertSingleError(
            schema("  Person:\n    properties:\n      home: Address?\n  Address:\n    embedded: maybe\n"
                + "    properties:\n      city: string\n"),
            line: 8, column: 15, contains: ["'embedded' of model 'Address' must be true or false"])
    }

    func testBecomingOrStoppingBeingEmbeddedIsAStepOfThePlan() throws {
        let version1 = schema("  Person:\n    properties:\n      home: Address?\n  Address:\n    properties:\n"
            + "      city: string\n")
        let version2 = schema("  Person:\n    properties:\n      home: Address?\n  Address:\n    embedded: true\n"
            + "    properties:\n      city: string\n", version: 2)
        let history = try XCTUnwrap(compileWithoutErrors([
            ("Homes.v1.strata.yaml", version1), ("Homes.v2.strata.yaml", version2),
        ]))
        let plan = try XCTUnwrap(history.plans.first)
        XCTAssertEqual(plan.steps, [.changeEmbedded(model: "Address", embedded: true)])
        XCTAssertTrue(plan.summary.contains("make Address an embedded model"), plan.summary)
        XCTAssertTrue(MigrationStep.changeEmbedded(model: "Address", embedded: false).summary
            .contains("make Address a top-level model"))
    }
}
