import Foundation
import StrataTestSupport
import XCTest

@testable import StrataStorage

/// An index over a set column (docs/FILE-FORMAT.md, "Indexes"): one entry per element, kept through inserts, set
/// changes and deletes, counted per element, checked by `verify()`; refused where one entry per element cannot work.
final class SetIndexStorageTests: XCTestCase {
    private var fixture: TableFixture!
    private var person: Table!
    private var tags: ColumnKey!
    private var numbers: ColumnKey!

    override func setUpWithError() throws {
        fixture = try TableFixture()
        person = try fixture.catalog.createTable(named: "Person")
        tags = try person.addColumn(named: "tags", type: .set(.string))
        numbers = try person.addColumn(named: "numbers", type: .set(.int), elementsNullable: true)
    }

    private func strings(_ values: String...) -> StorageValue { .list(values.map { .string($0) }) }

    func testEachElementIsAnEntryKeptThroughChanges() throws {
        let ana = try person.insert([(tags, strings("b", "a", "b"))])
        let index = try person.addIndex(on: [tags])
        let bo = try person.insert([(tags, strings("a", "c"))])
        let cy = try person.insert([(tags, strings())])
        XCTAssertEqual(try person.lookup(index, equal: [.string("a")]), [ana, bo])
        XCTAssertEqual(try person.lookup(index, equal: [.string("b")]), [ana], "a repeated element is one entry")
        XCTAssertEqual(try person.lookupCount(index, equal: [.string("a")]), 2)
        try person.setInsert(cy, column: tags, .string("a"))
        try person.setRemove(ana, column: tags, .string("a"))
        XCTAssertEqual(try person.lookup(index, equal: [.string("a")]), [bo, cy])
        try person.set(bo, column: tags, to: strings("d"))
        XCTAssertEqual(try person.lookup(index, equal: [.string("a")]), [cy])
        XCTAssertEqual(try person.lookup(index, equal: [.string("d")]), [bo])
        try person.delete(cy)
        XCTAssertEqual(try person.lookup(index, equal: [.string("a")]), [])
        try fixture.catalog.verify()
        try fixture.commit()
        let reread = try XCTUnwrap(fixture.catalog.table(named: "Person"))
        XCTAssertEqual(try reread.lookup(index, equal: [.string("b")]), [ana])
        try reread.insert([(tags, strings("b", "e"))])
        XCTAssertEqual(try reread.lookupCount(index, equal: [.string("b")]), 2, "read back, one entry per element")
        try fixture.catalog.verify()
    }

    func testNullElementsAndNumberRanges() throws {
        let index = try person.addIndex(on: [numbers])
        let ana = try person.insert([(numbers, .list([.int(5), .null, .int(-2)]))])
        let bo = try person.insert([(numbers, .list([.int(7)]))])
        XCTAssertEqual(try person.lookup(index, equal: [.null]), [ana])
        XCTAssertEqual(try person.lookup(index, from: .int(0), to: .int(10)), [ana, bo])
        XCTAssertEqual(try person.lookup(index, from: .int(-3), to: .int(0)), [ana])
        try fixture.catalog.verify()
    }

    func testVerifyFindsAMissingOrExtraEntry() throws {
        let ana = try person.insert([(tags, strings("a", "b"))])
        let index = try person.addIndex(on: [tags])
        let sorted = try person.sortedIndex(index)
        let entry = IndexKeyEncoding.entry(values: sorted.encode([.string("b")]), key: ana)
        try sorted.remove(entry: entry)
        XCTAssertThrowsError(try fixture.catalog.verify()) { XCTAssertTrue("\($0)".contains("index"), "\($0)") }
        try sorted.insert(entry: entry)
        try fixture.catalog.verify()
        try sorted.insert(entry: IndexKeyEncoding.entry(values: sorted.encode([.string("z")]), key: ana))
        XCTAssertThrowsError(try fixture.catalog.verify())
    }

    func testSetsIndexAloneAndNotUniquely() throws {
        let ratings = try person.addColumn(named: "ratings", type: .set(.double))
        let name = try person.addColumn(named: "name", type: .value(.string))
        XCTAssertThrowsError(try person.addIndex(on: [ratings])) {
            XCTAssertTrue("\($0)".contains("cannot be indexed"), "\($0)")
        }
        XCTAssertThrowsError(try person.addIndex(on: [tags], unique: true)) {
            XCTAssertTrue("\($0)".contains("alone"), "\($0)")
        }
        XCTAssertThrowsError(try person.addIndex(on: [name, tags])) {
            XCTAssertTrue("\($0)".contains("alone"), "\($0)")
        }
        XCTAssertTrue(person.indexSpecs.isEmpty)
    }
}
