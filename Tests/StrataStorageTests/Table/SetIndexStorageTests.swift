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

    /// Many objects sharing their sets' strings (encoded once for the column and the element index): every
    /// string's lookup is the objects whose set holds it, in key order, before and after the commit's merge; the
    /// column reads back each set in set order; strings with zero bytes, empty ones, repeats within a set, sets
    /// larger than the small-set encoding and sets of optional strings holding a null all take part.
    func testManyObjectsSharingSetStringsIndexAndReadBackTheirSets() throws {
        let optional = try person.addColumn(named: "optional", type: .set(.string), elementsNullable: true)
        let index = try person.addIndex(on: [tags])
        let optionalIndex = try person.addIndex(on: [optional])
        var generator = SeededGenerator(seed: 2612)
        let pool = ["", "a", "a\u{0}b", "\u{0}", "nick-1", "nick-12", "nick-120", "ünïcode", "日本"]
            + (0..<40).map { "tag-\($0)" }
        var sets: [ObjectKey: [String]] = [:]
        var optionalSets: [ObjectKey: [StorageValue]] = [:]
        for number in 0..<1500 {
            let count = number % 97 == 0 ? 30 : generator.below(7)
            let strings = (0..<count).map { _ in pool[generator.below(pool.count)] }
            var optionalValues: [StorageValue] = strings.prefix(3).map { .string($0) }
            if number % 5 == 0 { optionalValues.append(.null) }
            let key = try person.insert([(tags, .list(strings.map { .string($0) })), (optional, .list(optionalValues))])
            sets[key] = strings
            optionalSets[key] = optionalValues
        }
        func check(_ table: Table) throws {
            for string in pool {
                let holders = sets.keys.filter { sets[$0]!.contains(string) }.sorted()
                XCTAssertEqual(try table.lookup(index, equal: [.string(string)]), holders, string)
                let optionalHolders = optionalSets.keys.filter { optionalSets[$0]!.contains(.string(string)) }.sorted()
                XCTAssertEqual(try table.lookup(optionalIndex, equal: [.string(string)]), optionalHolders, string)
            }
            XCTAssertEqual(
                try table.lookup(optionalIndex, equal: [.null]),
                optionalSets.keys.filter { optionalSets[$0]!.contains(.null) }.sorted())
            for (key, strings) in sets {
                XCTAssertEqual(
                    try table.setElements(key, column: tags),
                    CollectionCodec.normalizedSet(strings.map { .string($0) }))
            }
        }
        try check(person)
        try fixture.catalog.verify()
        try fixture.commit()
        try check(try XCTUnwrap(fixture.catalog.table(named: "Person")))
        try fixture.catalog.verify()
    }

    /// An insert refused after its set was encoded (a taken unique value) leaves no entry of the set's strings nor
    /// any row behind.
    func testARefusedInsertLeavesNoElementEntries() throws {
        let email = try person.addColumn(named: "email", type: .value(.string))
        let index = try person.addIndex(on: [tags])
        _ = try person.addIndex(on: [email], unique: true)
        let ana = try person.insert([(email, .string("ana@x")), (tags, strings("a", "b"))])
        XCTAssertThrowsError(try person.insert([(email, .string("ana@x")), (tags, strings("b", "c"))]))
        XCTAssertEqual(try person.lookup(index, equal: [.string("b")]), [ana])
        XCTAssertEqual(try person.lookup(index, equal: [.string("c")]), [])
        XCTAssertEqual(try person.count(), 1)
        try fixture.catalog.verify()
        try fixture.commit()
        let stored = try XCTUnwrap(fixture.catalog.table(named: "Person"))
        XCTAssertEqual(try stored.lookup(index, equal: [.string("c")]), [])
        try fixture.catalog.verify()
    }
}
