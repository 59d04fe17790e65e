@testable import StrataStorage
import StrataTestSupport
import XCTest

/// A kept branch's word search (`BranchWords`) must pick the child `BranchView.childIndex(for:)` picks, for every
/// key: keys that differ from the separators' shared prefix, end inside it, equal a separator, or agree with one
/// for 8 bytes past the prefix (where the words tie); separators of zero bytes and of every length.
final class BranchWordsTests: XCTestCase {
    /// A stored branch's bytes over `separators` (the first is the open lower bound), as `BranchView` reads them.
    private func branchBytes(_ separators: [[UInt8]]) -> [UInt8] {
        var bytes: [UInt8] = []
        func put32(_ value: Int) { withUnsafeBytes(of: UInt32(value).littleEndian) { bytes += $0 } }
        func put64(_ value: UInt64) { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
        put32(Int(BranchView.magic))
        put32(separators.count)
        put32(1)
        put32(0)
        var keyOffset = BranchView.headerSize + separators.count * BranchView.entrySize
        for (index, separator) in separators.enumerated() {
            put32(keyOffset)
            put32(separator.count)
            put64(UInt64(index + 1))
            put64(1)
            keyOffset += separator.count
        }
        for separator in separators { bytes += separator }
        return bytes
    }

    /// Checks every key of `keys` against both searches of the branch over `separators`.
    private func assertSameChild(
        _ separators: [[UInt8]], _ keys: [[UInt8]], file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let bytes = branchBytes(separators)
        try bytes.withUnsafeBytes { raw in
            let view = try BranchView(raw, ref: NodeRef(rawValue: 1))
            let words = try BranchWords(view)
            for key in keys {
                try key.withUnsafeBytes { key in
                    XCTAssertEqual(
                        try words.childIndex(for: key, in: view), try view.childIndex(for: key),
                        "key \(Array(key)) over \(separators)", file: file, line: line)
                }
            }
        }
    }

    /// Keys near every separator: the separator itself, one byte shorter and longer, each byte changed up and
    /// down, and a zero byte added.
    private func probes(around separators: [[UInt8]]) -> [[UInt8]] {
        var keys: [[UInt8]] = [[], [0], [255], [UInt8](repeating: 255, count: 20)]
        for separator in separators {
            keys.append(separator)
            keys.append(separator + [0])
            keys.append(separator + [0, 0, 0, 0, 0, 0, 0, 0, 1])
            keys.append(separator + [200])
            if !separator.isEmpty { keys.append(Array(separator.dropLast())) }
            for position in separator.indices {
                var lower = separator
                var higher = separator
                if lower[position] > 0 {
                    lower[position] -= 1
                    keys.append(lower)
                }
                if higher[position] < 255 {
                    higher[position] += 1
                    keys.append(higher)
                }
            }
        }
        return keys
    }

    func testObjectKeySeparatorsPickTheViewsChild() throws {
        // Cluster separators: 8-byte object keys sharing their high bytes.
        let separators = stride(from: 0, to: 128 * 300, by: 300).map { ByteOrder.key(Int64($0)) }
        let keys = probes(around: separators) + (0..<40_000).map { ByteOrder.key(Int64($0)) }
        try assertSameChild(separators, keys)
    }

    func testStringSeparatorsThatTieOnTheirWordsPickTheViewsChild() throws {
        // Index separators: a shared head, then strings of several lengths, some agreeing for 8 bytes and more
        // past it (their words tie), some ending in zero bytes.
        let head = Array("name-".utf8)
        var separators: [[UInt8]] = [head + Array("0".utf8)]
        for value in 1..<100 {
            separators.append(head + Array("\(value * 37)".utf8) + [0] + ByteOrder.key(Int64(value)))
        }
        separators.append(head + Array("99999999".utf8) + [1])
        separators.append(head + Array("99999999".utf8) + [1, 0])
        separators.append(head + Array("99999999".utf8) + [1, 0, 0, 7])
        separators.append(head + Array("99999999zz".utf8))
        separators.sort { ByteOrder.compare($0, $1) < 0 }
        var generator = SeededGenerator(seed: 11)
        var keys = probes(around: separators)
        for _ in 0..<5_000 {
            let length = Int.random(in: 0..<20, using: &generator)
            keys.append(head + (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) })
        }
        try assertSameChild(separators, keys)
    }

    func testBranchesWithoutASharedPrefixOrWithOneSeparatorPickTheViewsChild() throws {
        try assertSameChild([[]], probes(around: [[1, 2, 3]]))
        try assertSameChild([[], [5]], probes(around: [[5], [4, 255], [6]]))
        let spread: [[UInt8]] = [[], [0], [0, 0], [1], [1, 0, 0, 0, 0, 0, 0, 0, 0], [128], [255, 255]]
        try assertSameChild(spread, probes(around: spread))
        // Every separator equal past the first: the whole of each is the shared prefix.
        let same = [[UInt8](), [9, 9, 9], [9, 9, 9]]
        try assertSameChild(same, probes(around: same))
    }

    func testAKeptBranchBuildsItsWordsAfterAFewSearchesAndLookupsStayRight() throws {
        let fixture = try TableFixture()
        let table = try fixture.catalog.createTable(named: "Note")
        let number = try table.addColumn(named: "number", type: .value(.int), nullable: false)
        var keys: [ObjectKey] = []
        for value in 0..<60_000 { keys.append(try table.insert([(number, .int(Int64(value)))])) }
        try fixture.commit()
        let catalog = try fixture.reader()
        defer { withExtendedLifetime(catalog) {} }
        let stored = try XCTUnwrap(catalog.table(named: "Note"))
        let root = stored.tree.storedRoot
        // One lookup reads the root by its view; lookups in random order (each another cluster, mostly) then
        // search it by its words.
        XCTAssertEqual(try stored.int(keys[0], column: number), 0)
        XCTAssertFalse(stored.tree.keptBranchHasWords(root))
        var generator = SeededGenerator(seed: 5)
        for value in (0..<keys.count).shuffled(using: &generator) {
            XCTAssertEqual(try stored.int(keys[value], column: number), Int64(value))
        }
        XCTAssertTrue(stored.tree.keptBranchHasWords(root))
        XCTAssertEqual(try stored.keys(), keys)
    }
}

