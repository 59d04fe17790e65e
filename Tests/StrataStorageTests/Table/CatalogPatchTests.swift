@testable import StrataStorage
import StrataTestSupport
import XCTest

/// A flush whose tables only moved their roots rewrites the root fields in a copy of the catalog node
/// (`Catalog.flush`); anything else about a table changed takes the full encoding. Either way the catalog read
/// back is the table as it is.
final class CatalogPatchTests: XCTestCase {
    /// Two tables: "People" with an indexed name and a score, "Log" with a number.
    private func makeTables(_ fixture: TableFixture) throws -> (keys: [ObjectKey], name: ColumnKey, score: ColumnKey, number: ColumnKey) {
        let people = try fixture.catalog.createTable(named: "People")
        let name = try people.addColumn(named: "name", type: .value(.string))
        let score = try people.addColumn(named: "score", type: .value(.double))
        _ = try people.addIndex(on: [name])
        let keys = try (0..<1_500).map { try people.insert([(name, .string("person \($0)")), (score, .double(Double($0)))]) }
        let log = try fixture.catalog.createTable(named: "Log")
        let number = try log.addColumn(named: "number", type: .value(.int))
        for index in 0..<10 { try log.insert([(number, .int(Int64(index)))]) }
        try fixture.commit()
        return (keys, name, score, number)
    }

    private func rootBytes(_ fixture: TableFixture) throws -> [UInt8] { Array(try fixture.space.read(fixture.space.root)) }

    func testMovedClusterRootIsTheOnlyChangeToTheCatalogNode() throws {
        let fixture = try TableFixture()
        let (keys, _, score, _) = try makeTables(fixture)
        let before = try rootBytes(fixture)
        let people = try XCTUnwrap(fixture.catalog.table(named: "People"))
        try people.set(keys[700], column: score, to: .double(-7))
        try fixture.catalog.flush()
        let after = try rootBytes(fixture)
        XCTAssertEqual(after.count, before.count)
        let changed = before.indices.filter { before[$0] != after[$0] }
        let offset = try XCTUnwrap(CatalogCodec.decode(try fixture.space.read(fixture.space.root), ref: fixture.space.root)
            .tables[0].rootOffsets?.cluster)
        XCTAssertFalse(changed.isEmpty, "the cluster root moved")
        XCTAssertTrue(changed.allSatisfy { (offset..<offset + 8).contains($0) }, "bytes \(changed) changed, the root is at \(offset)")
        // The catalog node is this transaction's now: another root move patches it where it is.
        let catalogNode = fixture.space.root
        try people.set(keys[10], column: score, to: .double(-10))
        try fixture.catalog.flush()
        XCTAssertEqual(fixture.space.root, catalogNode, "a written catalog node is patched in place")
        try fixture.commit()
        let reader = try fixture.reader()
        XCTAssertEqual(try XCTUnwrap(reader.table(named: "People")).double(keys[700], column: score), -7)
        XCTAssertEqual(try XCTUnwrap(reader.table(named: "People")).double(keys[10], column: score), -10)
        XCTAssertEqual(try XCTUnwrap(reader.table(named: "Log")).count(), 10)
        XCTAssertEqual(fixture.space.violations, [])
    }

    /// The byte offsets where two catalog nodes differ, and the offsets a patch may write for `table` of `after`.
    private func changedBytes(_ before: [UInt8], _ after: [UInt8]) -> [Int] {
        before.indices.filter { before[$0] != after[$0] }
    }

    private func patchable(_ fixture: TableFixture, table: Int) throws -> Set<Int> {
        let offsets = try XCTUnwrap(
            CatalogCodec.decode(try fixture.space.read(fixture.space.root), ref: fixture.space.root).tables[table].rootOffsets)
        var words = [offsets.cluster, offsets.nextObjectKey, CatalogCodec.metadataOffset] + offsets.indexes
        words += offsets.sequences.values
        return Set(words.flatMap { $0..<$0 + 8 })
    }

