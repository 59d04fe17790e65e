import StrataStorage
import StrataTestSupport
import XCTest

/// An integer primary key whose values are the object keys stores no index of its own (docs/FILE-FORMAT.md,
/// "An implied index"); these pin that it answers every question a stored index does, and turns into a stored
/// one the moment the rule would break.
final class ImpliedPrimaryKeyTests: XCTestCase {
    private var fixture: TableFixture!
    private var table: Table!
    private var id: ColumnKey!
    private var label: ColumnKey!

    override func setUpWithError() throws {
        fixture = try TableFixture()
        table = try fixture.catalog.createTable(named: "Item")
        id = try table.addColumn(named: "id", type: .value(.int))
        label = try table.addColumn(named: "label", type: .value(.string))
        try table.setPrimaryKey(id)
    }

    private func nodeCount() throws -> Int {
        var count = 0
        try fixture.catalog.forEachNode { _ in count += 1 }
        return count
    }

    func testIntegerPrimaryKeyBecomesTheObjectKeyAndStoresNoIndexNodes() throws {
        for value in [5, 1, 9, 0] {
            let key = try table.insert([(id, .int(Int64(value))), (label, .string("item \(value)"))])
            XCTAssertEqual(key, ObjectKey(Int64(value)), "the key is the primary-key value")
        }
        try fixture.commit()
        // Catalog, the cluster tree's root branch and its one cluster: no index branch, no index leaf.
        XCTAssertEqual(try nodeCount(), 3)
        let stored = try XCTUnwrap(fixture.catalog.table(named: "Item"))
        XCTAssertEqual(try stored.find(primaryKey: .int(9)), ObjectKey(9))
        XCTAssertNil(try stored.find(primaryKey: .int(4)))
        XCTAssertNil(try stored.find(primaryKey: .string("9")), "a value of another type finds nothing")
        let index = try XCTUnwrap(stored.index(on: [id])).key
        XCTAssertEqual(try stored.lookup(index, equal: [.int(1)]), [ObjectKey(1)])
        XCTAssertEqual(try stored.lookup(index, from: .int(1), lowerInclusive: false, to: .int(9), upperInclusive: true),
                       [ObjectKey(5), ObjectKey(9)])
        XCTAssertEqual(try stored.lookup(index, from: nil, to: .int(5)), [ObjectKey(0), ObjectKey(1)])
        XCTAssertEqual(try stored.lookup(index, in: [.int(0), .int(7), .int(5)]).sorted(), [ObjectKey(0), ObjectKey(5)])
        XCTAssertEqual(try stored.lookup(index, equal: [.null]), [])
        try fixture.catalog.verify()
        let reader = try fixture.reader()
        XCTAssertEqual(try reader.table(named: "Item")?.find(primaryKey: .int(5)), ObjectKey(5), "read transactions find it too")
    }

    func testDuplicatePrimaryKeyIsRefusedWithoutChangingAnything() throws {
        try table.insert([(id, .int(3))])
        XCTAssertThrowsError(try table.insert([(id, .int(3)), (label, .string("again"))])) { error in
            guard case StrataError.duplicatePrimaryKey = error else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(try table.count(), 1)
        XCTAssertEqual(try table.string(ObjectKey(3), column: label), "")
        try fixture.catalog.verify()
    }

    func testKeyThatDiffersFromTheValueWritesTheIndexOutAndKeepsEveryObjectFindable() throws {
        for value in 0..<600 { try table.insert([(id, .int(Int64(value)))]) }
        let before = try nodeCount()
        let odd = try table.insert([(id, .int(10_000))], key: ObjectKey(700))
        XCTAssertEqual(odd, ObjectKey(700))
        let negative = try table.insert([(id, .int(-4))])
        try fixture.commit()
        XCTAssertGreaterThan(try nodeCount(), before + 1, "the index now has nodes")
        let stored = try XCTUnwrap(fixture.catalog.table(named: "Item"))
        XCTAssertEqual(try stored.find(primaryKey: .int(10_000)), odd)
        XCTAssertEqual(try stored.find(primaryKey: .int(-4)), negative)
        for value in stride(from: 0, to: 600, by: 7) {
            XCTAssertEqual(try stored.find(primaryKey: .int(Int64(value))), ObjectKey(Int64(value)))
        }
        XCTAssertThrowsError(try stored.insert([(id, .int(599))]))
        try fixture.catalog.verify()
    }

    func testChangingAPrimaryKeyValueWritesTheIndexOut() throws {
        for value in 1...3 { try table.insert([(id, .int(Int64(value)))]) }
        try fixture.commit()
        let stored = try XCTUnwrap(fixture.catalog.table(named: "Item"))
        try stored.set(ObjectKey(2), column: id, to: .int(20))
        XCTAssertNil(try stored.find(primaryKey: .int(2)))
        XCTAssertEqual(try stored.find(primaryKey: .int(20)), ObjectKey(2))
        XCTAssertThrowsError(try stored.set(ObjectKey(1), column: id, to: .int(3)), "still unique")
        try stored.delete(ObjectKey(3))
        XCTAssertNil(try stored.find(primaryKey: .int(3)))
        try fixture.commit()
        try fixture.catalog.verify()
    }

    func testPrimaryKeySetOnFilledTableIsImpliedOnlyWhenKeysEqualValues() throws {
        let other = try fixture.catalog.createTable(named: "Other")
        let number = try other.addColumn(named: "number", type: .value(.int))
        for value in 0..<50 { try other.insert([(number, .int(Int64(value)))]) }
        try fixture.commit()
        let before = try nodeCount()
        try XCTUnwrap(fixture.catalog.table(named: "Other")).setPrimaryKey(number)
        try fixture.commit()
        XCTAssertEqual(try nodeCount(), before, "keys 0..<50 hold the values 0..<50: nothing to store")
        let shifted = try XCTUnwrap(fixture.catalog.table(named: "Other"))
        try shifted.setPrimaryKey(nil)
        for key in try shifted.keys() { try shifted.set(key, column: number, to: .int(key.rawValue + 100)) }
        try shifted.setPrimaryKey(number)
        try fixture.commit()
        XCTAssertGreaterThan(try nodeCount(), before, "values differ from keys: a stored index")
        XCTAssertEqual(try fixture.catalog.table(named: "Other")?.find(primaryKey: .int(120)), ObjectKey(20))
        try fixture.catalog.verify()
    }
}