/// A kept index leaf's sampled search (`IndexLeafSamples`) must find the position `IndexLeafView.lowerBound(_:)`
/// finds, for every target: before, between and after the entries, equal to one, past the shared prefix or not.
final class IndexLeafSamplesTests: XCTestCase {
    /// A stored index leaf's bytes over `entries` (sorted), as `IndexLeafView` reads them.
    private func leafBytes(_ entries: [[UInt8]]) -> [UInt8] {
        var bytes: [UInt8] = []
        func put32(_ value: Int) { withUnsafeBytes(of: UInt32(value).littleEndian) { bytes += $0 } }
        put32(Int(IndexLeaf.magic))
        put32(entries.count)
        var end = 0
        for entry in entries {
            end += entry.count
            put32(end)
        }
        for entry in entries { bytes += entry }
        return bytes
    }

    private func assertSamePosition(
        _ entries: [[UInt8]], _ targets: [[UInt8]], file: StaticString = #filePath, line: UInt = #line
    ) throws {
        try leafBytes(entries).withUnsafeBytes { raw in
            let view = try IndexLeafView(raw, ref: NodeRef(rawValue: 1))
            let samples = try IndexLeafSamples(view)
            for target in targets {
                try target.withUnsafeBytes { target in
                    XCTAssertEqual(
                        try samples.lowerBound(target), try view.lowerBound(target),
                        "target \(Array(target)) over \(entries.count) entries", file: file, line: line)
                }
            }
        }
    }

    /// Targets near every entry: the entry, one byte shorter and longer, its last byte changed up and down.
    private func probes(around entries: [[UInt8]]) -> [[UInt8]] {
        var targets: [[UInt8]] = [[], [0], [255, 255]]
        for entry in entries {
            targets += [entry, entry + [0], entry + [0, 0, 0, 0, 0, 0, 0, 0, 0, 1], Array(entry.dropLast())]
            if let last = entry.last {
                if last > 0 { targets.append(Array(entry.dropLast()) + [last - 1]) }
                if last < 255 { targets.append(Array(entry.dropLast()) + [last + 1]) }
            }
        }
        return targets
    }

    func testNameEntriesFindTheViewsPosition() throws {
        // Entries as a string index stores them: the string's bytes, a zero, the object key; one leaf's worth.
        for count in [0, 1, 2, 15, 16, 17, 33, 600] {
            let entries = (0..<count).map { Array("name-\($0 * 7 + 1000)".utf8) + [0] + ByteOrder.key(Int64($0)) }
                .sorted { ByteOrder.compare($0, $1) < 0 }
            var targets = probes(around: entries)
            for value in 900..<(count * 7 + 1100) { targets.append(Array("name-\(value)".utf8) + [0]) }
            targets.append(Array("name-".utf8))
            targets.append(Array("name".utf8))
            targets.append(Array("nb".utf8))
            try assertSamePosition(entries, targets)
        }
    }

    func testEntriesWhoseWordsTieFindTheViewsPosition() throws {
        // Long shared runs past the prefix: the words of neighbouring samples tie and are compared in full.
        var entries: [[UInt8]] = []
        for value in 0..<200 {
            entries.append([7, 7] + [UInt8](repeating: 3, count: 8 + value % 5) + ByteOrder.key(Int64(value)))
        }
        entries.sort { ByteOrder.compare($0, $1) < 0 }
        var generator = SeededGenerator(seed: 3)
        var targets = probes(around: entries)
        for _ in 0..<3_000 {
            let length = Int.random(in: 0..<24, using: &generator)
            targets.append([7, 7] + (0..<length).map { _ in UInt8.random(in: 2...4, using: &generator) })
        }
        try assertSamePosition(entries, targets)
    }

    func testLookupsThatComeBackToLeavesSampleThemAndFindEveryObject() throws {
        let fixture = try TableFixture()
        let table = try fixture.catalog.createTable(named: "Note")
        let text = try table.addColumn(named: "text", type: .value(.string), nullable: false)
        let index = try table.addIndex(on: [text])
        var keys: [ObjectKey] = []
        for value in 0..<20_000 { keys.append(try table.insert([(text, .string("name-\(value)"))])) }
        try fixture.commit()
        let catalog = try fixture.reader()
        defer { withExtendedLifetime(catalog) {} }
        let stored = try XCTUnwrap(catalog.table(named: "Note"))
        let sorted = try stored.sortedIndex(index)
        var generator = SeededGenerator(seed: 9)
        for round in 0..<3 {
            for value in (0..<keys.count).shuffled(using: &generator) {
                XCTAssertEqual(
                    try stored.lookupFound(index, equalTo: .string("name-\(value)")).array, [keys[value]],
                    "round \(round)")
            }
            XCTAssertEqual(try stored.lookupFound(index, equalTo: .string("name-")).array, [])
            XCTAssertEqual(try stored.lookupFound(index, equalTo: .string("name-20000")).array, [])
            XCTAssertEqual(try stored.lookupFound(index, equalTo: .string("zzz")).array, [])
            // The first round reads each leaf for the first time at least once; from then on lookups come back.
            XCTAssertGreaterThan(sorted.sampledLeafSlotCount, 0, "round \(round)")
        }
    }
}
