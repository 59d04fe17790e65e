@testable import StrataStorage
import StrataTestSupport
import XCTest

/// `ByteOrder.compare` compares the first bytes a word at a time, the last few one at a time and long strings on
/// through `memcmp`: every path must give `memcmp` order, shorter first on a common prefix.
final class ByteOrderTests: XCTestCase {
    /// The order of two byte strings the slow, obvious way.
    private func expectedOrder(_ left: [UInt8], _ right: [UInt8]) -> Int {
        if left.lexicographicallyPrecedes(right) { return -1 }
        return right.lexicographicallyPrecedes(left) ? 1 : 0
    }

    private func sign(_ value: Int) -> Int { value < 0 ? -1 : (value > 0 ? 1 : 0) }

    func testCompareAgreesWithLexicographicOrderAtEveryLengthAndDifferingByte() {
        var generator = SeededGenerator(seed: 32)
        // Pairs sharing a prefix of every length up to past the word-compared bytes, differing at one byte (high
        // or low, so the sign of a word difference matters), or one a prefix of the other.
        for length in 0...72 {
            let base = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            for differing in 0..<length {
                for delta in [1, 128, 255] {
                    var other = base
                    other[differing] = base[differing] &+ UInt8(delta)
                    for (left, right) in [(base, other), (other, base)] {
                        let order = left.withUnsafeBytes { l in right.withUnsafeBytes { r in ByteOrder.compare(l, r) } }
                        XCTAssertEqual(sign(order), expectedOrder(left, right), "\(left) vs \(right)")
                    }
                }
            }
            for cut in 0...length {
                let prefix = Array(base[..<cut])
                XCTAssertEqual(sign(ByteOrder.compare(prefix, base)), expectedOrder(prefix, base), "\(prefix) vs \(base)")
                XCTAssertEqual(sign(ByteOrder.compare(base, prefix)), expectedOrder(base, prefix), "\(base) vs \(prefix)")
            }
            XCTAssertEqual(ByteOrder.compare(base, base), 0)
        }
    }

    func testCompareSortsRandomStringsWithSharedBeginningsAsLexicographicOrderDoes() {
        var generator = SeededGenerator(seed: 5)
        let stems: [[UInt8]] = [[], [1], Array("name-".utf8), [1] + Array("a longer shared stem of 30 b".utf8)]
        var strings: [[UInt8]] = []
        for _ in 0..<2_000 {
            let stem = stems[Int.random(in: 0..<stems.count, using: &generator)]
            let tail = (0..<Int.random(in: 0...48, using: &generator)).map { _ in
                UInt8.random(in: 0...3, using: &generator) * 85
            }
            strings.append(stem + tail)
        }
        let sorted = strings.sorted { ByteOrder.compare($0, $1) < 0 }
        XCTAssertEqual(sorted, strings.sorted { $0.lexicographicallyPrecedes($1) })
    }
}
