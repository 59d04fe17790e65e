import Foundation
import StrataStorage
import StrataTestSupport
import XCTest

@testable import Strata

/// `unique: true` and `unique: [[a, b]]` (the `Members` schema, version 2) on every write path, in `verify()`,
/// and in the migration from version 1 that adds them.
final class UniquenessTests: XCTestCase {
    // Members' primary key is an int, so each object's key is its id: the holders below are ids.
    private var directory: TemporaryDirectory!
    private var path: String { directory.url.appendingPathComponent("members.strata").path }

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
    }

    override func tearDown() {
        directory = nil
    }

    private func configuration() -> Configuration {
        return Configuration(schema: Members.self).scratch(at: URL(fileURLWithPath: path))
    }

    private func open() throws -> Database { try Database(configuration: configuration()) }

    /// Asserts that `error` is the uniqueness error for `properties` holding `value`, held by object `holder`.
    private func assertViolation(
        _ error: Error, properties: [String], value: String, holder: Int64, line: UInt = #line
    ) {
        guard case StrataError.uniquenessViolation(let type, let names, let held, let key) = error else {
            return XCTFail("expected a uniqueness violation, got \(error)", line: line)
        }
        XCTAssertEqual(type, "Member", line: line)
        XCTAssertEqual(names, properties, line: line)
        XCTAssertEqual(held, value, line: line)
        XCTAssertEqual(key, holder, line: line)
        let message = "\(error)"
        XCTAssertTrue(message.contains("Member.\(properties[0])") && message.contains(value), message, line: line)
    }

    private func emails(_ db: Database) -> [String?] {
        db.objects(Member.self).sorted { $0.id < $1.id }.map(\.email)
    }

    func testAddRefusesATakenValueKeepsNothingAndNamesTheHolder() throws {
        let db = try open()
        try db.write { db.add(Member(id: 1, email: "ana@x", city: "Oslo", badge: 1)) }
        XCTAssertThrowsError(try db.write {
            db.add(Member(id: 2, email: "bo@x", city: "Rome", badge: 1))
            db.add(Member(id: 3, email: "ana@x", city: "Rome", badge: 2))
        }) { self.assertViolation($0, properties: ["email"], value: "\"ana@x\"", holder: 1) }
        XCTAssertEqual(emails(db), ["ana@x"], "the failed write keeps none of its objects")
        XCTAssertNoThrow(try db.verify())
    }

    func testNullsNeverCollide() throws {
        let db = try open()
        try db.write {
            db.add(Member(id: 1, email: nil, city: "Oslo", badge: 1))
            db.add(Member(id: 2, email: nil, city: "Oslo", badge: 2))
            db.add(Member(id: 3, email: nil, city: "Rome", badge: 1))
        }
        XCTAssertEqual(emails(db), [nil, nil, nil])
        let member = try XCTUnwrap(db.object(ofType: Member.self, forPrimaryKey: 3))
        try db.write { member.email = "c@x" }
        try db.write { member.email = nil }
        XCTAssertNoThrow(try db.verify())
    }

    func testCompoundRuleRefusesEqualValuesTogetherOnly() throws {
        let db = try open()
        try db.write {
            db.add(Member(id: 1, email: nil, city: "Oslo", badge: 1))
            db.add(Member(id: 2, email: nil, city: "Oslo", badge: 2))
            db.add(Member(id: 3, email: nil, city: "Rome", badge: 1))
        }
        XCTAssertThrowsError(try db.write { db.add(Member(id: 4, email: nil, city: "Rome", badge: 1)) }) {
            self.assertViolation($0, properties: ["city", "badge"], value: "(\"Rome\", 1)", holder: 3)
        }
        XCTAssertEqual(db.objects(Member.self).count, 3)
    }

    func testCreateAndUpsertAreChecked() throws {
        let db = try open()
        try db.write {
            db.create(Member.self, value: ["id": 1, "email": "ana@x", "city": "Oslo", "badge": 1])
            db.create(Member.self, value: ["id": 2, "email": "bo@x", "city": "Oslo", "badge": 2])
        }
        XCTAssertThrowsError(try db.write {
            db.create(Member.self, value: ["id": 3, "email": "bo@x", "city": "Rome", "badge": 1])
        }) { self.assertViolation($0, properties: ["email"], value: "\"bo@x\"", holder: 2) }
        XCTAssertThrowsError(try db.write {
            db.create(Member.self, value: ["id": 2, "email": "ana@x"], update: .modified)
        }) { self.assertViolation($0, properties: ["email"], value: "\"ana@x\"", holder: 1) }
        XCTAssertThrowsError(try db.write {
            db.add(Member(id: 1, email: "ana@x", city: "Oslo", badge: 2), update: .all)
        }) { self.assertViolation($0, properties: ["city", "badge"], value: "(\"Oslo\", 2)", holder: 2) }
        // An object keeps its own value: updating it to what it holds is no collision.
        try db.write { db.add(Member(id: 1, email: "ana@x", city: "Oslo", badge: 1), update: .all) }
        XCTAssertEqual(emails(db), ["ana@x", "bo@x"])
        XCTAssertNoThrow(try db.verify())
    }

    func testPropertySetIsCheckedAndTheWriteKeepsNothing() throws {
        let db = try open()
        try db.write {
            db.add(Member(id: 1, email: "ana@x", city: "Oslo", badge: 1))
            db.add(Member(id: 2, email: "bo@x", city: "Oslo", badge: 2))
        }
        let bo = try XCTUnwrap(db.object(ofType: Member.self, forPrimaryKey: 2))
        XCTAssertThrowsError(try db.write {
            bo.city = "Rome"
            bo.email = "ana@x"
        }) { self.assertViolation($0, properties: ["email"], value: "\"ana@x\"", holder: 1) }
        XCTAssertEqual(bo.city, "Oslo", "the whole write rolled back")
        XCTAssertEqual(bo.email, "bo@x")
        XCTAssertThrowsError(try db.write { bo.badge = 1 }) {
            self.assertViolation($0, properties: ["city", "badge"], value: "(\"Oslo\", 1)", holder: 1)
        }
        // Swapping values through a free one works.
        try db.write {
            bo.email = "tmp"
            try XCTUnwrap(db.object(ofType: Member.self, forPrimaryKey: 1)).email = "bo@x"
            bo.email = "ana@x"
        }
        XCTAssertEqual(emails(db), ["bo@x", "ana@x"])
        XCTAssertNoThrow(try db.verify())
    }

    func testRandomWritesAgainstABruteForceModel() throws {
        let db = try open()
        var generator = SplitMix(seed: 27)
        var model: [Int: (email: String?, city: String, badge: Int)] = [:]
        func collides(_ id: Int, _ row: (email: String?, city: String, badge: Int)) -> Bool {
            model.contains { other in
                other.key != id && ((row.email != nil && other.value.email == row.email)
                    || (other.value.city == row.city && other.value.badge == row.badge))
            }
        }
        for _ in 0..<400 {
            let id = Int(generator.next() % 12)
            let email: String? = generator.next() % 3 == 0 ? nil : "e\(generator.next() % 8)"
            let city = ["Oslo", "Rome"][Int(generator.next() % 2)]
            let row = (email: email, city: city, badge: Int(generator.next() % 4))
            let expectFailure = collides(id, row)
            do {
                try db.write {
                    if let member = db.object(ofType: Member.self, forPrimaryKey: id) {
                        member.email = row.email
                        member.city = row.city
                        member.badge = row.badge
                    } else {
                        db.add(Member(id: id, email: row.email, city: row.city, badge: row.badge))
                    }
                }
                XCTAssertFalse(expectFailure, "\(id) \(row) was accepted beside \(model)")
                model[id] = row
            } catch StrataError.uniquenessViolation {
                // Setting one property at a time may collide on the way even when the final row would not.
                if !expectFailure, model[id] == nil { XCTFail("\(id) \(row) was refused beside \(model)") }
            }
            let stored = Dictionary(uniqueKeysWithValues: db.objects(Member.self).map {
                ($0.id, "\($0.email ?? "-") \($0.city) \($0.badge)")
            })
            XCTAssertEqual(stored, model.mapValues { "\($0.email ?? "-") \($0.city) \($0.badge)" })
        }
        XCTAssertNoThrow(try db.verify())
    }

    func testStrataInfoListsTheRules() throws {
        let db = try open()
        try db.write { db.add(Member(id: 1, email: "ana@x", city: "Oslo", badge: 1)) }
        let info = try BuiltExecutable(named: "strata").run(["info", path])
        XCTAssertEqual(info.status, 0, info.errorOutput)
        XCTAssertTrue(info.output.contains("    unique: email; city + badge"), info.output)
    }

    // MARK: Migration

    private func writeVersion1(_ rows: [(Int, String?, String, Int)]) throws {
        let definition = try XCTUnwrap(Members.history.versions.first { $0.version == 1 })
        let store = try Store.open(path: path, options: StoreOptions(durability: .none))
        let write = try store.beginWrite()
        let catalog = try Catalog(writer: write)
        let binder = SchemaBinder(configuration: configuration(), path: path)
        for model in definition.models { try catalog.createTable(named: model.name) }
        let tables = Dictionary(uniqueKeysWithValues: catalog.tables.map { ($0.name, $0) })
        for model in definition.models {
            let table = try XCTUnwrap(tables[model.name])
            for property in model.persistedProperties { try binder.addColumn(for: property, to: table, tables: tables) }
            try binder.addIndexes(of: model, to: table)
        }
        try SchemaRecord(
            schema: Members.name, version: 1, fingerprints: ["1": try XCTUnwrap(Members.fingerprints[1])]
        ).write(to: catalog)
        let table = try XCTUnwrap(catalog.table(named: "Member"))
        for (id, email, city, badge) in rows {
            let columns = ["id", "email", "city", "badge"].map { table.column(named: $0)!.key }
            try table.insert(
                [.int(Int64(id)), email.map { .string($0) } ?? .null, .string(city), .int(Int64(badge))], into: columns)
        }
        try catalog.flush()
        try write.commit()
        store.close()
    }

    func testMigrationAddingARuleFailsNamingTheDuplicatesAndKeepsTheFile() throws {
        try writeVersion1([(1, "a", "Oslo", 1), (2, "a", "Rome", 1), (3, nil, "Oslo", 2), (4, nil, "Rome", 2)])
        let before = try FileContents.render(path: path)
        XCTAssertThrowsError(try open()) { error in
            let message = "\(error)"
            XCTAssertTrue(message.contains("Member.email becomes unique"), message)
            XCTAssertTrue(message.contains("\"a\" is held by 2 objects (object keys 1, 2)"), message)
        }
        XCTAssertEqual(try FileContents.render(path: path), before, "a refused migration leaves the file as it was")
    }

    func testTheMigrationBlockCanMakeValuesUniqueBeforeTheRuleIsChecked() throws {
        try writeVersion1([(1, "a", "Oslo", 1), (2, "a", "Rome", 1), (3, nil, "Oslo", 1)])
        var configuration = configuration()
        configuration.migrationBlock = { migration in
            try migration.enumerateObjects(ofType: "Member") { _, new in
                guard let new, let id = new["id"] as? Int else { return }
                new["email"] = "m\(id)"
                new["badge"] = id
            }
        }
        let db = try Database(configuration: configuration)
        XCTAssertEqual(emails(db), ["m1", "m2", "m3"])
        XCTAssertThrowsError(try db.write { db.add(Member(id: 4, email: "m1", city: "Bonn", badge: 9)) }) {
            self.assertViolation($0, properties: ["email"], value: "\"m1\"", holder: 1)
        }
        XCTAssertNoThrow(try db.verify())
    }

    func testMigrationAddingRulesToUniqueDataBuildsThem() throws {
        try writeVersion1([(1, "a", "Oslo", 1), (2, nil, "Oslo", 2), (3, nil, "Rome", 1)])
        let db = try open()
        XCTAssertEqual(db.objects(Member.self).count, 3)
        XCTAssertThrowsError(try db.write { db.add(Member(id: 4, email: nil, city: "Rome", badge: 1)) }) {
            self.assertViolation($0, properties: ["city", "badge"], value: "(\"Rome\", 1)", holder: 3)
        }
        XCTAssertNoThrow(try db.verify())
    }
}

/// A small seeded generator, so that a failure can be replayed.
private struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
