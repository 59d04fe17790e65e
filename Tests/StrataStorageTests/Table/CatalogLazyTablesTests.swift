@testable import StrataStorage
import StrataTestSupport
import XCTest

/// A catalog builds a `Table` only when something asks for it (`Catalog.table(named:)`, `table(_:)`, `tables`); a
/// table never asked for is flushed as the record it was read as. Whatever the flush does (a patch of the roots, a
/// full encoding after a new table, a rename, a removal), the tables left alone keep every value, index entry and
/// sequence, and the catalog node is what encoding every table afresh writes.
final class CatalogLazyTablesTests: XCTestCase {
    private struct Columns {
        var name: ColumnKey
        var score: ColumnKey
        var number: ColumnKey
        var nameIndex: IndexKey
    }

    /// "People" (an indexed name, a score, a sequence), "Log" (a number) and "Notes" (a name), committed.
    private func makeTables(_ fixture: TableFixture) throws -> (keys: [ObjectKey], columns: Columns) {
        let people = try fixture.catalog.createTable(named: "People")
        let name = try people.addColumn(named: "name", type: .value(.string))
        let score = try people.addColumn(named: "score", type: .value(.double))
        let index = try people.addIndex(on: [name])
        let keys = try (0..<1_200).map { try people.insert([(name, .string("person \($0)")), (score, .double(Double($0)))]) }
        _ = try people.nextSequenceValue("ids")
        let log = try fixture.catalog.createTable(named: "Log")
        let number = try log.addColumn(named: "number", type: .value(.int))
        for value in 0..<10 { try log.insert([(number, .int(Int64(value)))]) }
        let notes = try fixture.catalog.createTable(named: "Notes")
        let text = try notes.addColumn(named: "text", type: .value(.string))
        for value in 0..<5 { try notes.insert([(text, .string("note \(value)"))]) }
        try fixture.commit()
        return (keys, Columns(name: name, score: score, number: number, nameIndex: index))
    }

    /// The catalog node decodes and encodes again to the same bytes, and every table of a fresh reader holds the
    /// data `makeTables` wrote (with `expectedPeople` objects in People).
    private func checkUntouchedData(
        _ fixture: TableFixture, keys: [ObjectKey], columns: Columns, expectedPeople: Int = 1_200,
        log: String = "Log", notes: String? = "Notes", line: UInt = #line
    ) throws {
        let raw = try fixture.space.read(fixture.space.root)
        let decoded = try CatalogCodec.decode(raw, ref: fixture.space.root)
        XCTAssertEqual(CatalogCodec.encode(decoded).bytes, Array(raw), "the catalog node encodes afresh to itself", line: line)
        let reader = try fixture.reader()
        let people = try XCTUnwrap(reader.table(named: "People"), line: line)
        XCTAssertEqual(try people.count(), expectedPeople, line: line)
        XCTAssertEqual(try people.string(keys[17], column: columns.name), "person 17", line: line)
        XCTAssertEqual(try people.lookup(columns.nameIndex, equal: [.string("person 900")]), [keys[900]], line: line)
        XCTAssertEqual(people.currentSequenceValue("ids"), 1, line: line)
        let logTable = try XCTUnwrap(reader.table(named: log), line: line)
        XCTAssertEqual(try logTable.count(), 10, line: line)
        XCTAssertEqual(try logTable.int(ObjectKey(7), column: columns.number), 7, line: line)
        if let notes {
            XCTAssertEqual(try XCTUnwrap(reader.table(named: notes), line: line).count(), 5, line: line)
        }
        XCTAssertEqual(fixture.space.violations, [], line: line)
    }

