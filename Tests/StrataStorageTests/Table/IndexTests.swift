import StrataStorage
import StrataTestSupport
import XCTest

final class IndexTests: XCTestCase {
    private var fixture: TableFixture!
    private var table: Table!
    private var score: ColumnKey!
    private var nameColumn: ColumnKey!
    private var group: ColumnKey!

    override func setUpWithError() throws {
        fixture = try TableFixture()
        table = try fixture.catalog.createTable(named: "Player")
        score = try table.addColumn(named: "score", type: .value(.int), nullable: true)
        nameColumn = try table.addColumn(named: "name", type: .value(.string))
        group = try table.addColumn(named: "group", type: .value(.bool))
    }

    func testIndexStaysExactThroughUpdatesAndDeletes() throws {
        let index = try table.addIndex(on: [score])
        var random = SeededGenerator(seed: 5)
        var model: [ObjectKey: Int64?] = [:]
        for _ in 0..<3000 {
            let value: Int64? = Bool.random(using: &random) ? Int64.random(in: -50...50, using: &random) : nil
            model[try table.insert([(score, value.map { .int($0) } ?? .null)])] = value
        }
        for _ in 0..<2000 {
            let key = model.keys.randomElement(using: &random)!
            if Int.random(in: 0..<4, using: &random) == 0 {
                try table.delete(key)
                model[key] = nil
            } else {
                let value = Int64.random(in: -60...60, using: &random)
                try table.set(key, column: score, to: .int(value))
                model[key] = value
            }
        }
        try fixture.commit()
        let stored = try XCTUnwrap(fixture.catalog.table(named: "Player"))
        for probe in Int64(-61)...61 {
            let expected = model.filter { $0.value == probe }.keys.sorted()
            XCTAssertEqual(try stored.lookup(index, equal: [.int(probe)]), expected, "score == \(probe)")
        }
        XCTAssertEqual(try stored.lookup(index, equal: [.null]).count, model.values.filter { $0 == nil }.count)
        let inRange = model.filter { $0.value.map { $0 >= -5 && $0 < 7 } ?? false }.keys.sorted()
        XCTAssertEqual(try stored.lookup(index, from: .int(-5), lowerInclusive: true, to: .int(7), upperInclusive: false).sorted(), inRange)
        let above = model.filter { $0.value.map { $0 > 58 } ?? false }.keys.sorted()
        XCTAssertEqual(try stored.lookup(index, from: .int(58), lowerInclusive: false, to: nil).sorted(), above)
        let upTo = model.filter { $0.value.map { $0 <= -59 } ?? false }.keys.sorted()
        XCTAssertEqual(try stored.lookup(index, from: nil, to: .int(-59), upperInclusive: true).sorted(), upTo, "open lower bound skips nulls")
        XCTAssertEqual(try stored.lookup(index, in: [.int(1), .int(2), .int(1)]).sorted(),
                       model.filter { $0.value == 1 || $0.value == 2 }.keys.sorted())
        try fixture.catalog.verify()
    }

    func testRangeLookupsAtTheEdgesOfInt64() throws {
        let index = try table.addIndex(on: [score])
        let low = try table.insert([(score, .int(.min))])
        let zero = try table.insert([(score, .int(0))])
        let high = try table.insert([(score, .int(.max))])
        XCTAssertEqual(try table.lookup(index, from: .int(.min), to: .int(.max), upperInclusive: true), [low, zero, high])
        XCTAssertEqual(try table.lookup(index, from: .int(.min), lowerInclusive: false, to: .int(.max), upperInclusive: false), [zero])
        XCTAssertEqual(try table.lookup(index, from: .int(1), to: nil), [high])
        XCTAssertEqual(try table.lookup(index, from: .int(-1), to: .int(0)), [])
        XCTAssertEqual(try table.lookup(index, from: .int(5), to: .int(1)), [])
    }

