import Foundation
import StrataSchema
import StrataStorage
import StrataTestSupport
import XCTest

@testable import Strata

/// The typed custom step of `Moves` version 2: gives each tenant a flat of its own (a copy) when `copiesShared`.
struct TestMovesMigrations: MovesMigrations {
    var copiesShared = false

    func migrateTenant(from old: Moves.V1.Tenant, to new: Moves.V2.Tenant) throws {
        guard copiesShared else { return }
        if let flat = old.flat { new.flat = Flat(street: flat.street + " (own)") }
        // Read first: the old view reads the same stored list the new one changes.
        let streets = old.pastFlats.map(\.street)
        new.pastFlats.removeAll()
        for street in streets { new.pastFlats.append(Flat(street: street + " (past)")) }
    }
}

/// Migrations of embedded models: a model becoming embedded (orphans and shared objects refused unless the
/// version's custom code resolves them, the file left as it was), one stopping being embedded, and embedded
/// properties added and removed.
final class EmbeddedMigrationTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var path: String { directory.url.appendingPathComponent("moves.strata").path }

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
    }

    override func tearDown() {
        directory = nil
    }

    /// Writes version `version` of `schema` through the storage layer, with the objects `fill` inserts.
    private func writeOldFile<S: Schema>(
        _ schema: S.Type, version: Int, configuration: Configuration, fill: (Catalog) throws -> Void
    ) throws {
        let definition = try XCTUnwrap(schema.history.versions.first { $0.version == version })
        let store = try Store.open(path: path, options: StoreOptions(durability: .none))
        let write = try store.beginWrite()
        let catalog = try Catalog(writer: write)
        let binder = SchemaBinder(configuration: configuration, path: path)
        for model in definition.models {
            try catalog.createTable(named: model.name).setEmbedded(model.isEmbedded)
        }
        let tables = Dictionary(uniqueKeysWithValues: catalog.tables.map { ($0.name, $0) })
        for model in definition.models {
            guard let table = tables[model.name] else { continue }
            for property in model.persistedProperties { try binder.addColumn(for: property, to: table, tables: tables) }
            try binder.addIndexes(of: model, to: table)
        }
        let fingerprints = schema.fingerprints.filter { $0.key <= version }
        try SchemaRecord(
            schema: schema.name, version: version,
            fingerprints: Dictionary(uniqueKeysWithValues: fingerprints.map { (String($0.key), $0.value) })
        ).write(to: catalog)
        try fill(catalog)
        try catalog.flush()
        try write.commit()
        store.close()
    }

    private func insert(_ catalog: Catalog, _ model: String, _ values: [String: StorageValue]) throws -> ObjectKey {
        let table = try XCTUnwrap(catalog.table(named: model))
        return try table.insert(values.map { (try XCTUnwrap(table.column(named: $0.key)).key, $0.value) })
    }

    private func movesConfiguration(_ migrations: TestMovesMigrations = TestMovesMigrations()) -> Configuration {
        return Configuration(schema: Moves.self, migrations: migrations).scratch(at: URL(fileURLWithPath: path))
    }

    /// Tenant 1 owns flat A and lists B; tenant 2 shares A; flat C belongs to nobody.
    private func writeMovesVersion1() throws {
        try writeOldFile(Moves.self, version: 1, configuration: movesConfiguration()) { catalog in
            let shared = try insert(catalog, "Flat", ["street": .string("A")])
            let past = try insert(catalog, "Flat", ["street": .string("B")])
            _ = try insert(catalog, "Flat", ["street": .string("C")])
            _ = try insert(catalog, "Tenant", [
                "id": .int(1), "name": .string("Ana"), "flat": .link(shared), "pastFlats": .list([.link(past)]),
            ])
            _ = try insert(catalog, "Tenant", ["id": .int(2), "name": .string("Bo"), "flat": .link(shared)])
        }
    }

    func testBecomingEmbeddedRefusesOrphansAndSharedObjectsNamingThemAndKeepsTheFile() throws {
        try writeMovesVersion1()
        let before = try FileContents.render(path: path)
        XCTAssertThrowsError(try Database(configuration: movesConfiguration())) { error in
            let message = "\(error)"
            XCTAssertTrue(message.contains("makes Flat embedded"), message)
            XCTAssertTrue(message.contains("1 Flat objects have no owner (object keys 2)"), message)
            XCTAssertTrue(message.contains("object 0: 2 owners"), message)
        }
        XCTAssertEqual(try FileContents.render(path: path), before, "a refused migration leaves the file as it was")
    }

    func testCustomCodeThatGivesEveryObjectOneOwnerLetsTheModelBecomeEmbedded() throws {
        try writeMovesVersion1()
        var configuration = movesConfiguration(TestMovesMigrations(copiesShared: true))
        configuration.migrationBlock = { migration in
            // The copies leave the old flats without owners: delete them.
            try migration.enumerateObjects(ofType: "Flat") { _, flat in
                guard let flat, let street = flat["street"] as? String, !street.contains("(") else { return }
                try migration.delete(flat)
            }
        }
        let db = try Database(configuration: configuration)
        let ana = try XCTUnwrap(db.object(ofType: Tenant.self, forPrimaryKey: 1))
        let bo = try XCTUnwrap(db.object(ofType: Tenant.self, forPrimaryKey: 2))
        XCTAssertEqual(ana.flat?.street, "A (own)")
        XCTAssertEqual(bo.flat?.street, "A (own)")
        XCTAssertFalse(ana.flat?.isSameObject(as: bo.flat) ?? true, "each tenant has a copy of its own")
        XCTAssertEqual(ana.pastFlats.map(\.street), ["B (past)"])
        let flats = try db.table(for: XCTUnwrap(db.schema.model(named: "Flat")))
        XCTAssertEqual(try flats.count(), 3)
        XCTAssertTrue(flats.isEmbedded)
        // The new version's rules hold from now on: replacing a flat deletes the old one, a new list starts empty.
        try db.write { ana.flat = Flat(street: "D") }
        XCTAssertEqual(try db.table(for: XCTUnwrap(db.schema.model(named: "Flat"))).count(), 3)
        XCTAssertTrue(ana.rooms.isEmpty)
        try db.write { ana.rooms.append(Room(size: 12)) }
        XCTAssertEqual(ana.rooms.first?.size, 12)
    }

    func testAnEmbeddedObjectTheMigrationCodeLeavesWithoutAnOwnerIsRefused() throws {
        try writeMovesVersion1()
        var configuration = movesConfiguration(TestMovesMigrations(copiesShared: true))
        configuration.migrationBlock = { migration in
            try migration.enumerateObjects(ofType: "Flat") { _, flat in
                guard let flat, let street = flat["street"] as? String, !street.contains("(") else { return }
                try migration.delete(flat)
            }
            try migration.create("Room", value: ["size": 3])
        }
        XCTAssertThrowsError(try Database(configuration: configuration)) { error in
            XCTAssertTrue("\(error)".contains("keeps Room embedded, but 1 Room objects have no owner"), "\(error)")
        }
    }

    func testStoppingBeingEmbeddedKeepsTheObjectsAndRemovingAnEmbeddedListDeletesItsObjects() throws {
        let configuration = Configuration(schema: Nests.self).scratch(at: URL(fileURLWithPath: path))
        try writeOldFile(Nests.self, version: 1, configuration: configuration) { catalog in
            let high = try insert(catalog, "Nest", ["height": .int(9)])
            let low = try insert(catalog, "Nest", ["height": .int(1)])
            let older = try insert(catalog, "Nest", ["height": .int(4)])
            let eggs = try (1...3).map { try insert(catalog, "Egg", ["weight": .int($0)]) }
            _ = try insert(catalog, "Bird", [
                "id": .int(1), "nest": .link(high), "oldNests": .list([.link(older)]),
                "eggs": .list([.link(eggs[0])]), "spareEggs": .list([.link(eggs[1]), .link(eggs[2])]),
            ])
            _ = try insert(catalog, "Bird", ["id": .int(2), "nest": .link(low)])
        }
        let db = try Database(configuration: configuration)
        let nests = db.objects(Nest.self).sorted(byKeyPath: "height")
        XCTAssertEqual(nests.map(\.height), [1, 4, 9], "a model that stops being embedded keeps every object")
        let eggTable = try db.table(for: XCTUnwrap(db.schema.model(named: "Egg")))
        XCTAssertEqual(try eggTable.count(), 1, "the spare eggs went with their list")
        let bird = try XCTUnwrap(db.object(ofType: Bird.self, forPrimaryKey: 1))
        XCTAssertEqual(bird.eggs.map(\.weight), [1])
        let high = try XCTUnwrap(bird.nest)
        try db.write { bird.nest = nil }
        XCTAssertFalse(high.isInvalidated, "a top-level nest outlives its link")
        try db.write {
            db.object(ofType: Bird.self, forPrimaryKey: 2)?.nest = high
            bird.nest = high
        }
        XCTAssertEqual(db.objects(Nest.self).count, 3, "and may be shared")
    }
}
