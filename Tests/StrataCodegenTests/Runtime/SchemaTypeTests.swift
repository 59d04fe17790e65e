import Foundation
import StrataSchema
import XCTest
@_spi(StrataGenerated) import Strata

/// The generated schema type carries the full history, so the runtime needs no YAML.
final class SchemaTypeTests: XCTestCase {
    /// `history` with every location's path reduced to its file name, as the generated code records it.
    private func withFileNames(_ history: SchemaHistory) -> SchemaHistory {
        func file(_ location: SourceLocation) -> SourceLocation {
            var location = location
            location.path = URL(fileURLWithPath: location.path).lastPathComponent
            return location
        }
        var history = history
        history.versions = history.versions.map { version in
            var version = version
            version.location = file(version.location)
            version.models = version.models.map { model in
                var model = model
                model.location = file(model.location)
                model.properties = model.properties.map { property in
                    var property = property
                    property.location = file(property.location)
                    return property
                }
                return model
            }
            return version
        }
        return history
    }

    func testGeneratedHistoryEqualsTheCompiledOne() {
        XCTAssertEqual(Bookshop.history, withFileNames(FixtureSchemas.bookshop))
        XCTAssertEqual(Notebook.history, withFileNames(FixtureSchemas.notebook))
        XCTAssertEqual(Bookshop.name, "Bookshop")
        XCTAssertEqual(Bookshop.version, 3)
    }

    func testEveryVersionHasItsFingerprint() {
        let compiled = FixtureSchemas.bookshop.versions
        XCTAssertEqual(Bookshop.fingerprints, Dictionary(uniqueKeysWithValues: compiled.map { ($0.version, $0.fingerprint) }))
        XCTAssertEqual(Set(Bookshop.fingerprints.values).count, 3, "each version has its own fingerprint")
    }

    /// The generated `fingerprint(ofVersion:)` (a `switch`, what an open asks) answers what `fingerprints` holds,
    /// and `nil` for a version the history does not have.
    func testFingerprintOfVersionAnswersWhatTheDictionaryHolds() {
        for version in 1...3 {
            XCTAssertEqual(Bookshop.fingerprint(ofVersion: version), Bookshop.fingerprints[version], "v\(version)")
        }
        XCTAssertNotNil(Bookshop.fingerprint(ofVersion: 2))
        XCTAssertNil(Bookshop.fingerprint(ofVersion: 0))
        XCTAssertNil(Bookshop.fingerprint(ofVersion: 4))
        XCTAssertEqual(Notebook.fingerprint(ofVersion: 1), Notebook.fingerprints[1])
        XCTAssertNil(Notebook.fingerprint(ofVersion: 2))
    }

    /// A schema type written before the requirement existed (no `fingerprint(ofVersion:)` of its own) answers from
    /// its dictionary.
    func testFingerprintOfVersionDefaultsToTheDictionary() {
        XCTAssertEqual(HandWrittenSchema.fingerprint(ofVersion: 1), "aaaa")
        XCTAssertEqual(HandWrittenSchema.fingerprint(ofVersion: 2), "bbbb")
        XCTAssertNil(HandWrittenSchema.fingerprint(ofVersion: 3))
    }

    func testModelDescriptionNumbersPersistedPropertiesInSchemaOrder() {
        let description = Client.modelDescription
        XCTAssertEqual(description.name, "Client")
        XCTAssertEqual(description.primaryKey, "id")
        XCTAssertEqual(description.primaryKeyColumn, 0)
        XCTAssertEqual(description.column(named: "tags"), 16)
        XCTAssertEqual(description.properties.map(\.name).last, "class")
        XCTAssertEqual(Order.modelDescription.linkingObjects.map(\.name), ["buyers"])
        XCTAssertNil(Order.modelDescription.column(named: "buyers"))
        XCTAssertEqual(Bookshop.objectTypes.map { $0.modelDescription.name }, ["Client", "Order"])
    }

    func testSchemaWithoutCustomStepsOpensWithThePlainConfiguration() {
        let configuration = Configuration(schema: Notebook.self)
        XCTAssertTrue(configuration.schema == Notebook.self)
        XCTAssertTrue(configuration.customMigrations.steps.isEmpty)
    }
}

/// A schema type as the generator wrote it before `fingerprint(ofVersion:)`: the dictionary alone.
private enum HandWrittenSchema: Schema {
    static let version = 2
    static var history: SchemaHistory { Notebook.history }
    static let fingerprints = [1: "aaaa", 2: "bbbb"]
    static var objectTypes: [ObjectBase.Type] { [] }
}