    func testInsertPatchesTheNextKeyAndTheRootsOnly() throws {
        let fixture = try TableFixture()
        let (_, name, score, _) = try makeTables(fixture)
        _ = try XCTUnwrap(fixture.catalog.table(named: "People")).nextSequenceValue("ids")
        try fixture.commit()
        let before = try rootBytes(fixture)
        let people = try XCTUnwrap(fixture.catalog.table(named: "People"))
        let added = try people.insert([(name, .string("inserted")), (score, .double(3))])
        XCTAssertEqual(try people.nextSequenceValue("ids"), 2)
        try fixture.catalog.setMetadata([1, 2, 3], forKey: "meta")
        try fixture.catalog.flush()
        let after = try rootBytes(fixture)
        XCTAssertEqual(after.count, before.count, "a patched catalog node keeps its size")
        let changed = changedBytes(before, after)
        let allowed = try patchable(fixture, table: 0)
        XCTAssertTrue(changed.contains(where: { allowed.contains($0) }))
        XCTAssertTrue(changed.allSatisfy { allowed.contains($0) }, "bytes \(changed) changed outside \(allowed.sorted())")
        // What the patch wrote decodes to the table as it is, and a fresh encoding of it is the same bytes.
        let decoded = try CatalogCodec.decode(try fixture.space.read(fixture.space.root), ref: fixture.space.root)
        XCTAssertEqual(decoded.tables[0].nextObjectKey, added.rawValue + 1)
        XCTAssertEqual(decoded.tables[0].sequences, ["ids": 2])
        XCTAssertEqual(CatalogCodec.encode(decoded).bytes, after)
        try fixture.commit()
        let reader = try fixture.reader()
        let table = try XCTUnwrap(reader.table(named: "People"))
        XCTAssertEqual(try table.string(added, column: name), "inserted")
        XCTAssertEqual(try table.count(), 1_501)
        XCTAssertEqual(table.currentSequenceValue("ids"), 2)
        XCTAssertEqual(try reader.metadata(forKey: "meta"), [1, 2, 3])
        XCTAssertEqual(fixture.space.violations, [])
    }

    func testNewSequenceIsEncodedInFull() throws {
        let fixture = try TableFixture()
        _ = try makeTables(fixture)
        _ = try XCTUnwrap(fixture.catalog.table(named: "Log")).nextSequenceValue("first")
        try fixture.commit()
        let before = try rootBytes(fixture)
        _ = try XCTUnwrap(fixture.catalog.table(named: "Log")).nextSequenceValue("second")
        try fixture.commit()
        let after = try rootBytes(fixture)
        XCTAssertGreaterThan(after.count, before.count, "a new sequence name grows the node")
        let reader = try fixture.reader()
        let table = try XCTUnwrap(reader.table(named: "Log"))
        XCTAssertEqual(table.currentSequenceValue("first"), 1)
        XCTAssertEqual(table.currentSequenceValue("second"), 1)
    }

    /// Random commits of inserts, sets, sequence steps and metadata: after each, the catalog node (patched or
    /// encoded) decodes to what a fresh encoding of the tables holds.
    func testRandomCommitsMatchAFreshEncoding() throws {
        let fixture = try TableFixture()
        let (keys, name, score, number) = try makeTables(fixture)
        var generator = SeededGenerator(seed: 32)
        for round in 0..<60 {
            let people = try XCTUnwrap(fixture.catalog.table(named: "People"))
            let log = try XCTUnwrap(fixture.catalog.table(named: "Log"))
            switch Int.random(in: 0..<5, using: &generator) {
            case 0: _ = try people.insert([(name, .string("r\(round)")), (score, .double(Double(round)))])
            case 1: try people.set(keys[Int.random(in: 0..<keys.count, using: &generator)], column: score, to: .double(-1))
            case 2: _ = try log.nextSequenceValue(Bool.random(using: &generator) ? "a" : "b")
            case 3: try fixture.catalog.setMetadata([UInt8(round)], forKey: "k\(round % 3)")
            default: _ = try log.insert([(number, .int(Int64(round)))])
            }
            try fixture.catalog.flush()
            let raw = try fixture.space.read(fixture.space.root)
            let decoded = try CatalogCodec.decode(raw, ref: fixture.space.root)
            XCTAssertEqual(CatalogCodec.encode(decoded).bytes, Array(raw), "round \(round)")
            for (index, table) in fixture.catalog.tables.enumerated() {
                XCTAssertEqual(decoded.tables[index].nextObjectKey, table.nextObjectKey, "round \(round)")
                XCTAssertEqual(decoded.tables[index].sequences, table.sequences, "round \(round)")
            }
            try fixture.commit()
        }
        XCTAssertEqual(fixture.space.violations, [])
    }

