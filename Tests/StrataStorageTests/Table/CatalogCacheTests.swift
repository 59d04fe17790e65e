import Foundation
import StrataStorage
import StrataTestSupport
import XCTest

/// The store remembers the catalog it last decoded or wrote; these pin that a remembered catalog is never served
/// for a version whose catalog differs.
final class CatalogCacheTests: XCTestCase {
    private var directory: TemporaryDirectory!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory(prefix: "strata-catalog-cache")
    }

    override func tearDown() {
        directory = nil
    }

    private func openStore() throws -> Store {
        try Store.open(path: directory.url.appendingPathComponent("cache.strata").path)
    }

    func testRolledBackCatalogChangeIsNotSeenByTheNextTransaction() throws {
        let store = try openStore()
        defer { store.close() }
        let first = try store.beginWrite()
        let catalog = try Catalog(writer: first)
        try catalog.createTable(named: "Person").addColumn(named: "name", type: .value(.string))
        try catalog.flush()
        try first.commit()

        // Flushed but rolled back: the store has seen this catalog's bytes, yet no version holds them.
        let abandoned = try store.beginWrite()
        let renaming = try Catalog(writer: abandoned)
        try renaming.renameTable("Person", to: "Customer")
        try renaming.createTable(named: "Order")
        try renaming.flush()
        abandoned.rollback()

        let next = try store.beginWrite()
        let reopened = try Catalog(writer: next)
        XCTAssertEqual(reopened.tables.map(\.name), ["Person"])
        next.rollback()
        let reader = try store.beginRead()
        defer { reader.end() }
        XCTAssertEqual(try Catalog(reader: reader).tables.map(\.name), ["Person"])
    }

    func testEachCommitOpensWithTheCatalogItWrote() throws {
        let store = try openStore()
        defer { store.close() }
        var expected: [String] = []
        var counts: [Int64] = []
        for step in 0..<6 {
            let transaction = try store.beginWrite()
            let catalog = try Catalog(writer: transaction)
            XCTAssertEqual(catalog.tables.map(\.name), expected, "step \(step)")
            XCTAssertEqual(catalog.tables.map(\.nextObjectKey), counts, "step \(step)")
            if step % 2 == 0 {
                let table = try catalog.createTable(named: "T\(step)")
                try table.addColumn(named: "value", type: .value(.int))
                expected.append("T\(step)")
                counts.append(0)
            }
            if let last = catalog.tables.last {
                try last.insert()
                counts[counts.count - 1] = last.nextObjectKey
            }
            try catalog.flush()
            try transaction.commit()
        }
        let reader = try store.beginRead()
        defer { reader.end() }
        let catalog = try Catalog(reader: reader)
        XCTAssertEqual(catalog.tables.map(\.name), expected)
        XCTAssertEqual(catalog.tables.map(\.nextObjectKey), counts)
        XCTAssertEqual(try catalog.tables.map { try $0.count() }, [2, 2, 2])
    }

    func testReaderOfAnOlderVersionSeesThatVersionsCatalog() throws {
        let store = try openStore()
        defer { store.close() }
        let first = try store.beginWrite()
        let catalog = try Catalog(writer: first)
        try catalog.createTable(named: "Old")
        try catalog.flush()
        try first.commit()
        let older = try store.beginRead()
        defer { older.end() }

        let second = try store.beginWrite()
        let changing = try Catalog(writer: second)
        try changing.renameTable("Old", to: "New")
        try changing.flush()
        try second.commit()

        XCTAssertEqual(try Catalog(reader: older).tables.map(\.name), ["Old"])
        let newer = try store.beginRead()
        defer { newer.end() }
        XCTAssertEqual(try Catalog(reader: newer).tables.map(\.name), ["New"])
        XCTAssertEqual(try Catalog(reader: older).tables.map(\.name), ["Old"])
    }
}