    func testAOneValueCommitToOneTableKeepsTheOthersAsStored() throws {
        let fixture = try TableFixture()
        let (keys, columns) = try makeTables(fixture)
        let before = try CatalogCodec.decode(try fixture.space.read(fixture.space.root), ref: fixture.space.root)
        // Only Log is asked for: People and Notes stay records.
        try XCTUnwrap(fixture.catalog.table(named: "Log")).set(ObjectKey(3), column: columns.number, to: .int(-3))
        try fixture.commit()
        let after = try CatalogCodec.decode(try fixture.space.read(fixture.space.root), ref: fixture.space.root)
        XCTAssertEqual(after.tables.map(\.name), ["People", "Log", "Notes"])
        XCTAssertEqual(after.tables[0].clusterRoot, before.tables[0].clusterRoot)
        XCTAssertEqual(after.tables[0].indexes.map(\.root), before.tables[0].indexes.map(\.root))
        XCTAssertNotEqual(after.tables[1].clusterRoot, before.tables[1].clusterRoot, "Log's cluster was copied")
        XCTAssertEqual(after.tables[2].clusterRoot, before.tables[2].clusterRoot)
        XCTAssertEqual(try XCTUnwrap(try fixture.reader().table(named: "Log")).int(ObjectKey(3), column: columns.number), -3)
        try checkUntouchedData(fixture, keys: keys, columns: columns)
    }

    func testANewTableEncodesTheTablesNeverAskedForAsTheyWere() throws {
        let fixture = try TableFixture()
        let (keys, columns) = try makeTables(fixture)
        let extra = try fixture.catalog.createTable(named: "Extra")
        let value = try extra.addColumn(named: "value", type: .value(.int))
        try extra.insert([(value, .int(42))])
        XCTAssertEqual(fixture.catalog.tables.map(\.name), ["People", "Log", "Notes", "Extra"])
        try fixture.commit()
        try checkUntouchedData(fixture, keys: keys, columns: columns)
        let reader = try fixture.reader()
        XCTAssertEqual(try XCTUnwrap(reader.table(named: "Extra")).int(ObjectKey(0), column: value), 42)
        // The next commit builds People only, and inserts through its index: the others still hold.
        let people = try XCTUnwrap(fixture.catalog.table(named: "People"))
        try people.insert([(columns.name, .string("late")), (columns.score, .double(1))])
        try fixture.commit()
        try checkUntouchedData(fixture, keys: keys, columns: columns, expectedPeople: 1_201)
    }

    func testRenamingAndRemovingBesideTablesNeverAskedFor() throws {
        let fixture = try TableFixture()
        let (keys, columns) = try makeTables(fixture)
        try fixture.catalog.renameTable("Log", to: "Journal")
        XCTAssertNil(fixture.catalog.table(named: "Log"))
        XCTAssertNotNil(fixture.catalog.table(named: "Journal"))
        try fixture.catalog.removeTable(named: "Notes")
        try fixture.commit()
        XCTAssertEqual(fixture.catalog.tables.map(\.name), ["People", "Journal"])
        try checkUntouchedData(fixture, keys: keys, columns: columns, log: "Journal", notes: nil)
        XCTAssertNil(try fixture.reader().table(named: "Notes"))
    }

    func testATableIsBuiltOnceWhicheverWayItIsAskedFor() throws {
        let fixture = try TableFixture()
        let (keys, columns) = try makeTables(fixture)
        let byName = try XCTUnwrap(fixture.catalog.table(named: "People"))
        XCTAssertTrue(fixture.catalog.table(byName.key) === byName)
        XCTAssertTrue(fixture.catalog.tables[0] === byName)
        // A change through one handle is the table every other way of asking finds, and what the flush writes.
        try byName.set(keys[5], column: columns.score, to: .double(-5))
        XCTAssertEqual(try XCTUnwrap(fixture.catalog.table(byName.key)).double(keys[5], column: columns.score), -5)
        try fixture.commit()
        XCTAssertEqual(try XCTUnwrap(try fixture.reader().table(named: "People")).double(keys[5], column: columns.score), -5)
        try checkUntouchedData(fixture, keys: keys, columns: columns)
    }

