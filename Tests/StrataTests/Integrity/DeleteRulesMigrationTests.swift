import Foundation
import StrataSchema
import StrataStorage
import StrataTestSupport
import XCTest

@testable import Strata

/// Delete rules in migrations: `Graph` version 2 changes `Vertex.spare` from `deny` to `cascade`, a step that
/// changes no data, and a migration block's deletes follow the new version's rules.
final class DeleteRulesMigrationTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var path: String { directory.url.appendingPathComponent("graph.strata").path }

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
    }

    override func tearDown() {
        directory = nil
    }

    /// Writes version 1 of `Graph` through the storage layer: vertices 1 to 4, `1.spare = 2`, `3.itemsDeny = [4]`,
    /// and warden `w` owning vertex 4.
    private func writeVersion1() throws {
        let definition = try XCTUnwrap(Graph.history.versions.first { $0.version == 1 })
        let store = try Store.open(path: path, options: StoreOptions(durability: .none))
        let write = try store.beginWrite()
        let catalog = try Catalog(writer: write)
        let binder = SchemaBinder(configuration: GraphRendering.configuration(path: path), path: path)
        for model in definition.models {
            try catalog.createTable(named: model.name).setEmbedded(model.isEmbedded)
        }
        let tables = Dictionary(uniqueKeysWithValues: catalog.tables.map { ($0.name, $0) })
        for model in definition.models {
            let table = try XCTUnwrap(tables[model.name])
            for property in model.persistedProperties { try binder.addColumn(for: property, to: table, tables: tables) }
            try binder.addIndexes(of: model, to: table)
        }
        try SchemaRecord(
            schema: Graph.name, version: 1, fingerprints: ["1": try XCTUnwrap(Graph.fingerprints[1])]
        ).write(to: catalog)
        let vertices = try XCTUnwrap(tables["Vertex"])
        func column(_ name: String) throws -> ColumnKey { try XCTUnwrap(vertices.column(named: name)).key }
        let keys = try (1...4).map { try vertices.insert([(try column("id"), .int(Int64($0)))]) }
        try vertices.set(keys[0], column: try column("spare"), to: .link(keys[1]))
        try vertices.set(keys[2], column: try column("itemsDeny"), to: .list([.link(keys[3])]))
        let wardens = try XCTUnwrap(tables["Warden"])
        try wardens.insert([
            (try XCTUnwrap(wardens.column(named: "name")).key, .string("w")),
            (try XCTUnwrap(wardens.column(named: "owned")).key, .list([.link(keys[3])])),
        ])
        try catalog.flush()
        try write.commit()
        store.close()
    }

    /// Opens the file at version 2 with a migration block that deletes the vertex with id `id`.
    private func openDeleting(_ id: Int) throws -> Database {
        var configuration = GraphRendering.configuration(path: path)
        configuration.migrationBlock = { migration in
            var found: [MigrationObject] = []
            try migration.enumerateObjects(ofType: "Vertex") { _, new in
                if let new, new["id"] as? Int == id { found.append(new) }
            }
            for object in found { try migration.delete(object) }
        }
        return try Database(configuration: configuration)
    }

    func testTheRuleChangeIsAStepWithNoDataChange() throws {
        let plan = try XCTUnwrap(Graph.history.plans.first { $0.fromVersion == 1 })
        XCTAssertEqual(plan.steps, [.changeDeleteRule(model: "Vertex", property: "spare", from: .deny, to: .cascade)])
        XCTAssertEqual(plan.steps.first?.summary,
            "change the delete rule of Vertex.spare from deny to cascade (no data changes: the new rule applies to "
                + "later deletes)")
        try writeVersion1()
        let db = try Database(configuration: GraphRendering.configuration(path: path))
        XCTAssertEqual(db.objects(Vertex.self).map(\.id).sorted(), [1, 2, 3, 4])
        XCTAssertEqual(db.object(ofType: Vertex.self, forPrimaryKey: 1)?.spare?.id, 2)
    }

    func testAMigrationDeleteFollowsTheNewVersionsRules() throws {
        try writeVersion1()
        let db = try openDeleting(1)
        XCTAssertEqual(db.objects(Vertex.self).map(\.id).sorted(), [3, 4], "spare cascades in version 2")
        XCTAssertNoThrow(try db.verify())
    }

    func testADeniedMigrationDeleteFailsTheMigrationAndKeepsTheFile() throws {
        try writeVersion1()
        let before = try FileContents.render(path: path)
        XCTAssertThrowsError(try openDeleting(3)) { error in
            let message = "\(error)"
            XCTAssertTrue(message.contains("Vertex.itemsDeny") && message.contains("1 object"), message)
        }
        XCTAssertEqual(try FileContents.render(path: path), before, "a failed migration leaves the file as it was")
    }

    func testDeleteDataAppliesTheRulesOfTheNewVersion() throws {
        try writeVersion1()
        var configuration = GraphRendering.configuration(path: path)
        configuration.migrationBlock = { migration in
            XCTAssertTrue(try migration.deleteData(forType: "Warden"))
        }
        let db = try Database(configuration: configuration)
        XCTAssertEqual(db.objects(Warden.self).count, 0)
        XCTAssertEqual(db.objects(Vertex.self).map(\.id).sorted(), [1, 2, 3], "Warden.owned cascades to vertex 4")
        XCTAssertEqual(db.object(ofType: Vertex.self, forPrimaryKey: 3)?.itemsDeny.count, 0)
    }
}
