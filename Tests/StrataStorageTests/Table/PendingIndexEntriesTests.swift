import StrataTestSupport
import XCTest

@testable import StrataStorage

/// The entries an index collects in a write transaction before merging them (`PendingEntries`), the flat buffer
/// they and decoded leaves are held in (`PackedEntries`), and what a table sees of them: reads inside the write see
/// them, a rollback drops them, uniqueness is checked against them.
final class PendingIndexEntriesTests: XCTestCase {
    private var fixture: TableFixture!
    private var person: Table!
    private var email: ColumnKey!
    private var tags: ColumnKey!

    override func setUpWithError() throws {
        fixture = try TableFixture()
        person = try fixture.catalog.createTable(named: "Person")
        email = try person.addColumn(named: "email", type: .value(.string), nullable: true)
        tags = try person.addColumn(named: "tags", type: .set(.string))
    }

    // MARK: The buffers

    /// Entries of random lengths (0 to 40 bytes) over a few byte values, so prefixes, ties on the first 16 bytes
    /// and repeats are common.
    private func randomEntries(_ count: Int, _ generator: inout SeededGenerator) -> [[UInt8]] {
        (0..<count).map { _ in (0..<generator.below(41)).map { _ in UInt8([0, 1, 2, 255][generator.below(4)]) } }
    }

    func testPackedEntriesInsertRemoveSplitAndAppendLikeAnArrayOfEntries() {
        var generator = SeededGenerator(seed: 26)
        let packed = PackedEntries()
        var model: [[UInt8]] = []
        for step in 0..<3000 {
            let entry = randomEntries(1, &generator)[0]
            switch generator.below(4) {
            case 0 where !model.isEmpty:
                let index = generator.below(model.count)
                packed.remove(at: index)
                model.remove(at: index)
            case 1:
                entry.withUnsafeBytes { packed.append($0) }
                model.append(entry)
            default:
                let index = generator.below(model.count + 1)
                entry.withUnsafeBytes { packed.insert($0, at: index) }
                model.insert(entry, at: index)
            }
            if step % 500 == 499 {
                let at = generator.below(model.count + 1)
                let upper = packed.split(at: at)
                XCTAssertEqual((0..<upper.count).map { Array(upper.entry($0)) }, Array(model[at...]))
                packed.append(upper, 0..<upper.count)
            }
        }
        XCTAssertEqual(packed.count, model.count)
        XCTAssertEqual(packed.byteCount, model.reduce(0) { $0 + $1.count })
        XCTAssertEqual((0..<packed.count).map { Array(packed.entry($0)) }, model)
    }

    func testPendingEntriesSortInByteOrderWithoutRepeats() {
        var generator = SeededGenerator(seed: 27)
        let entries = randomEntries(5000, &generator)
        let pending = PendingEntries(tracksHolders: false)
        for entry in entries { entry.withUnsafeBytes { pending.append($0) } }
        let sorted = pending.sorted()
        let expected = Array(Set(entries)).sorted { ByteOrder.compare($0, $1) < 0 }
        XCTAssertEqual((0..<sorted.count).map { Array(sorted[$0]) }, expected)
    }

    /// Entries as a set's index makes them (a shared beginning, a number, the object key), with repeats, prefixes
    /// of each other and ties on the first 20 bytes: the radix sort skips the byte positions they all share, and
    /// must still give byte order without repeats.
    func testPendingEntriesWithSharedBeginningsSortInByteOrder() {
        var generator = SeededGenerator(seed: 28)
        var entries: [[UInt8]] = []
        for _ in 0..<20_000 {
            let number = generator.below(300)
            var entry: [UInt8] = [1] + Array("nick-\(number)".utf8) + [0, 0]
            switch generator.below(4) {
            case 0: entry = Array(entry.prefix(generator.below(entry.count + 1)))
            case 1: entry += ByteOrder.key(Int64(generator.below(3))) + [UInt8(generator.below(2))]
            default: entry += ByteOrder.key(Int64(generator.below(100_000)))
            }
            entries.append(entry)
        }
        let pending = PendingEntries(tracksHolders: false)
        for entry in entries { entry.withUnsafeBytes { pending.append($0) } }
        let sorted = pending.sorted()
        let expected = Array(Set(entries)).sorted { ByteOrder.compare($0, $1) < 0 }
        XCTAssertEqual((0..<sorted.count).map { Array(sorted[$0]) }, expected)
        XCTAssertEqual(PendingEntries(tracksHolders: false).sorted().count, 0)
    }

