import Foundation
import StrataStorage
import XCTest

@testable import Strata

/// The typed custom steps (`migrate: custom`) and the untyped, Realm-style `Migration` API.
final class CustomStepTests: MigrationTestCase {
    func testCustomStepReadsRemovedPropertiesAndFollowsListsThroughTypedOldViews() throws {
        try writeVersion1()
        let database = try openMigrated()
        XCTAssertEqual(try patron(1, in: database).displayName, "Ana (A) ×2 3.75")
        XCTAssertEqual(try patron(2, in: database).displayName, "Bo (-) ×2 1.5")
    }

    func testCustomStepChangesTheNewObjectsListAndReadsListsOfPrimitives() throws {
        try writeVersion1()
        let database = try openMigrated(migrations: TestShopMigrations(reversesPurchases: true))
        XCTAssertEqual(try patron(1, in: database).purchases.map(\.ref), [20, 10])
        XCTAssertEqual(try patron(2, in: database).purchases.map(\.ref), [10, 30])
        XCTAssertEqual(try patron(1, in: database).level, 103, "scores 1 and 2")
        XCTAssertEqual(try patron(2, in: database).level, 110, "scores 7, 1 and 2")
    }

    func testCustomStepCannotAddAnObjectThroughAList() throws {
        try writeVersion1()
        try assertOpenFailsLeavingFileUnchanged(
            ["Patron (version 3).purchases", "not one of this migration's objects"],
            migrations: TestShopMigrations(appendsUnmanagedPurchase: true))
    }

    func testVersion2FileMigratesToVersion3() throws {
        let file = try OldVersionFile(path: path, version: 2)
        let purchase = try file.insert("Purchase", [
            "ref": .int(5), "total": .double(9.5), "quantity": .double(1), "note": .string("n"), "code": .null,
            "scores": .list([]),
        ])
        try file.insert("Patron", [
            "id": .int(7), "name": .string("Cy"), "nickname": .string("C"), "age": .int(70), "level": .int(9),
            "token": .uuid(UUID()), "purchases": .list([.link(purchase)]),
        ])
        try file.commit()
        do {
            let database = try openMigrated()
            let cy = try patron(7, in: database)
            XCTAssertEqual(cy.displayName, "Cy (C) ×1 9.5")
            XCTAssertEqual(cy.level, 9)
            XCTAssertEqual(cy.age, 70)
        }
        XCTAssertEqual(try FileContents.recordedVersion(path: path), 3)
    }

    func testThrowingCustomStepLeavesTheFileUnchanged() throws {
        try writeVersion1()
        try assertOpenFailsLeavingFileUnchanged(
            ["Bo"], migrations: TestShopMigrations(failingNames: ["Bo"]))
        XCTAssertEqual(try FileContents.recordedVersion(path: path), 1)
        // The same file then migrates cleanly once the code is fixed.
        XCTAssertEqual(try patron(2, in: try openMigrated()).displayName, "Bo (-) ×2 1.5")
    }

    func testUntypedBlockSeesOldAndNewObjectsOncePerStep() throws {
        try writeVersion1()
        let steps = Recorder<String>()
        let database = try openMigrated { configuration in
            configuration.migrationBlock = { migration in
                steps.append("\(migration.oldSchemaVersion)→\(migration.newSchemaVersion)")
                guard migration.newSchemaVersion == 2 else { return }
                try migration.enumerateObjects(ofType: "Customer") { old, new in
                    // `vip` is removed by this step but still readable; `level` was just added.
                    if old?["vip"] as? Bool == true { new?["level"] = 5 }
                }
            }
        }
        XCTAssertEqual(steps.values, ["1→2", "2→3"])
        XCTAssertEqual(try patron(1, in: database).level, 5)
        XCTAssertEqual(try patron(2, in: database).level, 3)
    }

    func testUntypedBlockCreatesDeletesAndCopiesProperties() throws {
        try writeVersion1()
        let database = try openMigrated { configuration in
            configuration.migrationBlock = { migration in
                guard migration.newSchemaVersion == 2 else { return }
                var bible: MigrationObject?
                try migration.enumerateObjects(ofType: "Product") { _, new in
                    if new?["sku"] as? String == "B2" { bible = new }
                }
                try migration.enumerateObjects(ofType: "Voucher") { old, new in
                    XCTAssertNil(new, "Voucher is removed in version 2")
                    let product = old?["product"] as? MigrationObject
                    XCTAssertEqual(product?["title"] as? String, "Bible")
                    try migration.create("Coupon", value: ["label": old?["code"] ?? "", "product": bible as Any])
                }
                try migration.enumerateObjects(ofType: "Purchase") { _, new in
                    if let new, new["ref"] as? Int == 20 { try migration.delete(new) }
                }
                try migration.renameProperty(onType: "Patron", from: "name", to: "name")
                XCTAssertTrue(try migration.deleteData(forType: "Voucher"))
            }
        }
        let coupon = try XCTUnwrap(database.objects(Coupon.self).first)
        XCTAssertEqual(coupon.label, "V")
        XCTAssertEqual(coupon.product?.sku, "B2")
        XCTAssertEqual(database.objects(Purchase.self).map(\.ref).sorted(), [10, 30])
        XCTAssertEqual(try patron(1, in: database).purchases.map(\.ref), [10], "the deleted purchase left the list")
    }

    func testUntypedBlockWrongValueTypeFailsNamingTheProperty() throws {
        try writeVersion1()
        try assertOpenFailsLeavingFileUnchanged(["Patron.level", "version 2"]) { configuration in
            configuration.migrationBlock = { migration in
                try migration.enumerateObjects(ofType: "Patron") { _, new in new?["level"] = "high" }
            }
        }
    }

    func testUntypedBlockCannotWriteOldObjects() throws {
        try writeVersion1()
        try assertOpenFailsLeavingFileUnchanged(["old", "read-only"]) { configuration in
            configuration.migrationBlock = { migration in
                try migration.enumerateObjects(ofType: "Customer") { old, _ in old?["name"] = "Zed" }
            }
        }
    }

    func testProgressGoesFromZeroToTotal() throws {
        try writeVersion1 { file in
            for number in 0..<1_100 {
                try file.insert("Purchase", [
                    "number": .int(Int64(100 + number)), "total": .float(1), "quantity": .int(1), "code": .string("c"),
                ])
            }
        }
        let reports = Recorder<MigrationProgress>()
        _ = try openMigrated { configuration in
            configuration.migrationProgress = { reports.append($0) }
        }
        let values = reports.values
        XCTAssertGreaterThan(values.count, 3)
        XCTAssertEqual(values.map(\.done), values.map(\.done).sorted(), "done never goes back")
        XCTAssertEqual(values.last?.done, values.last?.total)
        XCTAssertEqual(values.last?.total, 1_108 * 2, "objects at the start times two steps")
        XCTAssertEqual(Set(values.map(\.currentStep)), [2, 3])
    }
}

/// Collects values from `@Sendable` callbacks that run on the test's thread.
final class Recorder<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Value] = []

    func append(_ value: Value) {
        lock.lock()
        stored.append(value)
        lock.unlock()
    }

    var values: [Value] {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }
}
