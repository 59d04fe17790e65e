import Foundation
import StrataStorage
import XCTest

@testable import Strata

/// One test per row of docs/SCHEMA.md's migration table, run on a version-1 file opened by the version-3 code.
final class AutomaticStepTests: MigrationTestCase {
    func testRenamedModelKeepsItsObjectsAndLinks() throws {
        try writeVersion1()
        let database = try openMigrated()
        XCTAssertEqual(database.objects(Patron.self).count, 2)
        let ana = try patron(1, in: database)
        XCTAssertEqual(ana.nickname, "A")
        XCTAssertEqual(ana.purchases.map(\.ref), [10, 20])
        XCTAssertEqual(try patron(2, in: database).purchases.map(\.ref), [30, 10])
    }

    /// An app that compacts on launch opens an old file: compaction copies the version-1 tables (and the schema
    /// record saying so), then the migration runs on the copy.
    func testCompactionOnLaunchThenMigrationInOneOpen() throws {
        try writeVersion1()
        let asked = NSLock()
        nonisolated(unsafe) var times = 0
        let database = try openMigrated { configuration in
            configuration.shouldCompactOnLaunch = { _, _ in
                asked.withLock { times += 1 }
                return true
            }
        }
        XCTAssertEqual(asked.withLock { times }, 1)
        XCTAssertEqual(try patron(1, in: database).purchases.map(\.ref), [10, 20])
        XCTAssertEqual(database.objects(Purchase.self).map(\.ref).sorted(), [10, 20, 30])
        _ = try database.verify()
        XCTAssertFalse(FileManager.default.fileExists(atPath: path + ".compacting"))
    }

    func testRenamedPropertyKeepsDataAndGetsItsNewIndex() throws {
        try writeVersion1()
        let database = try openMigrated()
        XCTAssertEqual(database.objects(Purchase.self).map(\.ref).sorted(), [10, 20, 30])
        let table = try database.table(for: try XCTUnwrap(database.schema.model(for: Purchase.self)))
        let ref = try XCTUnwrap(table.column(named: "ref"))
        XCTAssertNotNil(table.index(on: [ref.key]), "ref is indexed in version 2")
        XCTAssertNil(table.column(named: "number"))
    }

    func testRemovedPropertyIsDroppedAndOthersKept() throws {
        try writeVersion1()
        let database = try openMigrated()
        let table = try database.table(for: try XCTUnwrap(database.schema.model(for: Patron.self)))
        XCTAssertNil(table.column(named: "vip"))
        XCTAssertNil(table.column(named: "name"))
        XCTAssertFalse(table.columns.contains { $0.name.hasPrefix("~") }, "set-aside columns are dropped")
    }

    func testRemovedModelIsDroppedWithItsBacklinks() throws {
        try writeVersion1()
        let database = try openMigrated()
        let catalog = try database.catalog()
        XCTAssertNil(catalog.table(named: "Voucher"))
        XCTAssertFalse(catalog.tables.contains { $0.name.hasPrefix("~") })
        let product = try XCTUnwrap(database.object(ofType: Product.self, forPrimaryKey: "B2"))
        XCTAssertEqual(product.title, "Bible")
        let table = try database.table(for: try XCTUnwrap(database.schema.model(for: Product.self)))
        XCTAssertEqual(table.columns.filter { $0.type == .backlinks }.count, 2, "from Purchase.product and Coupon.product")
    }

    func testAddedModelIsCreatedEmptyAndUsable() throws {
        try writeVersion1()
        let database = try openMigrated()
        XCTAssertEqual(database.objects(Coupon.self).count, 0)
        let atlas = try XCTUnwrap(database.object(ofType: Product.self, forPrimaryKey: "A1"))
        try database.write { database.add(Coupon(label: "10%", product: atlas)) }
        XCTAssertEqual(database.objects(Coupon.self).first?.product?.sku, "A1")
    }

    func testAddedPropertiesGetTheirDefaultAndAutoValuesPerObject() throws {
        try writeVersion1()
        let database = try openMigrated()
        let ana = try patron(1, in: database)
        let bo = try patron(2, in: database)
        XCTAssertEqual(ana.level, 3)
        XCTAssertEqual(bo.level, 3)
        XCTAssertNotEqual(ana.token, bo.token, "auto gives each object its own UUID")
        XCTAssertNotEqual(ana.token, ManagedRow.zeroUUID)
    }