    /// Entries that differ in one byte position only (each of the 20 a sort record holds in turn, and a few past
    /// them), entries that all share their first 20 bytes, and two entries: the radix sort finds the positions that
    /// vary by one pass over the records and counts only those, and must give byte order without repeats.
    func testEntriesVaryingInOneBytePositionSortInByteOrder() {
        var generator = SeededGenerator(seed: 30)
        let shared = (0..<24).map { _ in UInt8(generator.below(256)) }
        for position in 0..<24 {
            let entries = (0..<300).map { _ -> [UInt8] in
                var entry = shared
                entry[position] = UInt8(generator.below(256))
                return entry
            }
            XCTAssertEqual(sortedByPendingEntries(entries), byteOrder(entries), "byte \(position)")
        }
        let tied = (0..<50).map { Array(shared.prefix(20)) + [UInt8($0 % 7)] }
        XCTAssertEqual(sortedByPendingEntries(tied), byteOrder(tied))
        XCTAssertEqual(sortedByPendingEntries([[2, 1], [1, 2]]), [[1, 2], [2, 1]])
        XCTAssertEqual(sortedByPendingEntries([shared, shared]), [shared])
    }

    private func sortedByPendingEntries(_ entries: [[UInt8]]) -> [[UInt8]] {
        let pending = PendingEntries(tracksHolders: false)
        for entry in entries { entry.withUnsafeBytes { pending.append($0) } }
        let sorted = pending.sorted()
        return (0..<sorted.count).map { Array(sorted[$0]) }
    }

    private func byteOrder(_ entries: [[UInt8]]) -> [[UInt8]] {
        Array(Set(entries)).sorted { ByteOrder.compare($0, $1) < 0 }
    }

    /// A bulk insert's entries: values of several lengths (some past the 20 bytes a sort record holds, some
    /// sharing those 20 bytes, some exactly 20 or 21 bytes long) followed by ascending object keys, with repeats.
    /// The records then hold the values alone (`keysAscend`), a run of one value of at most 20 bytes is taken in
    /// its order without reading its entries, and the order must still be the entries' byte order.
    func testEntriesWithAscendingKeysSortByTheirValuesInByteOrder() {
        var generator = SeededGenerator(seed: 29)
        let long = String(repeating: "x", count: 30)
        let values: [[UInt8]] = (0..<200).map { number in
            var text = number % 3 == 0 ? "nick-\(number)" : "n-\(number % 50)"
            if number % 7 == 0 { text = long + "\(number % 10)" }
            // 20 bytes with its tag and terminator, and 21.
            if number % 13 == 0 { text = String(repeating: "y", count: 17) + (number % 2 == 0 ? "" : "z") }
            if number % 11 == 0 { text = "" }
            return [1] + Array(text.utf8) + [0, 0]
        } + [[0]]
        let pending = PendingEntries(tracksHolders: false, endsWithKeys: true)
        var entries: [[UInt8]] = []
        var key: Int64 = -5
        for _ in 0..<20_000 {
            key += Int64(generator.below(3))
            let entry = values[generator.below(values.count)] + ByteOrder.key(key)
            entries.append(entry)
            entry.withUnsafeBytes { pending.append($0) }
            if generator.below(10) == 0 {
                entries.append(entry)
                entry.withUnsafeBytes { pending.append($0) }
            }
        }
        XCTAssertTrue(pending.keysAscend)
        let expected = Array(Set(entries)).sorted { ByteOrder.compare($0, $1) < 0 }
        let sorted = pending.sorted()
        XCTAssertEqual((0..<sorted.count).map { Array(sorted[$0]) }, expected)
        // One key going back turns the values-only records off, with the same order.
        let late = values[3] + ByteOrder.key(0)
        late.withUnsafeBytes { pending.append($0) }
        XCTAssertFalse(pending.keysAscend)
        let again = pending.sorted()
        let withLate = Array(Set(entries + [late])).sorted { ByteOrder.compare($0, $1) < 0 }
        XCTAssertEqual((0..<again.count).map { Array(again[$0]) }, withLate)
    }

