import Foundation
import StrataTestSupport
import XCTest

/// An app package that depends on Strata by path and applies `StrataPlugin`: it builds (warnings as errors) and
/// runs with models generated from schemas under `Schemas/<Target>/` (the demo's Library history and a Shop history)
/// and one in the target's own folder, with nonisolated and with main-actor default isolation; leaving out the custom migrations a schema needs does not compile; and a
/// broken schema fails the build with the schema's `file:line:column`.
///
/// This builds a whole package (minutes on a small machine). Skip it only on purpose, with
/// `STRATA_SKIP_INTEGRATION=1`.
final class PluginIntegrationTests: XCTestCase {
    private static let shopV1 = """
        schema: Shop
        version: 1
        models:
          Customer:
            primaryKey: id
            properties:
              id: int
              name: string
              points: int16

        """

    private static let shopV2 = """
        schema: Shop
        version: 2
        models:
          Customer:
            doc: Someone who buys.
            primaryKey: id
            properties:
              id: { type: int, default: auto }
              fullName: { type: string, renamedFrom: name }
              points: int32
              level: { enum: [bronze, gold], default: bronze }
              orders: [Order]
            migrate: custom
          Order:
            properties:
              id: { type: uuid, default: auto }
              total: { type: double, default: 0 }
              buyers: { linkingObjects: Customer.orders }

        """

    /// In the target's own folder: a second schema, with no custom step.
    private static let notes = """
        schema: Notes
        version: 1
        models:
          Note:
            properties:
              title: string
              pinned: { type: bool, default: true }

        """

    private static let main = """
        import Foundation
        import Strata

        struct AppShopMigrations: ShopMigrations {
            func migrateCustomer(from old: Shop.V1.Customer, to new: Customer) throws {
                new.level = old.points > 100 ? .gold : .bronze
            }
        }

        struct AppLibraryMigrations: LibraryMigrations {
            func migrateMember(from old: Library.V2.Member, to new: Member) throws {
                new.fullName = old.firstName + " " + old.lastName
            }
        }

        let shop = Configuration(schema: Shop.self, migrations: AppShopMigrations())
        let library = Configuration(schema: Library.self, migrations: AppLibraryMigrations())
        let notes = Configuration(schema: Notes.self)
        let customer = Customer(fullName: "Ana", points: 120, orders: [Order(total: 12.5)])
        print("customer \\(customer.fullName) \\(customer.points) \\(customer.level.rawValue) orders \\(customer.orders.count)")
        print("note \\(Note(title: "hello").title) pinned \\(Note().pinned)")
        print("schemas \\(Shop.name) v\\(Shop.version) steps \\(shop.customMigrations.steps.count), \\(Notes.name) v\\(Notes.version)")
        print("library \\(Library.objectTypes.count) models, \\(library.customMigrations.steps.count) custom step")
        print(Shop.history.plans[0].summary)
        // A snapshot is a Sendable, Codable value in either default isolation.
        let snapshot = Customer(fullName: "Bo", points: 7).snapshot()
        let restored = try JSONDecoder().decode(Customer.Snapshot.self, from: JSONEncoder().encode(snapshot))
        let describe: @Sendable () -> String = { "snapshot \\(restored.fullName) \\(restored.level.rawValue)" }
        print(describe() + " \\(restored == snapshot)")

        """

    func testConsumerPackageBuildsFromItsSchemasAndFailsOnABrokenOne() throws {
        if ProcessInfo.processInfo.environment["STRATA_SKIP_INTEGRATION"] == "1" {
            throw XCTSkip("STRATA_SKIP_INTEGRATION=1")
        }
        let strataRoot = ConsumerPackage.repositoryRoot(from: #filePath)
        let package = try ConsumerPackage(strataRoot: strataRoot)
        for version in 1...3 {
            let file = "Library.v\(version).strata.yaml"
            let text = try String(contentsOf: strataRoot.appendingPathComponent("Schemas/strata-demo/\(file)"), encoding: .utf8)
            try package.write(text, to: "Schemas/LibraryApp/\(file)")
        }
        try package.write(Self.shopV1, to: "Schemas/LibraryApp/Shop.v1.strata.yaml")
        try package.write(Self.shopV2, to: "Schemas/LibraryApp/Shop.v2.strata.yaml")
        try package.write(Self.notes, to: "Sources/LibraryApp/Notes.strata.yaml")
        try package.write(Self.main, to: "Sources/LibraryApp/main.swift")

        let build = try package.build()
        XCTAssertTrue(build.succeeded, build.description)
        XCTAssertFalse(build.output.contains("unhandled"), "schema files in the target must not be reported as unhandled")
        let run = try package.run()
        XCTAssertTrue(run.succeeded, run.description)
        XCTAssertEqual(run.output.split(separator: "\n").prefix(3).map(String.init), [
            "customer Ana 120 bronze orders 1",
            "note hello pinned true",
            "schemas Shop v2 steps 1, Notes v1",
        ])
        XCTAssertTrue(run.output.contains("library 4 models, 1 custom step"), run.description)
        XCTAssertTrue(run.output.contains("rename property Customer.name to fullName"), run.description)
        XCTAssertTrue(run.output.contains("snapshot Bo bronze true"), run.description)

        // The generated code compiles, and the app runs, in a target whose code is main-actor isolated by default
        // (Xcode 26's default for new app targets).
        try package.setMainActorIsolationByDefault(true)
        let mainActorBuild = try package.build()
        XCTAssertTrue(mainActorBuild.succeeded, mainActorBuild.description)
        let mainActorRun = try package.run()
        XCTAssertTrue(mainActorRun.succeeded, mainActorRun.description)
        XCTAssertTrue(mainActorRun.output.hasPrefix("customer Ana 120 bronze orders 1"), mainActorRun.description)
        XCTAssertTrue(mainActorRun.output.contains("snapshot Bo bronze true"), mainActorRun.description)
        try package.setMainActorIsolationByDefault(false)

        // Opening a schema that has custom steps without the app's migrations does not compile.
        try package.write(
            Self.main.replacingOccurrences(of: "Configuration(schema: Shop.self, migrations: AppShopMigrations())",
                                           with: "Configuration(schema: Shop.self)"),
            to: "Sources/LibraryApp/main.swift")
        let withoutMigrations = try package.build()
        XCTAssertFalse(withoutMigrations.succeeded, withoutMigrations.description)
        XCTAssertTrue(withoutMigrations.output.contains("requires that 'Shop' conform to 'SchemaWithoutCustomMigrations'"),
                      withoutMigrations.description)
        try package.write(Self.main, to: "Sources/LibraryApp/main.swift")

        // A typo in the target's own schema: the build fails and shows where.
        try package.write(Self.notes.replacingOccurrences(of: "title: string", with: "title: strng"),
                          to: "Sources/LibraryApp/Notes.strata.yaml")
        let broken = try package.build()
        XCTAssertFalse(broken.succeeded, broken.description)
        XCTAssertTrue(broken.output.contains("Notes.strata.yaml:6:14: error: unknown type 'strng'"), broken.description)
    }
}
