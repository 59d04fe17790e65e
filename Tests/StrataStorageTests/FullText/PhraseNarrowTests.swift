import StrataTestSupport
import XCTest

@testable import StrataStorage

/// A phrase's starts narrowed inside posting blocks (`PostingBlock.narrow`, `PhraseStarts`) against brute force:
/// dense blocks (a common word: one-byte gaps, frequency 1, heads read four at a time) and sparse ones (large
/// gaps, several positions), in both layouts, over a term's run of blocks with candidates before, between, inside
/// and past them, with shifts either way; the flat path of an index without blocks agrees; a changed byte never
/// crashes nor reads past the payload.
final class PhraseNarrowTests: XCTestCase {
    /// One object's postings of the narrowing word: its key and positions.
    private typealias Posting = PostingBlock.Posting

    /// Random postings of a word, dense (`dense`) or sparse, ascending from `start`.
    private static func postings(_ random: inout SeededGenerator, dense: Bool, start: Int64) -> [Posting] {
        var key = start
        return (0..<Int.random(in: 1...(3 * PostingBlock.maxPostings), using: &random)).map { _ in
            let roll = Int.random(in: 0..<20, using: &random)
            key += dense
                ? (roll == 0 ? Int64.random(in: 60...70, using: &random) : Int64.random(in: 1...12, using: &random))
                : Int64.random(in: 1...5_000, using: &random)
            let frequency = dense && roll != 1 ? 1 : Int.random(in: 1...6, using: &random)
            var position = -1
            let positions = (0..<frequency).map { _ in
                position += Int.random(in: 1...(dense ? 40 : 6), using: &random)
                return position
            }
            return Posting(key: key, length: 0, positions: positions)
        }
    }

    /// Candidates: some of the word's objects (with starts near their positions, so some follow) and objects it
    /// does not hold, ascending.
    private static func candidates(
        _ random: inout SeededGenerator, of postings: [Posting], shift: Int
    ) -> (keys: [ObjectKey], starts: [[Int32]]) {
        var keys = Set<Int64>()
        for posting in postings where Int.random(in: 0..<3, using: &random) == 0 { keys.insert(posting.key) }
        for _ in 0..<Int.random(in: 0...20, using: &random) {
            keys.insert(Int64.random(in: postings[0].key - 10...postings[postings.count - 1].key + 10, using: &random))
        }
        let byKey = Dictionary(uniqueKeysWithValues: postings.map { ($0.key, $0.positions) })
        let sorted = keys.sorted()
        let starts: [[Int32]] = sorted.map { key in
            var starts = Set<Int32>()
            for position in byKey[key] ?? [] where Bool.random(using: &random) {
                starts.insert(Int32(position - shift))
            }
            for _ in 0..<Int.random(in: 0...3, using: &random) {
                starts.insert(Int32.random(in: -5...200, using: &random))
            }
            if starts.isEmpty { starts.insert(0) }
            return starts.sorted()
        }
        return (sorted.map { ObjectKey($0) }, starts)
    }

    /// `PhraseStarts` of `keys` with `starts` each.
    private static func phraseStarts(_ keys: [ObjectKey], _ starts: [[Int32]]) -> PhraseStarts {
        var ends: [Int32] = []
        var total: Int32 = 0
        for row in starts {
            total += Int32(row.count)
            ends.append(total)
        }
        return PhraseStarts(keys: keys, positions: starts.flatMap { $0 }, ends: ends, offset: 0)
    }

    /// What narrowing must keep: each candidate the word holds, with the starts whose position `shift` on is
    /// one of its positions there.
    private static func bruteForce(
        _ keys: [ObjectKey], _ starts: [[Int32]], _ postings: [Posting], shift: Int
    ) -> PhraseStarts {
        let byKey = Dictionary(uniqueKeysWithValues: postings.map { ($0.key, Set($0.positions)) })
        var kept: [ObjectKey] = [], keptStarts: [[Int32]] = []
        for (key, row) in zip(keys, starts) {
            guard let positions = byKey[key.rawValue] else { continue }
            let followed = row.filter { positions.contains(Int($0) + shift) }
            if !followed.isEmpty {
                kept.append(key)
                keptStarts.append(followed)
            }
        }
        return phraseStarts(kept, keptStarts)
    }

    /// Narrows `starts` by the blocks' payloads in turn, skipping (as the seeking walk does) a block whose last
    /// key is below the next candidate; `nil` when a block is refused.
    private static func narrow(
        _ starts: PhraseStarts, blocks: [PostingBlock], layout: PostingLayout, shift: Int, damage: Int? = nil
    ) -> PhraseStarts? {
        var next = 0
        var refused = false
        let kept = starts.narrowed { kept in
            for (number, block) in blocks.enumerated() {
                guard next < starts.count else { break }
                if block.postings[block.postings.count - 1].key < starts.keys[next].rawValue { continue }
                var payload = block.payload(layout: layout)
                if let damage, number == 0 {
                    payload[damage % payload.count] ^= UInt8(truncatingIfNeeded: damage | 1)
                }
                let read = payload.withUnsafeBytes {
                    PostingBlock.narrow(starts, by: $0, layout: layout, shift: Int64(shift), next: &next, into: &kept)
                }
                if !read {
                    refused = true
                    break
                }
            }
        }
        return refused ? nil : kept
    }