    func testMovedIndexRootIsPatchedAndTheIndexFindsTheNewValue() throws {
        let fixture = try TableFixture()
        let (keys, name, _, _) = try makeTables(fixture)
        let people = try XCTUnwrap(fixture.catalog.table(named: "People"))
        let index = try XCTUnwrap(people.index(on: [name]))
        try people.set(keys[3], column: name, to: .string("renamed"))
        try fixture.commit()
        let reader = try fixture.reader()
        let table = try XCTUnwrap(reader.table(named: "People"))
        XCTAssertEqual(try table.lookup(index.key, equal: [.string("renamed")]), [keys[3]])
        XCTAssertEqual(try table.lookup(index.key, equal: [.string("person 3")]), [])
        XCTAssertEqual(try table.string(keys[4], column: name), "person 4")
        XCTAssertEqual(fixture.space.violations, [])
    }

    func testChangesBeyondRootsAfterAPatchAreEncoded() throws {
        let fixture = try TableFixture()
        let (keys, name, score, number) = try makeTables(fixture)
        var people = try XCTUnwrap(fixture.catalog.table(named: "People"))
        // A patched flush, then in the same transaction a new column, a rename, an insert (next key) and a new
        // table: each must reach the catalog node.
        try people.set(keys[1], column: score, to: .double(0.5))
        try fixture.catalog.flush()
        let level = try people.addColumn(named: "level", type: .value(.int))
        try fixture.catalog.renameTable("Log", to: "Journal")
        let added = try people.insert([(name, .string("new")), (score, .double(1)), (level, .int(3))])
        try fixture.catalog.createTable(named: "Extra")
        try fixture.commit()
        var reader = try fixture.reader()
        people = try XCTUnwrap(reader.table(named: "People"))
        XCTAssertEqual(try people.double(keys[1], column: score), 0.5)
        XCTAssertEqual(try people.int(added, column: level), 3)
        XCTAssertEqual(try XCTUnwrap(reader.table(named: "Journal")).int(ObjectKey(9), column: number), 9)
        XCTAssertNotNil(reader.table(named: "Extra"))
        // A later one-value commit patches the catalog the full encoding wrote.
        try XCTUnwrap(fixture.catalog.table(named: "People")).set(added, column: score, to: .double(2))
        try fixture.commit()
        reader = try fixture.reader()
        people = try XCTUnwrap(reader.table(named: "People"))
        XCTAssertEqual(try people.double(added, column: score), 2)
        XCTAssertEqual(try people.count(), 1_501)
        XCTAssertEqual(fixture.space.violations, [])
    }

    func testPatchedCatalogOpensInAStoreAndVerifies() throws {
        let store = try Store.inMemory(options: StoreOptions(durability: .none))
        defer { store.close() }
        var keys: [ObjectKey] = []
        var score = ColumnKey(rawValue: 0)
        do {
            let writer = try store.beginWrite()
            let catalog = try Catalog(writer: writer)
            let table = try catalog.createTable(named: "People")
            score = try table.addColumn(named: "score", type: .value(.double))
            keys = try (0..<2_000).map { try table.insert([(score, .double(Double($0)))]) }
            try catalog.flush()
            try writer.commit()
        }
        for round in 0..<20 {
            let writer = try store.beginWrite()
            let catalog = try Catalog(writer: writer)
            try XCTUnwrap(catalog.table(named: "People")).set(keys[round * 97], column: score, to: .double(-1))
            try catalog.flush()
            try writer.commit()
        }
        let reading = try store.beginRead()
        defer { reading.end() }
        let catalog = try Catalog(reader: reading)
        let table = try XCTUnwrap(catalog.table(named: "People"))
        for (index, key) in keys.enumerated() {
            XCTAssertEqual(try table.double(key, column: score), index % 97 == 0 && index / 97 < 20 ? -1 : Double(index))
        }
        XCTAssertEqual(try store.verifyAll().objects, 2_000)
    }
}
