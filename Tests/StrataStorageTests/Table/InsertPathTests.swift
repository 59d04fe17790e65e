import StrataTestSupport
import XCTest

@testable import StrataStorage

/// The insert path's shortcuts: a plain index's entry encoded straight into the pending buffer after the row is
/// placed (`SortedIndex.insertEntry(key:_:)`), the spare row a partial row is filled into (`Table.takeDefaultRow()`,
/// `giveBack(row:)`), null links skipped, and the last leaf's appends that need no path (`NodeTree.updateLast`).
/// Each leaves the same tables as the general path: lookups, values and the catalog's own check agree.
final class InsertPathTests: XCTestCase {
    private var fixture: TableFixture!

    override func setUpWithError() throws {
        fixture = try TableFixture()
    }

    /// Strings with and without zero bytes, ints, nulls and a compound index, inserted under ascending keys and
    /// then under keys below them (the pending buffer's keys no longer ascend): every lookup finds what a scan of
    /// the values says, before and after the commit.
    func testPlainIndexEntriesMatchTheValuesWhateverTheirKindAndKeyOrder() throws {
        let table = try fixture.catalog.createTable(named: "Item")
        let name = try table.addColumn(named: "name", type: .value(.string))
        let size = try table.addColumn(named: "size", type: .value(.int))
        let label = try table.addColumn(named: "label", type: .value(.string), nullable: true)
        let byName = try table.addIndex(on: [name])
        let bySize = try table.addIndex(on: [size])
        let byLabel = try table.addIndex(on: [label])
        let byBoth = try table.addIndex(on: [name, size])
        func values(_ number: Int) -> (name: String, size: Int64, label: StorageValue) {
            let name = number % 7 == 0 ? "nul\u{0}\(number % 3)" : "name-\(number % 11)"
            return (name, Int64(number % 5), number % 4 == 0 ? .null : .string("label-\(number % 6)"))
        }
        var expected: [ObjectKey: (name: String, size: Int64, label: StorageValue)] = [:]
        for number in 0..<3_000 {
            let value = values(number)
            let key = try table.insert([(name, .string(value.name)), (size, .int(value.size)), (label, value.label)])
            expected[key] = value
        }
        // Explicit keys below every key so far: the general path, and entries whose keys go down.
        for number in 0..<200 {
            let value = values(number + 5_000)
            let key = ObjectKey(Int64(-1 - number))
            try table.insert([(name, .string(value.name)), (size, .int(value.size)), (label, value.label)], key: key)
            expected[key] = value
        }
        func check(_ table: Table, _ moment: String) throws {
            for probe in ["name-3", "nul\u{0}1", "nul\u{0}", "missing"] {
                let wanted = expected.filter { $0.value.name == probe }.map(\.key).sorted()
                XCTAssertEqual(try table.lookup(byName, equal: [.string(probe)]).sorted(), wanted, "\(moment) \(probe)")
                let both = expected.filter { $0.value.name == probe && $0.value.size == 2 }.map(\.key).sorted()
                XCTAssertEqual(try table.lookup(byBoth, equal: [.string(probe), .int(2)]).sorted(), both, moment)
            }
            for probe in Int64(0)..<5 {
                let wanted = expected.filter { $0.value.size == probe }.map(\.key).sorted()
                XCTAssertEqual(try table.lookup(bySize, equal: [.int(probe)]).sorted(), wanted, "\(moment) \(probe)")
            }
            for probe: StorageValue in [.null, .string("label-5")] {
                let wanted = expected.filter { $0.value.label == probe }.map(\.key).sorted()
                XCTAssertEqual(try table.lookup(byLabel, equal: [probe]).sorted(), wanted, "\(moment) \(probe)")
            }
        }
        try check(table, "in the write")
        try fixture.catalog.verify()
        try fixture.commit()
        try check(try XCTUnwrap(fixture.catalog.table(named: "Item")), "committed")
        try fixture.catalog.verify()
    }

