import StrataStorage
import StrataTestSupport
import XCTest

/// Removing an index or a table whose nodes were written earlier in the same transaction frees nodes that are
/// still this transaction's own: their memory may go at once (`MemoryNodeSpace` poisons it), so the removal must
/// read every node it needs before freeing any. It once freed each branch before reading its children, which only
/// a long randomized run happened to catch.
final class RemovingChangedTreesTests: XCTestCase {
    private var fixture: TableFixture!

    override func setUpWithError() throws {
        fixture = try TableFixture()
    }

    override func tearDown() {
        fixture = nil
        super.tearDown()
    }

    /// A committed "Person" table of `count` objects (an indexed age, a name, every 50th name long enough to be
    /// stored in its own node) and a committed "Pet" table of 300 objects; returns the columns.
    private func committedTables(count: Int) throws -> (age: ColumnKey, name: ColumnKey, index: IndexKey) {
        let person = try fixture.catalog.createTable(named: "Person")
        let age = try person.addColumn(named: "age", type: .value(.int))
        let name = try person.addColumn(named: "name", type: .value(.string))
        let index = try person.addIndex(on: [age])
        for number in 0..<count {
            try person.insert([(age, .int(Int64(number % 90))), (name, .string(Self.name(number)))])
        }
        let pet = try fixture.catalog.createTable(named: "Pet")
        let species = try pet.addColumn(named: "species", type: .value(.string))
        _ = try pet.addIndex(on: [species])
        for number in 0..<300 { try pet.insert([(species, .string("species-\(number % 7)"))]) }
        try fixture.commit()
        return (age, name, index)
    }

    private static func name(_ number: Int) -> String {
        number % 50 == 0 ? String(repeating: "n", count: 3000) + "\(number)" : "name-\(number)"
    }

    /// Changes the age of every 7th of the first `count` objects (keys are handed out from 0) and adds objects, so the index's and the clusters' branches on those paths
    /// are written again in this transaction; flushes when asked (a removal flushes first anyway).
    private func changePeople(_ person: Table, age: ColumnKey, name: ColumnKey, count: Int, flush: Bool) throws {
        for key in try person.keys() where key.rawValue < count && key.rawValue % 7 == 0 {
            try person.set(key, column: age, to: .int(200 + key.rawValue % 5))
        }
        for number in count..<count + 400 {
            try person.insert([(age, .int(Int64(number % 90))), (name, .string(Self.name(number)))])
        }
        if flush { try fixture.catalog.flush() }
    }

    /// Checks the store after the transaction: no misuse of the node space, the catalog verifies, and after the
    /// commit every stored node is reachable (the removed tree's nodes were all freed) and the catalog verifies.
    private func checkStore(_ context: String) throws {
        XCTAssertEqual(fixture.space.violations, [], context)
        try fixture.catalog.verify()
        try fixture.commit()
        XCTAssertEqual(fixture.space.violations, [], context)
        try fixture.catalog.verify()
        var reachable: Set<NodeRef> = []
        try fixture.catalog.forEachNode { reachable.insert($0) }
        XCTAssertEqual(reachable, fixture.space.committedRefs, "removed nodes are freed, none leaks (\(context))")
    }

    func testRemovingAnIndexChangedInTheSameTransactionKeepsTheTableWhole() throws {
        let count = 3000
        for flush in [true, false] {
            fixture = try TableFixture()
            let (age, name, index) = try committedTables(count: count)
            let person = try XCTUnwrap(fixture.catalog.table(named: "Person"))
            try changePeople(person, age: age, name: name, count: count, flush: flush)
            let changedTo203: [ObjectKey] = stride(from: 0, to: Int64(count), by: 7).filter { $0 % 5 == 3 }.map { ObjectKey($0) }
            XCTAssertEqual(try person.lookup(index, equal: [.int(203)]), changedTo203)

            try person.removeIndex(index)

            let context = flush ? "flushed before the removal" : "removed without a flush"
            XCTAssertNil(person.index(on: [age]), context)
            XCTAssertThrowsError(try person.lookup(index, equal: [.int(1)]), context)
            XCTAssertEqual(try person.count(), count + 400, context)
            for key in try person.keys() {
                let changed = key.rawValue < count && key.rawValue % 7 == 0
                let expected = changed ? 200 + key.rawValue % 5 : key.rawValue % 90
                XCTAssertEqual(try person.int(key, column: age), expected, "\(key) \(context)")
            }
            try checkStore(context)
            let reopened = try XCTUnwrap(fixture.catalog.table(named: "Person"))
            XCTAssertNil(reopened.index(on: [age]), context)
            XCTAssertEqual(try reopened.string(ObjectKey(Int64(count)), column: name), Self.name(count), context)
        }
    }

    func testRemovingATableChangedInTheSameTransactionKeepsTheOtherTablesWhole() throws {
        let count = 3000
        for flush in [true, false] {
            fixture = try TableFixture()
            let (age, name, _) = try committedTables(count: count)
            let person = try XCTUnwrap(fixture.catalog.table(named: "Person"))
            try changePeople(person, age: age, name: name, count: count, flush: flush)

            try fixture.catalog.removeTable(named: "Person")

            let context = flush ? "flushed before the removal" : "removed without a flush"
            XCTAssertNil(fixture.catalog.table(named: "Person"), context)
            let pet = try XCTUnwrap(fixture.catalog.table(named: "Pet"), context)
            let species = try XCTUnwrap(pet.column(named: "species")?.key)
            let speciesIndex = try XCTUnwrap(pet.index(on: [species])?.key)
            XCTAssertEqual(try pet.lookup(speciesIndex, equal: [.string("species-3")]).count, 43, context)
            try checkStore(context)
            XCTAssertNil(fixture.catalog.table(named: "Person"), context)
            XCTAssertEqual(try fixture.catalog.table(named: "Pet")?.count(), 300, context)
        }
    }
}
