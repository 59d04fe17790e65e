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

    /// The token counts of wanted objects read from a length block: by position where the block's bytes show
    /// consecutive objects with one-byte counts, in order from where they do not (an object of one token, a count
    /// of 128 or more, a gap), in both layouts, against the block's postings; objects the block does not hold are
    /// refused, and a changed byte never makes a read run past the payload.
    func testLengthsReadFromLengthBlocksByPositionOrInOrder() throws {
        var random = SeededGenerator(seed: 113)
        for round in 0..<400 {
            var key = Int64.random(in: 0...1_000_000, using: &random)
            var postings: [PostingBlock.Posting] = []
            // Mostly consecutive objects with a few tokens (read by position), with some irregular ones.
            let irregular = round % 4
            for _ in 0..<Int.random(in: 1...PostingBlock.maxPostings, using: &random) {
                key += irregular == 1 && Int.random(in: 0..<20, using: &random) == 0 ? 3 : 1
                var length = Int.random(in: 2...40, using: &random)
                if irregular == 2, Int.random(in: 0..<30, using: &random) == 0 { length = 1 }
                if irregular == 3, Int.random(in: 0..<30, using: &random) == 0 { length = 200 }
                postings.append(PostingBlock.Posting(key: key, length: length, positions: []))
            }
            let bound = postings[postings.count - 1].key
            for layout in [PostingLayout.compact, .wide] {
                let payload = PostingBlock(postings: postings).payload(layout: layout, lengths: true)
                // A sparse selection of the block's objects, and one the block does not hold.
                let wanted = postings.filter { _ in Int.random(in: 0..<3, using: &random) == 0 }
                let keys = wanted.map { ObjectKey($0.key) } + [ObjectKey(bound + 1)]
                let (read, lengths, next) = readLengths(of: payload, layout: layout, bound: bound, keys: keys)
                XCTAssertTrue(read, "round \(round), \(layout)")
                XCTAssertEqual(lengths, wanted.map { Int32($0.length) }, "round \(round), \(layout)")
                XCTAssertEqual(next, wanted.count, "stops at the first object past the bound")
                // An object between two of the block's, or below its first, is missing.
                let holes = [postings[0].key - 1] + zip(postings, postings.dropFirst())
                    .filter { $1.key - $0.key > 1 }.map { $0.0.key + 1 }
                for hole in holes {
                    let after = postings.filter { $0.key > hole }.prefix(1).map { ObjectKey($0.key) }
                    let asked = [ObjectKey(hole)] + after
                    let found = readLengths(of: payload, layout: layout, bound: bound, keys: asked).read
                    XCTAssertFalse(found, "object \(hole) is not in the block")
                }
                // A changed byte: any answer but a crash or a read past the payload.
                var changed = payload
                changed[Int.random(in: 0..<changed.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
                _ = readLengths(of: changed, layout: layout, bound: bound, keys: keys)
            }
        }
    }

    /// `PostingBlock.appendLengths` from the start of `keys`: whether the block held them all, the lengths it
    /// read, and the index of the first key past the block's bound.
    private func readLengths(
        of payload: [UInt8], layout: PostingLayout, bound: Int64, keys: [ObjectKey]
    ) -> (read: Bool, lengths: [Int32], next: Int) {
        var next = 0
        var lengths: [Int32] = []
        let read = payload.withUnsafeBytes {
            PostingBlock.appendLengths(of: $0, layout: layout, bound: bound, keys: keys, next: &next, to: &lengths)
        }
        return (read, lengths, next)
    }
}