    /// Enough entries for a branch over many index leaves, with separators both short and longer than a
    /// branch keeps inline (24 bytes): every value must still be found after commits and deletes.
    func testLongAndShortIndexKeysFindEveryObjectThroughBranchSeparators() throws {
        let index = try table.addIndex(on: [nameColumn])
        func word(_ row: Int) -> String { row % 2 == 0 ? "n\(row)" : String(repeating: "long-prefix-", count: 4) + "\(row)" }
        var keys: [ObjectKey] = []
        for row in 0..<6000 { keys.append(try table.insert([(nameColumn, .string(word(row)))])) }
        try fixture.commit()
        let stored = try XCTUnwrap(fixture.catalog.table(named: "Player"))
        for row in stride(from: 0, to: 6000, by: 3) { try stored.delete(keys[row]) }
        try fixture.commit()
        let reopened = try XCTUnwrap(fixture.catalog.table(named: "Player"))
        for row in stride(from: 0, to: 6000, by: 7) {
            let expected = row % 3 == 0 ? [] : [keys[row]]
            XCTAssertEqual(try reopened.lookup(index, equal: [.string(word(row))]), expected, "row \(row)")
        }
    }

    func testStringPrefixLookupsMatchEdgesExactly() throws {
        let index = try table.addIndex(on: [nameColumn])
        let words = ["", "a", "a\u{0}", "ab", "abc", "abd", "b", "name-1", "name-10", "name-2", "é", "éa", "\u{10FFFF}"]
        var keys: [String: ObjectKey] = [:]
        for word in words { keys[word] = try table.insert([(nameColumn, .string(word))]) }
        try fixture.commit()
        let stored = try XCTUnwrap(fixture.catalog.table(named: "Player"))
        for prefix in ["", "a", "ab", "abc", "abcd", "name-1", "é", "z", "\u{0}"] {
            let expected = words.filter { $0.utf8.starts(with: prefix.utf8) }.map { keys[$0]! }.sorted()
            XCTAssertEqual(try stored.lookup(index, prefix: prefix).sorted(), expected, "prefix '\(prefix)'")
        }
        XCTAssertEqual(try stored.lookup(index, equal: [.string("a")]), [keys["a"]!], "equality is not a prefix match")
        XCTAssertEqual(try stored.lookup(index, from: .string("ab"), to: .string("b")).sorted(),
                       ["ab", "abc", "abd"].map { keys[$0]! }.sorted())
    }

    func testCompoundIndexFindsByLeadingAndFullValues() throws {
        let index = try table.addIndex(on: [group, score])
        var expected: [Bool: [Int64: [ObjectKey]]] = [:]
        for value in 0..<400 {
            let flag = value % 3 == 0
            let key = try table.insert([(group, .bool(flag)), (score, .int(Int64(value % 10)))])
            expected[flag, default: [:]][Int64(value % 10), default: []].append(key)
        }
        XCTAssertEqual(try table.lookup(index, equal: [.bool(true)]).count, expected[true]!.values.reduce(0) { $0 + $1.count })
        XCTAssertEqual(try table.lookup(index, equal: [.bool(false), .int(4)]), expected[false]![4]!)
        XCTAssertEqual(try table.lookup(index, leading: [.bool(true)], from: .int(2), to: .int(4)).sorted(),
                       (expected[true]![2]! + expected[true]![3]!).sorted())
        let first = expected[true]![7]![0]
        try table.set(first, column: score, to: .int(100))
        XCTAssertFalse(try table.lookup(index, equal: [.bool(true), .int(7)]).contains(first))
        XCTAssertEqual(try table.lookup(index, equal: [.bool(true), .int(100)]), [first])
        try fixture.catalog.verify()
    }

