@testable import StrataStorage
import StrataTestSupport
import XCTest

/// `BranchView.childIndex(for:interpolating:)` starts an 8-byte key's search in a cluster tree's branch where the
/// separators' numbers put it: whatever the separators (even, gapped, skewed, not 8 bytes long), it must give what a
/// plain binary search gives, the last child whose separator is at most the key.
final class BranchChildIndexTests: XCTestCase {
    /// A stored branch over `separators` (separator 0 is the leftmost child's, never compared).
    private func branch(_ separators: [[UInt8]], in space: MemoryNodeSpace) throws -> BranchView {
        let keys = separators.map { bytes in bytes.withUnsafeBytes { BranchKey($0) } }
        let children = separators.indices.map { NodeRef(rawValue: UInt64($0 + 1) << 24) }
        let ref = try BranchView.encode(
            level: 1, keys: keys, children: children, counts: Array(repeating: 1, count: separators.count), in: space)
        return try BranchView(try space.read(ref), ref: ref)
    }

    /// The answer of a binary search over every separator.
    private func expected(_ separators: [[UInt8]], _ key: [UInt8]) -> Int {
        (1..<separators.count).partitionIndex { ByteOrder.compare(separators[$0], key) > 0 } - 1
    }

    /// Checks `childIndex(for:)` for every separator, its neighbours and keys around and outside them.
    private func check(_ numbers: [Int64], file: StaticString = #filePath, line: UInt = #line) throws {
        let space = MemoryNodeSpace()
        let separators = numbers.map { ByteOrder.key($0) }
        let view = try branch(separators, in: space)
        var probes: Set<Int64> = [.min, .max, -1, 0, 1]
        for number in numbers {
            for delta in -3...3 { probes.insert(number &+ Int64(delta)) }
        }
        for number in zip(numbers, numbers.dropFirst()).map({ $0 / 2 + $1 / 2 }) { probes.insert(number) }
        for probe in probes {
            let key = ByteOrder.key(probe)
            let found = try key.withUnsafeBytes { try view.childIndex(for: $0, interpolating: true) }
            XCTAssertEqual(found, expected(separators, key), "key \(probe)", file: file, line: line)
        }
    }

    func testEvenSeparatorsAsAFreshTableHasThem() throws {
        try check((0..<128).map { Int64($0) * 412 })
        try check((0..<9).map { Int64($0) * 7 + 1_000 })
    }

    func testGappedAndSkewedSeparators() throws {
        // Dense at the start, then gaps that grow: an interpolated guess far from the answer.
        let dense: [Int64] = (0..<80).map { Int64($0) }
        let gapped: [Int64] = (1...20).map { (step: Int64) -> Int64 in 80 + step * step * 1_000 }
        try check(dense + gapped)
        // Squares, negatives and the extremes of the key space.
        try check((0..<64).map { (index: Int) -> Int64 in Int64(index * index) - 2_000 })
        try check([.min + 1, -5, -4, 0, 3, 9, 10, 1_000, 1 << 40, .max - 7, .max - 1])
        var generator = SeededGenerator(seed: 3)
        var random = Set<Int64>()
        while random.count < 120 { random.insert(Int64.random(in: -1_000_000...1_000_000, using: &generator)) }
        try check(random.sorted())
    }

    func testSeparatorsOfOtherLengthsAndKeysOfOtherLengths() throws {
        // Separators that are not 8 bytes (an index's strings): a search by an 8-byte key still gives the answer.
        let space = MemoryNodeSpace()
        let separators: [[UInt8]] = [[]] + (1..<40).map { Array("key-\(1_000 + $0 * 3)".utf8) }
        let view = try branch(separators, in: space)
        for probe in ["key-1", "key-1050", "key-1051", "key-10", "key-2000", "a", "zzzzzzzz", "key-1003"] {
            let key = Array(probe.utf8)
            let found = try key.withUnsafeBytes { try view.childIndex(for: $0, interpolating: true) }
            XCTAssertEqual(found, expected(separators, key), probe)
        }
        // A branch whose first and last separators are 8 bytes but others are not.
        var mixed: [[UInt8]] = [[]]
        for index in 1..<20 {
            let number: [UInt8] = ByteOrder.key(Int64(index) * 10)
            mixed.append(index == 1 || index == 19 ? number : number + [0])
        }
        let mixedView = try branch(mixed, in: space)
        for probe in stride(from: Int64(-5), through: 205, by: 1) {
            let key = ByteOrder.key(probe)
            XCTAssertEqual(try key.withUnsafeBytes { try mixedView.childIndex(for: $0, interpolating: true) }, expected(mixed, key), "key \(probe)")
        }
    }
}
