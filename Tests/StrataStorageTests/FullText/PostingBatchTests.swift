import StrataTestSupport
import XCTest

@testable import StrataStorage

/// The flat batch a posting-block index writes from: the blocks it encodes straight from its rows must be the
/// bytes of making each posting and encoding the blocks `PostingBlock.chunks` cuts, and taking changes out of
/// `PostingChanges` must give each object's last change, in key order.
final class PostingBatchTests: XCTestCase {
    func testEntriesFromRowsAreTheBytesOfEncodingTheChunksOfThePostings() {
        var random = SeededGenerator(seed: 41)
        for round in 0..<400 {
            let layout: PostingLayout = round % 2 == 0 ? .wide : .compact
            var batch = PostingBatch()
            var postings: [PostingBlock.Posting] = []
            var key = Int64.random(in: -5...1_000, using: &random)
            for _ in 0..<Int.random(in: 1...700, using: &random) {
                // Now and then (compact layout) a gap too large to pack, which starts a new block.
                let huge = layout == .compact && Int.random(in: 0..<300, using: &random) == 0 && key < 1 << 40
                key += huge ? 1 << 62 : Int64.random(in: 1...(Bool.random(using: &random) ? 3 : 100_000), using: &random)
                if Int.random(in: 0..<10, using: &random) == 0 {
                    batch.append(key: key, length: -1, positions: [])
                    continue
                }
                // Now and then a long text with many positions, so blocks close on bytes before postings.
                let many = Int.random(in: 0..<30, using: &random) == 0
                var position: Int32 = 0
                let positions = (0..<Int.random(in: 1...(many ? 400 : 4), using: &random)).map { _ in
                    position += Int32.random(in: 1...300, using: &random)
                    return position
                }
                let length = Int32(positions.last ?? 0) + Int32.random(in: 1...9, using: &random)
                batch.append(key: key, length: length, positions: positions)
                postings.append(PostingBlock.Posting(key: key, length: Int(length), positions: positions.map(Int.init)))
            }
            let term = FullTextEntry.termPrefix("term")
            batch.endTerm(term)
            let chunks = PostingBlock.chunks(postings[...], layout: layout)
            let expected = chunks.enumerated().map { offset, block in
                let bound = offset == chunks.count - 1
                    ? layout.openBound : layout.bound(block.postings[block.postings.count - 1].key)
                return block.entry(term: term, bound: bound, layout: layout)
            }
            XCTAssertEqual(
                batch.entries(of: batch.rows(ofTerm: 0), term: term, lastBound: layout.openBound, layout: layout),
                expected)
            XCTAssertGreaterThan(expected.count, 0)
            // Each block decodes back to its postings (the compact layout keeps no token count in a term's block).
            for (block, entry) in zip(chunks, expected) {
                let decoded = entry.withUnsafeBytes { bytes -> PostingBlock? in
                    guard let parsed = PostingEntry(bytes, termEnd: term.count, layout: layout) else { return nil }
                    return PostingBlock.decode(parsed.payload, layout: layout)
                }
                var wanted = block
                if layout == .compact { for row in wanted.postings.indices { wanted.postings[row].length = 0 } }
                XCTAssertEqual(decoded, wanted)
            }
        }
    }

    func testTakeGivesEachObjectsLastChangeInKeyOrderPerTerm() {
        var changes = PostingChanges(trigrams: true)
        changes.recordText(.string("beta alpha beta"), key: ObjectKey(7))
        changes.recordText(.string("alpha"), key: ObjectKey(3))
        var removal = FullTextEntry.termPrefix("alpha")
        removal += ByteOrder.key(7)
        XCTAssertTrue(changes.record(removal, present: false))
        changes.recordText(.string("gamma alpha"), key: ObjectKey(5))
        let batch = changes.take()
        XCTAssertTrue(changes.isEmpty)
        let terms = ["", "alpha", "beta", "gamma"].map { FullTextEntry.termPrefix($0) }
        XCTAssertEqual(batch.terms, terms)
        func rows(_ term: Int) -> [String] {
            batch.rows(ofTerm: term).map { row in
                batch.posting(row).map { "\($0.key):\($0.length):\($0.positions)" } ?? "\(batch.keys[row]):removed"
            }
        }
        XCTAssertEqual(rows(0), ["3:1:[]", "5:2:[]", "7:3:[]"])
        XCTAssertEqual(rows(1), ["3:1:[0]", "5:2:[1]", "7:removed"])
        XCTAssertEqual(rows(2), ["7:3:[0, 2]"])
        XCTAssertEqual(rows(3), ["5:2:[0]"])
    }
}
