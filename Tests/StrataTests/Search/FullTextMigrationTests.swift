import Foundation
import StrataSchema
import StrataStorage
import StrataTestSupport
import XCTest

@testable import Strata

/// Migrations add and drop full-text indexes: a file of `Search` version 1 (no index) opened by the code (version
/// 3) gets body's index built from its objects on the way through version 2, and summary's built and dropped; a
/// version-2 file loses summary's index.
final class FullTextMigrationTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var path: String { directory.url.appendingPathComponent("search.strata").path }

    override func setUpWithError() throws { directory = try TemporaryDirectory() }
    override func tearDown() { directory = nil }

    private var configuration: Configuration {
        return Configuration(schema: Search.self).scratch(at: URL(fileURLWithPath: path))
    }

    /// Writes a file at `version` through the storage layer, as an older release left it, with `bodies`.
    private func writeFile(version: Int, bodies: [String]) throws {
        let schema = try XCTUnwrap(Search.history.versions.first { $0.version == version })
        let store = try Store.open(path: path, options: StoreOptions(durability: .none))
        let write = try store.beginWrite()
        let catalog = try Catalog(writer: write)
        let binder = SchemaBinder(configuration: configuration, path: path)
        for model in schema.models { try catalog.createTable(named: model.name) }
        let tables = Dictionary(uniqueKeysWithValues: catalog.tables.map { ($0.name, $0) })
        for model in schema.models {
            let table = try XCTUnwrap(tables[model.name])
            for property in model.persistedProperties { try binder.addColumn(for: property, to: table, tables: tables) }
            try binder.addIndexes(of: model, to: table)
        }
        var fingerprints: [String: String] = [:]
        for (number, fingerprint) in Search.fingerprints where number <= version {
            fingerprints[String(number)] = fingerprint
        }
        try SchemaRecord(schema: "Search", version: version, fingerprints: fingerprints).write(to: catalog)
        let table = try XCTUnwrap(catalog.table(named: "Document"))
        let columns = Dictionary(uniqueKeysWithValues: table.columns.map { ($0.name, $0.key) })
        for (id, body) in bodies.enumerated() {
            try table.insert([
                (try XCTUnwrap(columns["id"]), .int(Int64(id))), (try XCTUnwrap(columns["title"]), .string("t\(id)")),
                (try XCTUnwrap(columns["body"]), .string(body)), (try XCTUnwrap(columns["summary"]), .string(body)),
            ])
        }
        XCTAssertEqual(table.fullTextIndexSpecs.count, version == 2 ? 2 : 0)
        try catalog.flush()
        try write.commit()
        store.close()
    }

    private let bodies = ["Émile aime le café", "数据库管理系统", "swift data", "the café data base", ""]

    private func checkMigrated() throws {
        let db = try Database(configuration: configuration)
        let body = try db.objects(Document.self).filter("body TEXT %@", "cafe")
        XCTAssertTrue(body.explain.contains("full-text index"), body.explain)
        XCTAssertEqual(body.map(\.id).sorted(), [0, 3])
        XCTAssertEqual(try db.objects(Document.self).filter("body TEXT %@", "数据").map(\.id), [1])
        let summary = try db.objects(Document.self).filter("summary TEXT %@", "data")
        XCTAssertFalse(summary.explain.contains("full-text index"), summary.explain)
        XCTAssertEqual(summary.map(\.id).sorted(), [2, 3])
        XCTAssertNoThrow(try db.verify())
        let table = try db.table(for: try XCTUnwrap(db.schema.models.first { $0.name == "Document" }))
        XCTAssertEqual(table.fullTextIndexSpecs.count, 1)
    }

    func testMigratingFromNoIndexBuildsTheIndexFromTheObjects() throws {
        try writeFile(version: 1, bodies: bodies)
        try checkMigrated()
    }

    func testMigratingFromTwoIndexesDropsTheOneNoLongerWanted() throws {
        try writeFile(version: 2, bodies: bodies)
        try checkMigrated()
    }
}
