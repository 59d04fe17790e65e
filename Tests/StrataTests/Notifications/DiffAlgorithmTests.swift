import StrataStorage
import StrataTestSupport
import XCTest

@testable import Strata

/// The sequence and key diffs on their own, against brute force on thousands of random small inputs.
final class DiffAlgorithmTests: XCTestCase {
    /// The length of a longest common subsequence, by dynamic programming.
    private func commonLength(_ a: [Int], _ b: [Int]) -> Int {
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 1...max(a.count, 1) where i <= a.count {
            for j in 1...max(b.count, 1) where j <= b.count {
                table[i][j] = a[i - 1] == b[j - 1] ? table[i - 1][j - 1] + 1 : max(table[i - 1][j], table[i][j - 1])
            }
        }
        return table[a.count][b.count]
    }

    private func apply(_ changes: IndexChanges, to old: [Int], new: [Int]) -> [Int] {
        var applied = old
        for index in changes.deletions.reversed() { applied.remove(at: index) }
        for index in changes.insertions { applied.insert(new[index], at: index) }
        return applied
    }

    func testSequenceDiffIsAShortestEditScriptWithRepeatedElements() {
        var random = SeededGenerator(seed: 11)
        for _ in 0..<3_000 {
            let old = (0..<Int.random(in: 0..<14, using: &random)).map { _ in Int.random(in: 0..<4, using: &random) }
            let new = (0..<Int.random(in: 0..<14, using: &random)).map { _ in Int.random(in: 0..<4, using: &random) }
            let pairs = SequenceDiff.matches(old, new)
            XCTAssertEqual(pairs.count, commonLength(old, new), "\(old) → \(new)")
            XCTAssertTrue(pairs.allSatisfy { old[$0.old] == new[$0.new] })
            let changes = SequenceDiff.changes(from: old, to: new) { _ in false }
            XCTAssertEqual(apply(changes, to: old, new: new), new, "\(old) → \(new)")
        }
    }

    func testKeyDiffKeepsALongestRunInPlaceAndMovesTheRest() {
        var random = SeededGenerator(seed: 12)
        for _ in 0..<3_000 {
            let old = Array(Set((0..<Int.random(in: 0..<12, using: &random)).map { _ in Int.random(in: 0..<20, using: &random) }))
            var new = old.filter { _ in Int.random(in: 0..<4, using: &random) > 0 }
            new.shuffle(using: &random)
            new += (20..<(20 + Int.random(in: 0..<3, using: &random)))
            let changes = KeyDiff.changes(from: old.map { ObjectKey(Int64($0)) }, to: new.map { ObjectKey(Int64($0)) }) { _ in false }
            XCTAssertEqual(apply(changes, to: old, new: new), new, "\(old) → \(new)")
            let kept = new.count - changes.insertions.count
            XCTAssertEqual(kept, commonLength(old, new), "as few moves as possible: \(old) → \(new)")
        }
    }
}
