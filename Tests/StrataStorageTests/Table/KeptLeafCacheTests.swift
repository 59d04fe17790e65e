@testable import StrataStorage
import StrataTestSupport
import XCTest

/// A read transaction's trees keep the leaves they read (`NodeTree.storedLeaf(_:)`): a lookup that comes back to
/// a leaf (an index leaf, then the object's cluster) reads it from the tree's slots instead of through the pager,
/// and the slots grow when a tree is read at random. Every lookup must find what a fresh read finds.
final class KeptLeafCacheTests: XCTestCase {
    /// A committed version read through `NodeReader`, counting the reads.
    private final class CountingReader: NodeReader {
        let space: MemoryNodeSpace
        let root: NodeRef
        private(set) var reads = 0

        init(_ space: MemoryNodeSpace) {
            self.space = space
            root = space.root
        }

        func read(_ ref: NodeRef) throws -> UnsafeRawBufferPointer {
            reads += 1
            return try space.read(ref)
        }
    }

    private let padding = String(repeating: "x", count: 100)

    /// 40,000 objects with long strings: about a hundred rows a cluster and a few dozen entries an index leaf, so
    /// the index has over a thousand leaves and the clusters several hundred.
    private func makeTable() throws -> (TableFixture, IndexKey, ColumnKey, [ObjectKey]) {
        let fixture = try TableFixture()
        let table = try fixture.catalog.createTable(named: "Note")
        let text = try table.addColumn(named: "text", type: .value(.string), nullable: false)
        let number = try table.addColumn(named: "number", type: .value(.int), nullable: false)
        let index = try table.addIndex(on: [text])
        var keys: [ObjectKey] = []
        for value in 0..<40_000 {
            keys.append(try table.insert([(text, .string("\(value)-\(padding)")), (number, .int(Int64(value)))]))
        }
        try fixture.commit()
        return (fixture, index, number, keys)
    }

    func testRandomLookupsGrowTheKeptLeavesAndReadLeavesThroughTheReaderLessOften() throws {
        let (fixture, index, number, keys) = try makeTable()
        let reader = CountingReader(fixture.space)
        let catalog = try Catalog(reader: reader)
        let stored = try XCTUnwrap(catalog.table(named: "Note"))
        var generator = SeededGenerator(seed: 7)
        var readsPerRound: [Int] = []
        for round in 0..<3 {
            let before = reader.reads
            for value in (0..<keys.count).shuffled(using: &generator) {
                let found = try stored.lookup(index, equal: [.string("\(value)-\(padding)")])
                XCTAssertEqual(found, [keys[value]], "round \(round), value \(value)")
                XCTAssertEqual(try stored.int(keys[value], column: number), Int64(value), "round \(round)")
            }
            readsPerRound.append(reader.reads - before)
        }
        // The first round reads every leaf at least once and grows the slots; the later rounds find most leaves
        // kept (two trees of about 1,500 leaves in 2,048 slots or more each).
        XCTAssertGreaterThan(stored.tree.keptLeafSlotCount, 256)
        XCTAssertGreaterThan(try stored.sortedIndex(index).nodes.keptLeafSlotCount, 256)
        XCTAssertLessThan(readsPerRound[2], readsPerRound[0] / 2, "reads per round: \(readsPerRound)")
        XCTAssertEqual(try stored.lookup(index, equal: [.string("absent")]), [])
        XCTAssertEqual(try stored.keys(), keys)
        withExtendedLifetime(catalog) {}
    }

    func testTreesThatCanChangeKeepNoLeaves() throws {
        let (fixture, index, number, keys) = try makeTable()
        let table = try XCTUnwrap(fixture.catalog.table(named: "Note"))
        for value in stride(from: 0, to: keys.count, by: 97) {
            XCTAssertEqual(try table.lookup(index, equal: [.string("\(value)-\(padding)")]), [keys[value]])
            XCTAssertEqual(try table.int(keys[value], column: number), Int64(value))
        }
        XCTAssertEqual(table.tree.keptLeafSlotCount, 0)
        XCTAssertEqual(try table.sortedIndex(index).nodes.keptLeafSlotCount, 0)
        // A change after those reads finds the leaves as they are now.
        try table.set(keys[0], column: number, to: .int(-1))
        XCTAssertEqual(try table.int(keys[0], column: number), -1)
    }

    func testOneValueLookupFindsWhatTheArrayLookupFinds() throws {
        let (fixture, index, _, keys) = try makeTable()
        let catalog = try fixture.reader()
        let stored = try XCTUnwrap(catalog.table(named: "Note"))
        for value in stride(from: 0, to: keys.count, by: 13) {
            let text = StorageValue.string("\(value)-\(padding)")
            XCTAssertEqual(try stored.lookup(index, equalTo: text), try stored.lookup(index, equal: [text]))
            XCTAssertEqual(try stored.lookup(index, equalTo: text), [keys[value]])
        }
        XCTAssertEqual(try stored.lookup(index, equalTo: .string("absent")), [])
        XCTAssertEqual(try stored.lookup(index, equalTo: .null), [])
        withExtendedLifetime(catalog) {}
    }
}