    /// A set's element entries encoded straight into the buffer (`appendElements`) are the bytes the general
    /// encoding gives, for strings with and without zero bytes, empty strings and other kinds, and a key going
    /// back still turns `keysAscend` off; after `removeAll` the buffer is filled again from its start.
    func testElementEntriesEncodedInPlaceMatchTheGeneralEncoding() {
        let elements: [StorageValue] = [
            .string("nick-1"), .string(""), .string("a\u{0}b"), .int(-7), .string("ünïcode"), .null, .bool(true),
        ]
        func expected(_ element: StorageValue, _ key: Int64) -> [UInt8] {
            var bytes: [UInt8] = []
            IndexKeyEncoding.append(element, to: &bytes)
            return bytes + ByteOrder.key(key)
        }
        let pending = PendingEntries(tracksHolders: false, endsWithKeys: true)
        var scratch: [UInt8] = []
        var model: [[UInt8]] = []
        for key: Int64 in [-3, 0, 0, 5, 1 << 40] {
            pending.appendElements(elements, key: ObjectKey(key), scratch: &scratch)
            model += elements.map { expected($0, key) }
        }
        XCTAssertTrue(pending.keysAscend)
        XCTAssertEqual((0..<pending.entries.count).map { Array(pending.entries.entry($0)) }, model)
        pending.appendElements([.string("late")], key: ObjectKey(4), scratch: &scratch)
        XCTAssertFalse(pending.keysAscend, "a key before the last one")
        XCTAssertEqual(Array(pending.entries.entry(pending.count - 1)), expected(.string("late"), 4))
        pending.removeAll()
        XCTAssertTrue(pending.isEmpty)
        XCTAssertTrue(pending.keysAscend)
        pending.appendElements([.string("again")], key: ObjectKey(2), scratch: &scratch)
        XCTAssertEqual((0..<pending.count).map { Array(pending.entries.entry($0)) }, [expected(.string("again"), 2)])
    }

    /// A set of strings' element entries read back from the set's column bytes (`appendStringSet`) are the entries
    /// `appendElements` makes for the same set in set order without repeats: strings with zero bytes (escaped),
    /// empty ones, non-ASCII ones, sets larger than the small-set encoding; a key going back, or a unique index's
    /// holders, take the general path with the same bytes.
    func testStringSetEntriesReadFromTheColumnBytesMatchTheElementEntries() throws {
        var generator = SeededGenerator(seed: 2611)
        let pool = ["", "a", "a\u{0}", "a\u{0}b", "\u{0}", "ab", "nick-1", "nick-12", "ünïcode", "日本",
                    String(repeating: "long-", count: 9)]
        let direct = PendingEntries(tracksHolders: false, endsWithKeys: true)
        let general = PendingEntries(tracksHolders: false, endsWithKeys: true)
        let holding = PendingEntries(tracksHolders: true, endsWithKeys: true)
        var scratch: [UInt8] = []
        for (step, key) in ([0, 1, 1, 7, 3, 9, 1 << 40] as [Int64]).enumerated() {
            let count = step == 6 ? 40 : generator.below(CollectionCodec.smallStringSet + 1) + 1
            let elements = (0..<count).map { _ in StorageValue.string(pool[generator.below(pool.count)]) }
                + (step == 6 ? (0..<30).map { .string("tag-\($0)") } : [])
            let bytes = try XCTUnwrap(CollectionCodec.encodeStrings(elements))
            XCTAssertEqual(bytes, CollectionCodec.encodeSet(elements, kind: .string))
            try bytes.withUnsafeBytes { raw in
                try direct.appendStringSet(raw, key: ObjectKey(key), scratch: &scratch)
                try holding.appendStringSet(raw, key: ObjectKey(key), scratch: &scratch)
            }
            general.appendElements(CollectionCodec.normalizedSet(elements), key: ObjectKey(key), scratch: &scratch)
        }
        let entries = { (pending: PendingEntries) in (0..<pending.count).map { Array(pending.entries.entry($0)) } }
        XCTAssertEqual(entries(direct), entries(general))
        XCTAssertEqual(entries(holding), entries(general))
        XCTAssertFalse(direct.keysAscend, "key 3 came after key 7")
        XCTAssertEqual(direct.keysAscend, general.keysAscend)
        let (sortedDirect, sortedGeneral) = (direct.sorted(), general.sorted())
        XCTAssertEqual(
            (0..<sortedDirect.count).map { Array(sortedDirect[$0]) },
            (0..<sortedGeneral.count).map { Array(sortedGeneral[$0]) })
        XCTAssertNil(CollectionCodec.encodeStrings([.string("a"), .null]))
        XCTAssertNil(CollectionCodec.encodeStrings((0..<20).map { $0 == 19 ? .int(1) : .string("s\($0)") }))
        XCTAssertThrowsError(try [UInt8]([2, 0, 0, 0, 0, 0, 0, 0]).withUnsafeBytes {
            try CollectionCodec.forEachString(inSet: $0) { _ in }
        })
    }