    /// A partial row is filled into the table's spare row: an object given fewer columns than the one before it
    /// gets the defaults of the others, not the earlier object's values, through both insert paths.
    func testTheSpareRowHoldsOnlyDefaultsForTheNextObject() throws {
        let person = try fixture.catalog.createTable(named: "Person")
        let address = try fixture.catalog.createTable(named: "Address")
        try address.setEmbedded(true)
        let id = try person.addColumn(named: "id", type: .value(.int))
        let nickname = try person.addColumn(named: "nickname", type: .value(.string), nullable: true)
        let street = try address.addColumn(named: "street", type: .value(.string))
        let city = try address.addColumn(named: "city", type: .value(.string))
        let home = try person.addColumn(named: "home", type: .value(.link), target: address.key)

        let full = try person.insert(
            [.int(1), .string("Bea")], into: [id, nickname],
            embedding: [EmbeddedRow(link: home, values: [.string("1 Main"), .string("Oslo")], columns: [street, city])])
        let partial = try person.insert(
            [.int(2)], into: [id],
            embedding: [EmbeddedRow(link: home, values: [.string("2 Main")], columns: [street])])
        XCTAssertEqual(try person.value(partial.owner, column: nickname), .null)
        XCTAssertEqual(try address.value(partial.embedded[0], column: city), .string(""))
        XCTAssertEqual(try address.value(full.embedded[0], column: city), .string("Oslo"))
        XCTAssertEqual(try address.backlinks(of: partial.embedded[0], from: person.key, column: home), [partial.owner])

        // The plain path: the owner's link column is not given, and the spare row must not keep a planned link.
        let plain = try person.insert([.int(3), .string("Cy")], into: [id, nickname])
        let bare = try person.insert([.int(4)], into: [id])
        XCTAssertEqual(try person.value(plain, column: home), .null)
        XCTAssertEqual(try person.value(bare, column: nickname), .null)
        XCTAssertEqual(try person.value(bare, column: home), .null)

        // A column added since: the spare row made for the old columns is not used.
        let age = try person.addColumn(named: "age", type: .value(.int), defaultValue: .int(30))
        let later = try person.insert([.int(5)], into: [id])
        XCTAssertEqual(try person.value(later, column: age), .int(30))
        XCTAssertEqual(try person.value(later, column: home), .null)
        try fixture.catalog.verify()
        try fixture.commit()
        try fixture.catalog.verify()
    }

    /// Appends to the last cluster, which only grow it, update the counts on the right edge without a path; the
    /// appends that split it, and those after removals, take the general reshape. Counts, positions and the
    /// catalog's check agree throughout.
    func testAppendsKeepTheTreesCountsThroughSplitsAndRemovals() throws {
        let table = try fixture.catalog.createTable(named: "Log")
        let text = try table.addColumn(named: "text", type: .value(.string))
        var keys: [ObjectKey] = []
        for number in 0..<20_000 {
            keys.append(try table.insert([(text, .string("entry \(number) " + String(repeating: "x", count: number % 40)))]))
            if number % 4_999 == 0 { try fixture.catalog.verify() }
        }
        XCTAssertEqual(try table.count(), 20_000)
        // Empty the last clusters from the end, then append again: the last leaf shrank (no fast path for that)
        // and then grows.
        for key in keys.suffix(1_500) { try table.delete(key) }
        for number in 0..<3_000 { _ = try table.insert([(text, .string("again \(number)"))]) }
        XCTAssertEqual(try table.count(), 21_500)
        try fixture.catalog.verify()
        try fixture.commit()
        let stored = try XCTUnwrap(fixture.catalog.table(named: "Log"))
        XCTAssertEqual(try stored.count(), 21_500)
        XCTAssertEqual(try stored.value(keys[0], column: text), .string("entry 0 "))
        XCTAssertEqual(try stored.value(keys[18_499], column: text), .string("entry 18499 " + String(repeating: "x", count: 18_499 % 40)))
        try fixture.catalog.verify()
    }
}