    func testNarrowingInsideBlocksAgreesWithBruteForce() throws {
        var random = SeededGenerator(seed: 311)
        for round in 0..<500 {
            let dense = round % 2 == 0
            let postings = Self.postings(&random, dense: dense, start: Int64.random(in: -50...100_000, using: &random))
            let shift = Int.random(in: -3...3, using: &random)
            let (keys, starts) = Self.candidates(&random, of: postings, shift: shift)
            let expected = Self.bruteForce(keys, starts, postings, shift: shift)
            let candidates = Self.phraseStarts(keys, starts)
            for layout in [PostingLayout.compact, .wide] {
                let blocks = PostingBlock.chunks(postings[...], layout: layout)
                let found = Self.narrow(candidates, blocks: blocks, layout: layout, shift: shift)
                XCTAssertEqual(found, expected, "round \(round), \(layout), dense \(dense), shift \(shift)")
            }
            // An index without blocks narrows its flat postings alike.
            let among = postings.filter { posting in keys.contains(ObjectKey(posting.key)) }
            var ends: [Int32] = []
            for posting in among { ends.append((ends.last ?? 0) + Int32(posting.positions.count)) }
            let flat = candidates.narrowed(
                byKeys: among.map { ObjectKey($0.key) }, positions: among.flatMap { $0.positions.map(Int32.init) },
                ends: ends, offset: shift)
            XCTAssertEqual(flat, expected, "round \(round), flat")
        }
    }

    /// The driving word's blocks appended whole (`PostingBlock.appendStarts`) give what its decoded postings give,
    /// in both layouts, dense and sparse, over a run of blocks; a changed byte is refused or read within the
    /// payload.
    func testDriverBlocksAppendedWholeAsDecoded() throws {
        var random = SeededGenerator(seed: 313)
        var refused = 0
        for round in 0..<400 {
            let start = Int64.random(in: -50...9_000, using: &random)
            let postings = Self.postings(&random, dense: round % 2 == 0, start: start)
            let offset = Int.random(in: 0...3, using: &random)
            var ends: [Int32] = []
            for posting in postings { ends.append((ends.last ?? 0) + Int32(posting.positions.count)) }
            let expected = PhraseStarts(
                keys: postings.map { ObjectKey($0.key) }, positions: postings.flatMap { $0.positions.map(Int32.init) },
                ends: ends, offset: offset)
            for layout in [PostingLayout.compact, .wide] {
                var starts = PhraseStarts()
                for block in PostingBlock.chunks(postings[...], layout: layout) {
                    let read = block.payload(layout: layout).withUnsafeBytes {
                        PostingBlock.appendStarts(of: $0, layout: layout, shift: Int32(offset), to: &starts)
                    }
                    XCTAssertTrue(read, "round \(round), \(layout)")
                }
                XCTAssertEqual(starts, expected, "round \(round), \(layout)")
                var changed = PostingBlock.chunks(postings[...], layout: layout)[0].payload(layout: layout)
                changed[Int.random(in: 0..<changed.count, using: &random)] ^= UInt8.random(in: 1...255, using: &random)
                var damaged = PhraseStarts()
                let read = changed.withUnsafeBytes {
                    PostingBlock.appendStarts(of: $0, layout: layout, shift: 0, to: &damaged)
                }
                if !read { refused += 1 }
            }
        }
        XCTAssertGreaterThan(refused, 0, "some changed bytes are seen as damage")
    }

    /// A changed byte in the first block: refused, or read as some block, never a crash or a read past the
    /// payload (the address sanitizer's and the reader's bounds say so).
    func testDamagedBlocksAreRefusedOrReadWithinTheirBytes() throws {
        var random = SeededGenerator(seed: 312)
        var refused = 0
        for round in 0..<400 {
            let postings = Self.postings(&random, dense: round % 2 == 0, start: 1_000)
            let (keys, starts) = Self.candidates(&random, of: postings, shift: 1)
            let candidates = Self.phraseStarts(keys, starts)
            for layout in [PostingLayout.compact, .wide] {
                let blocks = PostingBlock.chunks(postings[...], layout: layout)
                let damage = Int.random(in: 0..<10_000, using: &random)
                if Self.narrow(candidates, blocks: blocks, layout: layout, shift: 1, damage: damage) == nil {
                    refused += 1
                }
            }
        }
        XCTAssertGreaterThan(refused, 0, "some changed bytes are seen as damage")
        // A block of six postings whose fourth head is a gap of 0 (inside a run of one-byte heads) is refused.
        var payload = PostingBlock(postings: (1...6).map { Posting(key: Int64($0), length: 0, positions: [0]) })
            .payload(layout: .compact)
        payload[5] = 0
        var next = 0
        var read = true
        let all = Self.phraseStarts((1...6).map { ObjectKey(Int64($0)) }, Array(repeating: [0], count: 6))
        _ = all.narrowed { kept in
            read = payload.withUnsafeBytes {
                PostingBlock.narrow(all, by: $0, layout: .compact, shift: 0, next: &next, into: &kept)
            }
        }
        XCTAssertFalse(read)
    }
}
