import Foundation
import StrataCodegen
import StrataSchemaCompiler
import XCTest

/// Generated code for `set<T>` and `map<T>` properties type-checks, as an app's build would compile it: the
/// models' `MutableSet` and `Map` properties, the initializer's arrays and dictionaries, the views of an older
/// version (arrays, dictionaries, views of linked objects) and a typed custom step that reads them and writes the
/// new collections.
final class SetAndMapCodegenTests: XCTestCase {
    private let version1 = """
        schema: Kitchen
        version: 1
        models:
          Chef:
            primaryKey: id
            properties:
              id: int
              tags: [string]
              labels: set<string>
              ratings: set<double?>
              rivals: set<Chef>
              scores: map<int>
              notes: map<string?>
              favourites: map<Chef?>
              fans: { linkingObjects: Chef.rivals }

        """

    private let version2 = """
        schema: Kitchen
        version: 2
        models:
          Chef:
            primaryKey: id
            properties:
              id: int
              tags: set<string>
              labels: set<string>
              ratings: set<double?>
              rivals: set<Chef>
              scores: map<int>
              notes: map<string?>
              favourites: map<Chef?>
              total: int
              fans: { linkingObjects: Chef.rivals }
            migrate: custom

        """

    private let appCode = """
        import Foundation
        import Strata

        struct Steps: KitchenMigrations {
            func migrateChef(from old: Kitchen.V1.Chef, to new: Chef) throws {
                let labels: [String] = old.labels
                let ratings: [Double?] = old.ratings
                let rivals: [Kitchen.V1.Chef] = old.rivals
                let scores: [String: Int] = old.scores
                let notes: [String: String?] = old.notes
                let favourites: [String: Kitchen.V1.Chef?] = old.favourites
                new.total = labels.count + ratings.count + rivals.count + scores.values.reduce(0, +) + notes.count
                    + favourites.count
                new.scores["migrated"] = 1
                new.labels.insert("migrated")
            }
        }

        func use(_ database: Database) throws {
            let chef = Chef(id: 1, labels: ["a"], ratings: [1.5, nil], scores: ["x": 1], notes: ["n": nil])
            chef.rivals.insert(Chef(id: 2))
            chef.favourites["best"] = .some(nil)
            let labels: MutableSet<String> = chef.labels
            let map: Map<String, Int> = chef.scores
            let value: Int? = map["x"]
            let optional: String?? = chef.notes["n"]
            _ = (labels.contains("a"), value, optional, chef.fans.count)
            try database.write { database.add(chef) }
            let token = chef.scores.observe { change in
                if case .update(_, let deletions, let insertions, let modifications) = change {
                    print(deletions, insertions, modifications)
                }
            }
            token.invalidate()
            _ = try database.objects(Chef.self).where { $0.scores["x"] > 0 && $0.labels.any { $0.value == "a" } }
            _ = try database.objects(Chef.self).where { $0.scores.allKeys.count > 1 }
        }

        """

    func testModelsWithSetsAndMapsTypeCheckWithAnOlderVersionAndACustomStep() throws {
        let compilation = SchemaCompiler().compile(sources: [
            SchemaSource(path: "Kitchen.v1.strata.yaml", text: version1),
            SchemaSource(path: "Kitchen.v2.strata.yaml", text: version2),
        ])
        XCTAssertEqual(compilation.diagnostics.map(\.description), [])
        let generated = SwiftGenerator().generate(compilation.histories)
        for expected in [
            "var labels: MutableSet<String>", "var favourites: Map<String, Chef?>", "labels: [String] = []",
            "scores: [String: Int] = [:]", "accessor.mutableSet(at: ", "accessor.map(at: ",
            ".set(.optional(.double))", ".map(.optional(.link(\"Chef\")))",
        ] {
            XCTAssertTrue(generated.contains(expected), "the generated code has no '\(expected)'")
        }
        let outcome = try SwiftTypeChecker().typeCheck([
            ("Kitchen.generated.swift", generated), ("App.swift", appCode),
        ])
        XCTAssertTrue(outcome.succeeded, "the generated code does not type-check:\n\(outcome.output)")
    }
}
