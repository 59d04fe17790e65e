import Foundation
import StrataStorage
import StrataTestSupport
import XCTest

@testable import Strata

/// A test case with a temporary database file and the `Shop` objects most tests start from.
class MigrationTestCase: XCTestCase {
    var directory: TemporaryDirectory!
    var path: String { directory.url.appendingPathComponent("shop.strata").path }

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
    }

    override func tearDown() {
        directory = nil
    }

    /// Opens the file with the code (version 3), which migrates it.
    func openMigrated(
        migrations: TestShopMigrations = TestShopMigrations(), configure: (inout Configuration) -> Void = { _ in }
    ) throws -> Database {
        var configuration = ShopConfiguration.make(path: path, migrations: migrations)
        configure(&configuration)
        return try Database(configuration: configuration)
    }

    /// Writes the version-1 file most tests migrate: two products, three purchases (with nils, links and lists),
    /// two customers whose lists share a purchase, and a voucher linking to a product.
    func writeVersion1(extra: (OldVersionFile) throws -> Void = { _ in }) throws {
        let file = try OldVersionFile(path: path, version: 1)
        let atlas = try file.insert("Product", ["sku": .string("A1"), "title": .string("Atlas")])
        let bible = try file.insert("Product", ["sku": .string("B2"), "title": .string("Bible")])
        let first = try file.insert("Purchase", [
            "number": .int(10), "total": .float(1.5), "quantity": .int(3), "note": .null, "code": .string("X"),
            "product": .link(atlas), "scores": .list([.int(1), .int(2)]),
        ])
        let second = try file.insert("Purchase", [
            "number": .int(20), "total": .float(2.25), "quantity": .int(-4), "note": .string("gift"),
            "code": .string("Y"), "product": .null, "scores": .list([]),
        ])
        let third = try file.insert("Purchase", [
            "number": .int(30), "total": .float(0), "quantity": .int(0), "note": .null, "code": .string(""),
            "product": .link(atlas), "scores": .list([.int(7)]),
        ])
        try file.insert("Customer", [
            "id": .int(1), "name": .string("Ana"), "nickname": .string("A"), "vip": .bool(true), "age": .int(30),
            "purchases": .list([.link(first), .link(second)]),
        ])
        try file.insert("Customer", [
            "id": .int(2), "name": .string("Bo"), "nickname": .null, "vip": .bool(false), "age": .int(-5),
            "purchases": .list([.link(third), .link(first)]),
        ])
        try file.insert("Voucher", ["code": .string("V"), "product": .link(bible)])
        try extra(file)
        try file.commit()
    }

    func purchase(_ ref: Int, in database: Database) throws -> Purchase {
        try XCTUnwrap(database.objects(Purchase.self).first { $0.ref == ref }, "no purchase \(ref)")
    }

    func patron(_ id: Int, in database: Database) throws -> Patron {
        try XCTUnwrap(database.object(ofType: Patron.self, forPrimaryKey: id), "no patron \(id)")
    }

    /// Asserts that opening fails with a `StrataError` whose description contains every one of `fragments`, and
    /// that the file still holds exactly what it held before.
    func assertOpenFailsLeavingFileUnchanged(
        _ fragments: [String], migrations: TestShopMigrations = TestShopMigrations(),
        configure: (inout Configuration) -> Void = { _ in }, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let before = try FileContents.render(path: path)
        XCTAssertThrowsError(try openMigrated(migrations: migrations, configure: configure), file: file, line: line) {
            let text = "\($0)"
            for fragment in fragments {
                XCTAssertTrue(text.contains(fragment), "'\(fragment)' missing from: \(text)", file: file, line: line)
            }
        }
        XCTAssertEqual(try FileContents.render(path: path), before, "the file changed", file: file, line: line)
    }
}
