import Foundation
import StrataSchema
import StrataStorage
import StrataTestSupport
import XCTest

@testable import Strata

/// `Purse` version 1 → 2: properties of type decimal, objectId and any added (with `auto` and decimal
/// defaults, indexes) and removed, and a custom step that reads version 1's decimal and writes version 2's.
final class MoreValueTypesMigrationTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var path: String { directory.url.appendingPathComponent("purse.strata").path }

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
    }

    override func tearDown() {
        directory = nil
    }

    /// The app's step: `value` is the old decimal doubled, or the cents as a decimal; `tag` says where it came from.
    private struct Steps: PurseMigrations {
        func migrateCoin(from old: Purse.V1.Coin, to new: Purse.V2.Coin) throws {
            if let value = old.old {
                new.value = value * 2
                new.tag = .string("from old")
            } else {
                new.value = Decimal(old.cents) / 100
                new.tag = .int(old.cents)
            }
            if let mark = old.mark { new.ids.append(mark) }
        }
    }

    /// Writes a version-1 file through the storage layer, as the previous release of the app left it.
    private func writeVersion1(_ coins: [[String: StorageValue]]) throws {
        let schema = try XCTUnwrap(Purse.history.versions.first { $0.version == 1 })
        let store = try Store.open(path: path, options: StoreOptions(durability: .none))
        let write = try store.beginWrite()
        let catalog = try Catalog(writer: write)
        var configuration = Configuration(schema: Purse.self, migrations: Steps())
        configuration.fileURL = URL(fileURLWithPath: path)
        let binder = SchemaBinder(configuration: configuration, path: path)
        for model in schema.models { try catalog.createTable(named: model.name) }
        let tables = Dictionary(uniqueKeysWithValues: catalog.tables.map { ($0.name, $0) })
        for model in schema.models {
            let table = try XCTUnwrap(tables[model.name])
            for property in model.persistedProperties { try binder.addColumn(for: property, to: table, tables: tables) }
            try binder.addIndexes(of: model, to: table)
        }
        try SchemaRecord(schema: "Purse", version: 1, fingerprints: ["1": try XCTUnwrap(Purse.fingerprints[1])]).write(to: catalog)
        let coin = try XCTUnwrap(catalog.table(named: "Coin"))
        for values in coins {
            try coin.insert(try values.map { name, value in (try XCTUnwrap(coin.column(named: name)).key, value) })
        }
        try catalog.flush()
        try write.commit()
        store.close()
    }

    private func open() throws -> Database {
        return try Database(configuration: Configuration(schema: Purse.self, migrations: Steps())
            .scratch(at: URL(fileURLWithPath: path)))
    }

    func testAddedAndRemovedPropertiesAndACustomStepOverTheNewTypes() throws {
        let mark = ObjectId.generate()
        try writeVersion1([
            ["name": .string("penny"), "cents": .int(1), "old": .null, "gone": .string("x"), "mark": .objectId(mark)],
            ["name": .string("crown"), "cents": .int(25), "old": .decimal(Decimal(string: "1.25")!), "gone": .int(3)],
        ])
        let db = try open()
        let coins = db.objects(Coin.self).sorted(byKeyPath: "name")
        XCTAssertEqual(coins.map(\.name), ["crown", "penny"])
        let crown = try XCTUnwrap(coins.first), penny = try XCTUnwrap(coins.last)
        XCTAssertEqual(crown.value, Decimal(string: "2.5"))
        XCTAssertEqual(crown.tag, .string("from old"))
        XCTAssertEqual(penny.value, Decimal(string: "0.01"))
        XCTAssertEqual(penny.tag, .int(1))
        XCTAssertEqual(Array(penny.ids), [mark])
        XCTAssertNotEqual(crown.uid, ObjectId.zero, "auto gives each existing object its own ObjectId")
        XCTAssertNotEqual(crown.uid, penny.uid)
        let table = try db.table(for: try XCTUnwrap(db.schema.model(for: Coin.self)))
        XCTAssertNil(table.column(named: "gone"))
        XCTAssertEqual(table.column(named: "tag")?.type, .value(.mixed))
        XCTAssertNotNil(table.index(on: [try XCTUnwrap(table.column(named: "uid")).key]))
        XCTAssertEqual(try db.objects(Coin.self).filter("tag == 1").map(\.name), ["penny"])
        XCTAssertEqual(try db.objects(Coin.self).filter("uid == %@", crown.uid).map(\.name), ["crown"])
        _ = try db.verify()
    }
}