    func testIntegerWidthsWidenWithoutLoss() throws {
        try writeVersion1()
        let database = try openMigrated()
        XCTAssertEqual(try patron(1, in: database).age, 30)
        XCTAssertEqual(try patron(2, in: database).age, -5)
    }

    func testFloatAndIntBecomeDoubleLosslessly() throws {
        try writeVersion1()
        let database = try openMigrated()
        XCTAssertEqual(try purchase(10, in: database).total, 1.5)
        XCTAssertEqual(try purchase(20, in: database).total, 2.25)
        XCTAssertEqual(try purchase(10, in: database).quantity, 3)
        XCTAssertEqual(try purchase(20, in: database).quantity, -4)
    }

    func testValueBecomesOptionalKeepingItsValue() throws {
        try writeVersion1()
        let database = try openMigrated()
        XCTAssertEqual(try purchase(10, in: database).code, "X")
        XCTAssertEqual(try purchase(30, in: database).code, "")
        try database.write { try purchase(30, in: database).code = nil }
        XCTAssertNil(try purchase(30, in: database).code)
    }

    func testNilsBecomeTheDefaultOthersAreKept() throws {
        try writeVersion1()
        let database = try openMigrated()
        XCTAssertEqual(try purchase(10, in: database).note, "none")
        XCTAssertEqual(try purchase(20, in: database).note, "gift")
        XCTAssertEqual(try purchase(30, in: database).note, "none")
    }

    func testConvertedModelKeepsItsLinksListsAndBacklinks() throws {
        try writeVersion1()
        let database = try openMigrated()
        XCTAssertEqual(try purchase(10, in: database).product?.sku, "A1")
        XCTAssertNil(try purchase(20, in: database).product)
        XCTAssertEqual(Array(try purchase(10, in: database).scores), [1, 2])
        let atlas = try XCTUnwrap(database.object(ofType: Product.self, forPrimaryKey: "A1"))
        XCTAssertEqual(atlas.buyers.map(\.ref).sorted(), [10, 30])
    }

    func testNewPrimaryKeyIsUniqueIndexed() throws {
        try writeVersion1()
        let database = try openMigrated()
        XCTAssertEqual(database.object(ofType: Product.self, forPrimaryKey: "A1")?.title, "Atlas")
        XCTAssertThrowsError(try database.write { database.add(Product(sku: "A1", title: "again")) })
    }

    func testDuplicateNewPrimaryKeysFailNamingThemAndLeaveTheFile() throws {
        try writeVersion1 { file in
            try file.insert("Product", ["sku": .string("A1"), "title": .string("Atlas, second copy")])
        }
        try assertOpenFailsLeavingFileUnchanged(["Product.sku", "A1", "2 objects", "version 1 to 2"])
        XCTAssertEqual(try FileContents.recordedVersion(path: path), 1)
    }

    func testAddedIndexIsBuilt() throws {
        try writeVersion1()
        let database = try openMigrated()
        let table = try database.table(for: try XCTUnwrap(database.schema.model(for: Product.self)))
        let title = try XCTUnwrap(table.column(named: "title"))
        XCTAssertNotNil(table.index(on: [title.key]))
        XCTAssertEqual(database.objects(Product.self).filter { $0.title == "Atlas" }.count, 1)
    }

    func testFileRecordsTheNewVersionAndEveryFingerprint() throws {
        try writeVersion1()
        _ = try openMigrated()
        let store = try Store.open(path: path, options: StoreOptions(durability: .none, readOnly: true))
        defer { store.close() }
        let record = try XCTUnwrap(SchemaRecord.read(from: try Catalog(reader: try store.beginRead()), path: path))
        XCTAssertEqual(record.version, 3)
        XCTAssertEqual(record.fingerprints, ["1": Shop.fingerprints[1]!, "2": Shop.fingerprints[2]!, "3": Shop.fingerprints[3]!])
    }

    func testMigratedFileOpensAgainWithoutMigrating() throws {
        try writeVersion1()
        _ = try openMigrated()
        let after = try FileContents.render(path: path)
        do {
            // A custom step that would throw proves that no step runs again.
            let again = try openMigrated(migrations: TestShopMigrations(failingNames: ["Ana", "Bo"]))
            XCTAssertEqual(try patron(1, in: again).displayName, "Ana (A) ×2 3.75")
        }
        XCTAssertEqual(try FileContents.render(path: path), after)
    }
}