    func testSortedRunsMergeIntoOneByteOrderWithoutRepeats() {
        var generator = SeededGenerator(seed: 30)
        var all: [[UInt8]] = []
        var runs: [SortedEntries] = []
        for _ in 0..<3 {
            let entries = randomEntries(3000, &generator)
            all += entries
            let pending = PendingEntries(tracksHolders: false)
            for entry in entries { entry.withUnsafeBytes { pending.append($0) } }
            runs.append(pending.sorted())
        }
        let merged = SortedEntries(merging: runs)
        let expected = Array(Set(all)).sorted { ByteOrder.compare($0, $1) < 0 }
        XCTAssertEqual((0..<merged.count).map { Array(merged[$0]) }, expected)
        XCTAssertEqual(SortedEntries(merging: [runs[1]]).count, runs[1].count)
    }

    func testPendingHoldersKeepTheFirstEntryOfEachValue() {
        let pending = PendingEntries(tracksHolders: true)
        func entry(_ values: [UInt8], _ key: Int64) -> [UInt8] { values + ByteOrder.key(key) }
        for number in 0..<5000 {
            // 2,500 values, each added twice: the first object to add it holds it.
            let values = [1] + Array("value-\(number % 2500)".utf8) + [0, 0]
            entry(values, Int64(number)).withUnsafeBytes { pending.append($0) }
        }
        for number in [0, 1, 1249, 2499] {
            let values = [1] + Array("value-\(number)".utf8) + [0, 0]
            XCTAssertEqual(values.withUnsafeBytes { pending.holder(of: $0) }, ObjectKey(Int64(number)))
        }
        let absent: [UInt8] = [1] + Array("value-2500".utf8) + [0, 0]
        XCTAssertNil(absent.withUnsafeBytes { pending.holder(of: $0) })
        let prefix: [UInt8] = [1] + Array("value-1".utf8)
        XCTAssertNil(prefix.withUnsafeBytes { pending.holder(of: $0) }, "a prefix holds nothing")
    }

    // MARK: Through a table

    func testReadsInsideTheWriteSeePendingEntriesOfAnIndexedSet() throws {
        let index = try person.addIndex(on: [tags])
        var keys: [ObjectKey] = []
        for number in 0..<2000 {
            let set = StorageValue.list((0..<5).map { .string("tag-\((number * 7 + $0 * 131) % 400)") })
            keys.append(try person.insert([(tags, set)]))
        }
        let expected = (0..<2000).filter { number in (0..<5).contains { (number * 7 + $0 * 131) % 400 == 3 } }
        XCTAssertEqual(
            try person.lookupCount(index, equal: [.string("tag-3")]), expected.count, "counted before commit")
        XCTAssertEqual(try person.lookup(index, equal: [.string("tag-3")]), expected.map { keys[$0] })
        // More pending entries after the read merged the first ones; a removal sees both.
        let late = try person.insert([(tags, .list([.string("tag-3")]))])
        XCTAssertEqual(try person.lookupCount(index, equal: [.string("tag-3")]), expected.count + 1)
        try person.delete(keys[expected[0]])
        XCTAssertEqual(
            try person.lookup(index, equal: [.string("tag-3")]), expected.dropFirst().map { keys[$0] } + [late])
        try fixture.catalog.verify()
        try fixture.commit()
        try fixture.catalog.verify()
    }