    /// Random commits, each asking for one table or none: after each, the catalog node decodes to tables that
    /// match a catalog with every table built.
    func testRandomCommitsAskingForOneTableMatchEveryTableBuilt() throws {
        let fixture = try TableFixture()
        let (keys, columns) = try makeTables(fixture)
        var generator = SeededGenerator(seed: 16)
        var logNext: Int64 = 10
        for round in 0..<40 {
            switch Int.random(in: 0..<4, using: &generator) {
            case 0:
                try XCTUnwrap(fixture.catalog.table(named: "People"))
                    .set(keys[Int.random(in: 0..<keys.count, using: &generator)], column: columns.score, to: .double(-1))
            case 1:
                try XCTUnwrap(fixture.catalog.table(named: "Log")).insert([(columns.number, .int(logNext))])
                logNext += 1
            case 2: try fixture.catalog.setMetadata([UInt8(round)], forKey: "k")
            default: break
            }
            try fixture.commit()
            let stored = try CatalogCodec.decode(try fixture.space.read(fixture.space.root), ref: fixture.space.root)
            let every = try fixture.reader()
            XCTAssertEqual(stored.tables.map(\.name), every.tables.map(\.name), "round \(round)")
            for (record, table) in zip(stored.tables, every.tables) {
                XCTAssertEqual(record.nextObjectKey, table.nextObjectKey, "round \(round)")
                XCTAssertEqual(record.sequences, table.sequences, "round \(round)")
                XCTAssertEqual(try table.count(), try XCTUnwrap(fixture.catalog.table(named: table.name)).count(), "round \(round)")
            }
        }
        XCTAssertEqual(try XCTUnwrap(try fixture.reader().table(named: "Log")).count(), Int(logNext))
        XCTAssertEqual(try XCTUnwrap(try fixture.reader().table(named: "Notes")).count(), 5)
        XCTAssertEqual(fixture.space.violations, [])
    }
}

/// `Catalog.shape(ofTableNamed:)` answers from a table's record without building it, and from the built table
/// once one is (a rename or a new column shows).
final class CatalogTableShapeTests: XCTestCase {
    func testAShapeIsReadFromTheRecordWithoutBuildingTheTable() throws {
        let fixture = try TableFixture()
        let people = try fixture.catalog.createTable(named: "People")
        let name = try people.addColumn(named: "name", type: .value(.string))
        let pets = try fixture.catalog.createTable(named: "Pets")
        try pets.setEmbedded(true)
        let weight = try pets.addColumn(named: "weight", type: .value(.double), nullable: true)
        let owner = try people.addColumn(named: "pet", type: .value(.link), nullable: true, target: pets.key)
        try fixture.commit()

        let reader = try fixture.reader()
        let peopleShape = try XCTUnwrap(reader.shape(ofTableNamed: "People"))
        let petsShape = try XCTUnwrap(reader.shape(ofTableNamed: "Pets"))
        XCTAssertNil(reader.shape(ofTableNamed: "Nobody"))
        XCTAssertEqual(reader.builtTableNames, [], "no table built for a shape")
        XCTAssertEqual(peopleShape.key, people.key)
        XCTAssertFalse(peopleShape.isEmbedded)
        XCTAssertTrue(petsShape.isEmbedded)
        XCTAssertEqual(peopleShape.column(named: "name")?.key, name)
        XCTAssertEqual(peopleShape.column(named: "pet")?.target, pets.key)
        XCTAssertEqual(petsShape.column(named: "weight")?.key, weight)
        XCTAssertEqual(peopleShape.column(named: "pet")?.key, owner)
        XCTAssertEqual(peopleShape.columns, try XCTUnwrap(reader.table(named: "People")).columns)
        XCTAssertEqual(reader.builtTableNames, ["People"])
        // The built table is what answers once it exists: a change made through it shows in its shape.
        try fixture.catalog.renameTable("Pets", to: "Animals")
        let writing = try XCTUnwrap(fixture.catalog.table(named: "Animals"))
        _ = try writing.addColumn(named: "age", type: .value(.int))
        XCTAssertNil(fixture.catalog.shape(ofTableNamed: "Pets"))
        XCTAssertEqual(fixture.catalog.shape(ofTableNamed: "Animals")?.columns.map(\.name), writing.columns.map(\.name))
        XCTAssertEqual(fixture.catalog.shape(ofTableNamed: "Animals")?.key, petsShape.key)
    }
}