    func testPrimaryKeyRefusesDuplicatesWithoutChangingAnything() throws {
        try table.setPrimaryKey(nameColumn)
        let ana = try table.insert([(nameColumn, .string("ana"))])
        _ = try table.insert([(nameColumn, .string("bo"))])
        XCTAssertThrowsError(try table.insert([(nameColumn, .string("ana")), (score, .int(1))])) { error in
            XCTAssertEqual(error as? StrataError, .duplicatePrimaryKey(type: "Player", key: "\"ana\""))
        }
        XCTAssertThrowsError(try table.set(ana, column: nameColumn, to: .string("bo")))
        XCTAssertEqual(try table.count(), 2)
        XCTAssertEqual(try table.find(primaryKey: .string("ana")), ana)
        XCTAssertNil(try table.find(primaryKey: .string("an")))
        try table.set(ana, column: nameColumn, to: .string("ana b."))
        XCTAssertEqual(try table.find(primaryKey: .string("ana b.")), ana)
        XCTAssertNil(try table.find(primaryKey: .string("ana")))
        try fixture.catalog.verify()
    }

    func testAddingIndexToFilledColumnRebuildsItAndUniqueFailureLeavesNoIndex() throws {
        for value in 0..<2500 { try table.insert([(score, .int(Int64(value % 1000))), (nameColumn, .string("n\(value)"))]) }
        try fixture.commit()
        let filled = try XCTUnwrap(fixture.catalog.table(named: "Player"))
        XCTAssertThrowsError(try filled.addIndex(on: [score], unique: true))
        XCTAssertTrue(filled.indexSpecs.isEmpty)
        let index = try filled.addIndex(on: [score])
        XCTAssertEqual(try filled.lookup(index, equal: [.int(999)]).count, 2)
        try filled.setPrimaryKey(nameColumn)
        XCTAssertNotNil(try filled.find(primaryKey: .string("n2499")))
        try fixture.commit()
        try fixture.catalog.verify()
        let reopened = try XCTUnwrap(fixture.catalog.table(named: "Player"))
        try reopened.removeIndex(index)
        XCTAssertThrowsError(try reopened.lookup(index, equal: [.int(1)]))
        try fixture.commit()
        try fixture.catalog.verify()
        var reachable: Set<NodeRef> = []
        try fixture.catalog.forEachNode { reachable.insert($0) }
        XCTAssertEqual(reachable, fixture.space.committedRefs, "removed index nodes are freed, none leaks")
    }
    func testUniqueIndexRefusesDuplicatesOfEntriesNotYetMergedAndOfStoredOnes() throws {
        let index = try table.addIndex(on: [nameColumn], unique: true)
        var keys: [ObjectKey] = []
        for value in 0..<3000 { keys.append(try table.insert([(nameColumn, .string("n\((value * 7919) % 3000)"))])) }
        try fixture.commit()
        let stored = try XCTUnwrap(fixture.catalog.table(named: "Player"))
        let storedIndex = try XCTUnwrap(stored.index(on: [nameColumn]))
        XCTAssertEqual(storedIndex.key, index)
        // Stored entries, then entries added in this transaction (unmerged), collide; nulls never do.
        for value in 3000..<4000 { keys.append(try stored.insert([(nameColumn, .string("n\((value * 7919) % 4000 + 4000)"))])) }
        for (name, holder) in [("n\(7919 % 3000)", keys[1]), ("n\((3500 * 7919) % 4000 + 4000)", keys[3500])] {
            XCTAssertThrowsError(try stored.insert([(nameColumn, .string(name))])) { error in
                XCTAssertEqual(error as? StrataError,
                               .uniquenessViolation(type: "Player", properties: ["name"], value: "\"\(name)\"",
                                                    holder: holder.rawValue))
            }
        }
        XCTAssertEqual(try stored.count(), 4000)
        // A removal merges the pending entries; the freed value can be taken again, the others still cannot.
        try stored.delete(keys[3500])
        let again = try stored.insert([(nameColumn, .string("n\((3500 * 7919) % 4000 + 4000)"))])
        XCTAssertEqual(try stored.lookup(storedIndex.key, equal: [.string("n\((3500 * 7919) % 4000 + 4000)")]), [again])
        XCTAssertThrowsError(try stored.insert([(nameColumn, .string("n\((3999 * 7919) % 4000 + 4000)"))]))
        try fixture.commit()
        try fixture.catalog.verify()
    }
}