    /// With a buffer limit of a few KiB, an indexed set's full buffers are sorted and set aside (three buffers at
    /// most, then everything is merged), a unique index's are merged at once; reads, removals and the commit see
    /// every entry either way.
    func testFullBuffersAreSetAsideAndMergedWithoutLosingEntries() throws {
        let index = try person.addIndex(on: [tags])
        let unique = try person.addIndex(on: [email], unique: true)
        for sorted in person.indexes where !sorted.isImplied { sorted.bufferByteLimit = 4096 }
        var keys: [ObjectKey] = []
        func tagsOf(_ number: Int) -> [String] { (0..<5).map { "tag-\((number * 7 + $0 * 131) % 400)" } }
        for number in 0..<3000 {
            let set = StorageValue.list(tagsOf(number).map { .string($0) })
            keys.append(try person.insert([(email, .string("p\(number)@x")), (tags, set)]))
        }
        XCTAssertThrowsError(try person.insert([(email, .string("p17@x"))]), "a merged value is still taken")
        XCTAssertThrowsError(try person.insert([(email, .string("p2999@x"))]), "a pending value is still taken")
        let holders = (0..<3000).filter { tagsOf($0).contains("tag-3") }
        XCTAssertEqual(try person.lookup(index, equal: [.string("tag-3")]), holders.map { keys[$0] })
        // Set aside again after the read merged everything; a removal sees both.
        for number in 3000..<4000 {
            keys.append(try person.insert([(tags, .list(tagsOf(number).map { .string($0) }))]))
        }
        try person.delete(keys[holders[0]])
        let after = (holders.dropFirst() + (3000..<4000).filter { tagsOf($0).contains("tag-3") }).map { keys[$0] }
        XCTAssertEqual(try person.lookup(index, equal: [.string("tag-3")]), after)
        for number in 4000..<6000 {
            keys.append(try person.insert([(tags, .list(tagsOf(number).map { .string($0) }))]))
        }
        try fixture.commit()
        let stored = try XCTUnwrap(fixture.catalog.table(named: "Person"))
        let committed = after + (4000..<6000).filter { tagsOf($0).contains("tag-3") }.map { keys[$0] }
        XCTAssertEqual(try stored.lookup(index, equal: [.string("tag-3")]), committed)
        XCTAssertEqual(try stored.lookupCount(index, equal: [.string("tag-200")]),
                       (0..<6000).filter { $0 != holders[0] && tagsOf($0).contains("tag-200") }.count)
        XCTAssertEqual(try stored.find(email: "p2999@x", in: unique), keys[2999])
        try fixture.catalog.verify()
    }

    func testRollbackDropsPendingEntries() throws {
        let index = try person.addIndex(on: [tags])
        let unique = try person.addIndex(on: [email], unique: true)
        let kept = try person.insert([(email, .string("kept@x")), (tags, .list([.string("a")]))])
        try fixture.commit()
        let again = try XCTUnwrap(fixture.catalog.table(named: "Person"))
        for number in 0..<1000 {
            try again.insert([(email, .string("gone-\(number)@x")), (tags, .list([.string("a"), .string("b")]))])
        }
        try fixture.rollback()
        let stored = try XCTUnwrap(fixture.catalog.table(named: "Person"))
        XCTAssertEqual(try stored.lookup(index, equal: [.string("a")]), [kept])
        XCTAssertEqual(try stored.lookup(index, equal: [.string("b")]), [])
        XCTAssertEqual(try stored.lookup(unique, equal: [.string("gone-5@x")]), [])
        // The values the rolled-back objects held are free again.
        let taken = try stored.insert([(email, .string("gone-5@x"))])
        XCTAssertEqual(try stored.find(email: "gone-5@x", in: unique), taken)
        try fixture.catalog.verify()
    }

    func testUniquenessIsCheckedAgainstPendingAndMergedEntriesInOneWrite() throws {
        let unique = try person.addIndex(on: [email], unique: true)
        let first = try person.insert([(email, .string("a@x"))])
        // Two pending entries with the same value: the second insert is refused, nothing merged.
        XCTAssertThrowsError(try person.insert([(email, .string("a@x"))])) { error in
            XCTAssertEqual(error as? StrataError,
                           .uniquenessViolation(type: "Person", properties: ["email"], value: "\"a@x\"",
                                                holder: first.rawValue))
        }
        // Nulls never collide, pending or not.
        try person.insert([(email, .null)])
        try person.insert([(email, .null)])
        // A read merges the pending entries; the merged value and a new pending one both still refuse a twin.
        XCTAssertEqual(try person.lookup(unique, equal: [.string("a@x")]), [first])
        let second = try person.insert([(email, .string("b@x"))])
        XCTAssertThrowsError(try person.insert([(email, .string("a@x"))]))
        XCTAssertThrowsError(try person.insert([(email, .string("b@x"))]))
        // A change to a pending value is checked too, and frees the old value.
        XCTAssertThrowsError(try person.set(second, column: email, to: .string("a@x")))
        try person.set(second, column: email, to: .string("c@x"))
        let third = try person.insert([(email, .string("b@x"))])
        XCTAssertEqual(try person.find(email: "b@x", in: unique), third)
        XCTAssertEqual(try person.count(), 5)
        try fixture.catalog.verify()
        try fixture.commit()
        try fixture.catalog.verify()
    }
}

private extension Table {
    /// The one object holding `value` in unique string index `index`, or `nil`.
    func find(email value: String, in index: IndexKey) throws -> ObjectKey? {
        let found = try lookup(index, equal: [.string(value)])
        XCTAssertLessThanOrEqual(found.count, 1)
        return found.first
    }
}
