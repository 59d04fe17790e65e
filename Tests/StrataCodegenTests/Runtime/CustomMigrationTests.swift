import Foundation
import XCTest
@_spi(StrataGenerated) import Strata

/// The app's typed migration code, reached through `Configuration` as the runtime will reach it.
final class CustomMigrationTests: XCTestCase {
    /// Upper-cases names into version 2 and turns points into visits into version 3.
    private struct Migrations: BookshopMigrations {
        func migrateClient(from old: Bookshop.V1.Customer, to new: Bookshop.V2.Client) throws {
            new.fullName = old.name.uppercased()
            new.tier = old.tier == .gold ? .gold : .basic
            if old.points < 0 { throw StrataError.invalidArgument("customer \(old.id) has negative points") }
        }

        func migrateClient(from old: Bookshop.V2.Client, to new: Bookshop.V3.Client) throws {
            new.visits = old.points
            new.tags.append(contentsOf: old.orders.isEmpty ? ["new"] : ["returning"])
        }
    }

    func testConfigurationCarriesOneStepPerCustomMigration() {
        let configuration = Configuration(schema: Bookshop.self, migrations: Migrations())
        XCTAssertEqual(configuration.customMigrations.steps.map(\.model), ["Client", "Client"])
        XCTAssertEqual(configuration.customMigrations.steps.map(\.toVersion), [2, 3])
    }

    func testStepIntoAnIntermediateVersionWritesThroughItsView() throws {
        let configuration = Configuration(schema: Bookshop.self, migrations: Migrations())
        let old = DictionaryAccessor([0: .int(1), 1: .string("ana"), 2: .int(4), 3: .string("gold")])
        let new = DictionaryAccessor([0: .int(1), 1: .string("ana"), 2: .int(4), 3: .string("basic")])
        try configuration.customMigrations.run(model: "Client", toVersion: 2, old: old, new: new)
        guard case .string("ANA")? = new.values[1] else { return XCTFail("fullName: \(String(describing: new.values[1]))") }
        guard case .string("gold")? = new.values[3] else { return XCTFail("tier: \(String(describing: new.values[3]))") }
    }

    func testStepIntoTheNewestVersionFillsTheModelClass() throws {
        let configuration = Configuration(schema: Bookshop.self, migrations: Migrations())
        let old = DictionaryAccessor([0: .int(1), 1: .string("Ana"), 2: .int(9), 3: .string("basic"), 4: .list([])])
        let new = DictionaryAccessor()
        try configuration.customMigrations.run(model: "Client", toVersion: 3, old: old, new: new)
        let client = Client(managedBy: new)
        XCTAssertEqual(client.visits, 9)
        XCTAssertEqual(Array(client.tags), ["new"])
    }

    func testErrorThrownByTheAppsCodeReachesTheRuntime() {
        let configuration = Configuration(schema: Bookshop.self, migrations: Migrations())
        let old = DictionaryAccessor([0: .int(5), 1: .string("x"), 2: .int(-1)])
        XCTAssertThrowsError(
            try configuration.customMigrations.run(model: "Client", toVersion: 2, old: old, new: DictionaryAccessor())
        ) { error in
            XCTAssertEqual(error as? StrataError, .invalidArgument("customer 5 has negative points"))
        }
    }

    func testOldViewsFollowLinksToViewsOfTheSameVersion() {
        let shelf = Object(managedBy: DictionaryAccessor([0: .string("Poetry")]))
        let customer = DictionaryAccessor([4: .object(shelf)])
        let view = Bookshop.V1.Customer(customer)
        XCTAssertEqual(view.shelf?.label, "Poetry")
    }
}
