import StrataTestSupport
import XCTest

@testable import StrataStorage

/// The compact posting layout's bytes (`PostingLayout`): bounds that compare as their keys do and read back, the
/// open bound past all of them, and damaged payloads refused rather than misread.
final class PostingLayoutTests: XCTestCase {
    func testCompactBoundsCompareAsTheirKeysAndReadBack() throws {
        var random = SeededGenerator(seed: 77)
        var keys: [Int64] = [0, 1, -1, 255, 256, -256, -257, Int64.max, Int64.min, Int64.max - 1, Int64.min + 1]
        for shift in stride(from: 0, to: 63, by: 7) {
            keys += [Int64(1) << shift, (Int64(1) << shift) - 1, -(Int64(1) << shift), -(Int64(1) << shift) - 1]
        }
        keys += (0..<300).map { _ in Int64.random(in: Int64.min...Int64.max, using: &random) }
        keys += (0..<300).map { _ in Int64.random(in: -70_000...70_000, using: &random) }
        let layout = PostingLayout.compact
        for key in keys {
            let bytes = layout.bound(key)
            XCTAssertLessThan(ByteOrder.compare(bytes, layout.openBound), 0, "\(key) below the open bound")
            let read = bytes.withUnsafeBytes { layout.readBound($0, at: 0) }
            XCTAssertEqual(read?.key, key)
            XCTAssertEqual(read?.isOpen, false)
            XCTAssertEqual(read?.end, bytes.count)
        }
        for _ in 0..<3_000 {
            let left = keys.randomElement(using: &random)!, right = keys.randomElement(using: &random)!
            let order = ByteOrder.compare(layout.bound(left), layout.bound(right)).signum()
            XCTAssertEqual(order, left < right ? -1 : left == right ? 0 : 1, "\(left) against \(right)")
        }
        // Small keys take few bytes: 200,000 objects' bounds are 4 bytes, not 8.
        XCTAssertEqual(layout.bound(199_999).count, 4)
        XCTAssertEqual(layout.bound(5).count, 2)
        let open = layout.openBound.withUnsafeBytes { layout.readBound($0, at: 0) }
        XCTAssertEqual(open?.isOpen, true)
        // A length byte that no bound starts with, or bytes cut short, do not read.
        for damaged: [UInt8] in [[0x08, 1], [0x11, 1], [0x7F], [0x0C, 1, 2], []] {
            XCTAssertNil(damaged.withUnsafeBytes { layout.readBound($0, at: 0) }, "\(damaged)")
        }
    }

    func testCompactBlocksRoundTripAndDamagedBytesAreRefused() throws {
        var random = SeededGenerator(seed: 91)
        for round in 0..<300 {
            let isLengths = round % 3 == 0
            var key = Int64.random(in: -1_000...1_000_000, using: &random)
            var postings: [PostingBlock.Posting] = []
            for _ in 0..<Int.random(in: 1...PostingBlock.maxPostings, using: &random) {
                key += Int64.random(in: 1...(Bool.random(using: &random) ? 2 : 50_000), using: &random)
                var position = -1
                var positions: [Int] = []
                if !isLengths {
                    for _ in 0..<Int.random(in: 1...5, using: &random) {
                        position += Int.random(in: 1...40, using: &random)
                        positions.append(position)
                    }
                }
                let length = isLengths ? Int.random(in: 1...300, using: &random) : 0
                postings.append(PostingBlock.Posting(key: key, length: length, positions: positions))
            }
            let block = PostingBlock(postings: postings)
            let payload = block.payload(layout: .compact, lengths: isLengths)
            let decoded = payload.withUnsafeBytes { PostingBlock.decode($0, layout: .compact, lengths: isLengths) }
            XCTAssertEqual(decoded, block)
            // A term's block is smaller than in the wide layout, which adds each object's token count.
            if !isLengths {
                var wide = block
                for row in wide.postings.indices { wide.postings[row].length = 17 }
                XCTAssertLessThan(payload.count, wide.payload(layout: .wide).count)
            }
            // Cut short: refused (never read past the end).
            let cut = Array(payload.prefix(Int.random(in: 0..<payload.count, using: &random)))
            XCTAssertNil(cut.withUnsafeBytes { PostingBlock.decode($0, layout: .compact, lengths: isLengths) })
            // A byte changed: refused or read as some block, without a crash; the walks agree with decode.
            var changed = payload
            changed[Int.random(in: 0..<changed.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            let damaged = changed.withUnsafeBytes { PostingBlock.decode($0, layout: .compact, lengths: isLengths) }
            if !isLengths {
                var keys: [ObjectKey] = [], positions: [Int32] = [], ends: [Int32] = [], lengths: [Int32] = []
                var next = 0
                let read = changed.withUnsafeBytes {
                    PostingBlock.appendPositions(
                        of: $0, layout: .compact, among: nil, next: &next, keys: &keys, positions: &positions,
                        ends: &ends, lengths: &lengths)
                }
                if let damaged {
                    XCTAssertTrue(read)
                    XCTAssertEqual(keys.map(\.rawValue), damaged.postings.map(\.key))
                }
                XCTAssertTrue(lengths.isEmpty, "the compact layout keeps no token count per posting")
            }
        }
    }
}
