import Foundation
import StrataSchema
import StrataStorage
import StrataTestSupport
import XCTest

@testable import Strata

/// Indexed sets (`indexed: true` on a `set<T>`, docs/SCHEMA.md "Indexed sets") on the `Tagbook` model `Tagger`: the
/// planner answers `ANY tags == x`, `x IN tags`, `ANY tags IN {…}`, `ANY tags BEGINSWITH x` and `ANY codes > n` from
/// the index (explain says so), with the results and counts of the scan of `moods`, an unindexed set holding the same
/// strings; the index follows inserts, element changes, replaced sets and deletes (`verify()` compares it with the
/// objects; `SetIndexStorageTests` breaks it on purpose); migrations build and drop it.
final class SetIndexTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var path: String { directory.url.appendingPathComponent("tagbook.strata").path }

    override func setUpWithError() throws { directory = try TemporaryDirectory() }
    override func tearDown() { directory = nil }

    private var configuration: Configuration {
        return Configuration(schema: Tagbook.self).scratch(at: URL(fileURLWithPath: path))
    }

    /// Tags of member `i`: a few of a small pool, so that values repeat across members and some members have none.
    private func tags(_ i: Int) -> [String] {
        (0..<(i % 4)).map { "t\((i * 7 + $0 * 5) % 13)" } + (i % 5 == 0 ? ["", "a\u{0}b"] : [])
    }

    private func codes(_ i: Int) -> [Int?] {
        (0..<(i % 3)).map { $0 == 1 && i % 2 == 0 ? nil : (i * 3 + $0) % 11 - 4 }
    }

    private func fill(_ db: Database, count: Int = 60) throws {
        try db.write {
            for i in 0..<count {
                db.add(Tagger(id: i, name: "m\(i)", tags: tags(i), moods: tags(i), codes: codes(i)))
            }
        }
    }

    private func ids(_ results: Results<Tagger>) -> [Int] { results.map(\.id).sorted() }

    /// Every indexed query against the scan of `moods` (the same strings, no index), and its count.
    private func checkAgainstScan(_ db: Database, file: StaticString = #filePath, line: UInt = #line) throws {
        let members = db.objects(Tagger.self)
        let constants = (0..<14).map { "t\($0)" } + ["", "a\u{0}b", "zz"]
        for value in constants {
            let indexed = try members.filter("ANY tags == %@", value)
            XCTAssertTrue(indexed.explain.hasPrefix("index Tagger."), indexed.explain, file: file, line: line)
            let scanned = try members.filter("ANY moods == %@", value)
            XCTAssertFalse(scanned.explain.contains("index"), scanned.explain, file: file, line: line)
            XCTAssertEqual(ids(indexed), ids(scanned), value, file: file, line: line)
            XCTAssertEqual(indexed.count, scanned.count, value, file: file, line: line)
            XCTAssertEqual(ids(try members.filter("%@ IN tags", value)), ids(scanned), value, file: file, line: line)
        }
        let pairs = try members.filter("ANY tags IN %@", ["t1", "t4", "zz"])
        XCTAssertTrue(pairs.explain.hasPrefix("index Tagger."), pairs.explain, file: file, line: line)
        let scannedPairs = try members.filter("ANY moods IN %@", ["t1", "t4", "zz"])
        XCTAssertEqual(ids(pairs), ids(scannedPairs), file: file, line: line)
        XCTAssertEqual(pairs.count, scannedPairs.count, file: file, line: line)
        let prefix = try members.filter("ANY tags BEGINSWITH %@", "t1")
        XCTAssertTrue(prefix.explain.hasPrefix("index Tagger."), prefix.explain, file: file, line: line)
        XCTAssertEqual(ids(prefix), ids(try members.filter("ANY moods BEGINSWITH %@", "t1")), file: file, line: line)
        XCTAssertEqual(prefix.count, try members.filter("ANY moods BEGINSWITH %@", "t1").count, file: file, line: line)
        // With another term: the index's members, then the term checked on each.
        let both = try members.filter("ANY tags == %@ AND id > 20", "t3")
        XCTAssertEqual(ids(both), ids(try members.filter("ANY moods == %@ AND id > 20", "t3")), file: file, line: line)
        // ALL and NONE are never answered from an index of matching elements.
        for quantified in ["ALL tags == %@", "NONE tags == %@"] {
            let results = try members.filter(quantified, "t3")
            XCTAssertFalse(results.explain.hasPrefix("index"), results.explain, file: file, line: line)
            let moods = quantified.replacingOccurrences(of: "tags", with: "moods")
            XCTAssertEqual(ids(results), ids(try members.filter(moods, "t3")), file: file, line: line)
        }
        // Ints, with nil elements in the sets: equality and ranges against what the objects hold.
        let all = Array(members)
        for number in -5...7 {
            let equal = try members.filter("ANY codes == %@", number)
            XCTAssertTrue(equal.explain.hasPrefix("index Tagger."), equal.explain, file: file, line: line)
            let holding = all.filter { $0.codes.contains(number) }.map(\.id).sorted()
            XCTAssertEqual(ids(equal), holding, file: file, line: line)
            XCTAssertEqual(equal.count, ids(equal).count, file: file, line: line)
            let above = try members.filter("ANY codes > %@", number)
            let expected = all.filter { $0.codes.contains { ($0 ?? .min) > number } }.map(\.id).sorted()
            XCTAssertEqual(ids(above), expected, "codes > \(number)", file: file, line: line)
            XCTAssertEqual(above.count, expected.count, "codes > \(number)", file: file, line: line)
        }
        let holdingNil = all.filter { $0.codes.contains(nil) }.map(\.id).sorted()
        XCTAssertEqual(ids(try members.filter("ANY codes == nil")), holdingNil, file: file, line: line)
        XCTAssertNoThrow(try db.verify(), file: file, line: line)
    }

    func testThePlannerAnswersFromTheIndexWithTheScansResults() throws {
        let db = try Database(configuration: configuration)
        try fill(db)
        try checkAgainstScan(db)
        let table = try db.table(for: try XCTUnwrap(db.schema.models.first { $0.name == "Tagger" }))
        let wanted = try ["id", "tags", "codes"].map { [try XCTUnwrap(table.column(named: $0)).key] }
        XCTAssertEqual(Set(table.indexSpecs.map(\.columns)), Set(wanted), "the primary key's, tags' and codes'")
    }

    func testTheIndexFollowsElementChangesReplacedSetsAndDeletes() throws {
        let db = try Database(configuration: configuration)
        try fill(db)
        let members = db.objects(Tagger.self)
        try db.write {
            for member in members where member.id % 3 == 0 {
                member.tags.insert("t99")
                member.moods.insert("t99")
                member.tags.remove("t1")
                member.moods.remove("t1")
                member.codes.insert(42)
            }
            for member in members where member.id % 7 == 1 {
                member.tags.removeAll()
                member.moods.removeAll()
                member.codes.removeAll()
            }
        }
        try checkAgainstScan(db)
        XCTAssertEqual(ids(try members.filter("ANY tags == 't99'")), (0..<60).filter { $0 % 3 == 0 && $0 % 7 != 1 })
        XCTAssertEqual(try members.filter("ANY codes == 42").count, ids(try members.filter("ANY codes == 42")).count)
        try db.write {
            // Replaced sets (an update of the whole object) and deleted objects.
            for i in stride(from: 1, to: 60, by: 4) {
                let replaced = Tagger(id: i, name: "r\(i)", tags: ["t2", "new"], moods: ["t2", "new"], codes: [1])
                db.add(replaced, update: .all)
            }
            db.delete(try members.filter("id >= 50"))
            db.delete(try members.filter("ANY tags == 't5'"))
        }
        try checkAgainstScan(db)
        XCTAssertEqual(ids(try members.filter("ANY tags == 'new'")), stride(from: 1, to: 50, by: 4).map { $0 })
        XCTAssertEqual(try members.filter("ANY tags == 't5'").count, 0)
    }

    /// Writes a file at `version` through the storage layer, as an older release left it.
    private func writeFile(version: Int, count: Int) throws {
        let schema = try XCTUnwrap(Tagbook.history.versions.first { $0.version == version })
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
        for (number, fingerprint) in Tagbook.fingerprints where number <= version {
            fingerprints[String(number)] = fingerprint
        }
        try SchemaRecord(schema: "Tagbook", version: version, fingerprints: fingerprints).write(to: catalog)
        let table = try XCTUnwrap(catalog.table(named: "Tagger"))
        let columns = Dictionary(uniqueKeysWithValues: table.columns.map { ($0.name, $0.key) })
        for i in 0..<count {
            let strings = StorageValue.list(tags(i).map { .string($0) })
            try table.insert([
                (try XCTUnwrap(columns["id"]), .int(Int64(i))), (try XCTUnwrap(columns["name"]), .string("m\(i)")),
                (try XCTUnwrap(columns["tags"]), strings), (try XCTUnwrap(columns["moods"]), strings),
                (try XCTUnwrap(columns["codes"]), .list(codes(i).map { $0.map { .int(Int64($0)) } ?? .null })),
            ])
        }
        XCTAssertEqual(table.indexSpecs.count, version == 2 ? 3 : 1, "the primary key's; tags' and moods' in version 2")
        try catalog.verify()
        try catalog.flush()
        try write.commit()
        store.close()
    }

    func testMigratingFromNoIndexBuildsTheSetIndexes() throws {
        try writeFile(version: 1, count: 60)
        let db = try Database(configuration: configuration)
        try checkAgainstScan(db)
    }

    func testMigratingDropsTheSetIndexNoLongerWanted() throws {
        try writeFile(version: 2, count: 60)
        let db = try Database(configuration: configuration)
        try checkAgainstScan(db)
        let table = try db.table(for: try XCTUnwrap(db.schema.models.first { $0.name == "Tagger" }))
        let moods = try XCTUnwrap(table.column(named: "moods"))
        XCTAssertNil(table.index(on: [moods.key]))
    }
}
