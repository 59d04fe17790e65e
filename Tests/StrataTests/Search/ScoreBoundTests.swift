import Foundation
import StrataTestSupport
import XCTest

@testable import Strata
@testable import StrataStorage

/// The score bounds of posting blocks (`IndexSpec.isScoreBounds`) and the block-max pruning of a ranked top-k
/// (`FullTextIndexSearch.prunedTop`): over random texts with dense words (in most objects: many full blocks) and
/// sparse ones (a block or two), lengths from 1 to 60 tokens and words repeated in a text, through random inserts,
/// changes that lengthen and shorten texts, and deletes, every top-k equals the first k of the full ranking (the
/// same keys, the same scores, ties in key order) and `verify` finds no bound below one of its postings; an index
/// of the layout before score bounds keeps answering the same by scoring every match, also after a reopen. Some
/// texts have 255 tokens or more (counts the lengths in memory keep aside). The pieces that let a top-k reject a
/// posting without scoring it are checked on their own: the length table never rejects a text short
/// enough, and each frequency's length limit is the exact edge of the score.
final class ScoreBoundTests: CatalogWriteTestCase {
    override var storeFileName: String { "bounds.strata" }

    /// Dense words first (drawn often), sparse ones last.
    private static let words = [
        "alpha", "beta", "gamma", "delta", "omega", "sigma", "kappa", "lambda", "theta", "zeta", "rho", "tau",
    ]

    /// A text of 1 to 60 tokens (a third of them short, one in 40 of 250 to 300), words drawn with a skew towards
    /// the dense ones, and sometimes one word repeated several times.
    private static func document(_ random: inout SeededGenerator) -> String {
        let length = Int.random(in: 0..<40, using: &random) == 0
            ? Int.random(in: 250...300, using: &random)
            : Bool.random(using: &random)
                ? Int.random(in: 1...6, using: &random) : Int.random(in: 1...60, using: &random)
        var tokens: [String] = []
        while tokens.count < length {
            let rank = min(
                Int.random(in: 0..<words.count, using: &random), Int.random(in: 0..<words.count, using: &random))
            let repeats = Int.random(in: 0..<6, using: &random) == 0 ? Int.random(in: 2...5, using: &random) : 1
            for _ in 0..<repeats where tokens.count < length { tokens.append(words[rank]) }
        }
        return tokens.joined(separator: " ")
    }

    private static func query(_ random: inout SeededGenerator) -> String {
        let first = words.randomElement(using: &random)!, second = words.randomElement(using: &random)!
        switch Int.random(in: 0..<5, using: &random) {
        case 0, 1: return first
        case 2: return "\(first) \(second)"
        case 3: return "\(first) -\(second)"
        default: return "\(first) \(second) \(words.randomElement(using: &random)!)"
        }
    }

    func testPrunedTopKEqualsTheFullRankingThroughEdits() throws {
        var table = try catalog.createTable(named: "Note")
        let bodies = try (0..<2).map { try table.addColumn(named: "body\($0)", type: .value(.string), nullable: true) }
        let bounded = try table.addFullTextIndex(on: bodies[0])
        let plain = try table.addFullTextIndex(on: bodies[1], postingBlocks: true, trigrams: true, compact: true)
        XCTAssertEqual(table.fullTextIndexSpecs.map(\.isScoreBounds), [true, false])
        XCTAssertNotNil(try table.fullTextScoredBlocks(bounded, term: "alpha"))
        XCTAssertNil(try table.fullTextScoredBlocks(plain, term: "alpha"))
        var random = SeededGenerator(seed: 1_728)
        var texts: [ObjectKey: String] = [:]
        func insert() throws {
            let text = Self.document(&random)
            texts[try table.insert(bodies.map { ($0, .string(text)) })] = text
        }
        for _ in 0..<1_500 { try insert() }
        // The dense words span many blocks, the sparse ones few.
        let alphaBlocks = try XCTUnwrap(try table.fullTextScoredBlocks(bounded, term: "alpha"))
        XCTAssertGreaterThan(alphaBlocks.blocks.count, 5)
        XCTAssertTrue(alphaBlocks.blocks.contains { $0.frequencyBound > 1 })
        func check(rounds: Int) throws {
            try catalog.verify()
            for _ in 0..<rounds {
                let text = Self.query(&random)
                let parsed = FullTextQuery(text)
                let expected = texts.filter { parsed.matches($0.value) }.keys.sorted()
                let search = FullTextIndexSearch(table: table, index: bounded, query: parsed)
                let full = try search.rankedByScoringAll()
                XCTAssertEqual(full.map(\.key).sorted(), expected, text)
                let old = FullTextIndexSearch(table: table, index: plain, query: parsed)
                for limit in [1, 3, 10, 40] {
                    XCTAssertNotNil(try search.prunedTop(limit), "\(text): not pruned")
                    let top = try search.ranked(limit: limit)
                    let want = Array(full.prefix(limit))
                    XCTAssertEqual(top.map(\.key), want.map(\.key), "top \(limit) of \(text)")
                    XCTAssertEqual(top.map(\.score), want.map(\.score), "scores of the top \(limit) of \(text)")
                    // The older layout's walk: the same objects in the same order, the same scores.
                    XCTAssertNil(try old.prunedTop(limit))
                    let oldTop = try old.ranked(limit: limit)
                    XCTAssertEqual(oldTop.map(\.key), want.map(\.key), "top \(limit) of \(text), older layout")
                    for (left, right) in zip(oldTop, want) { XCTAssertEqual(left.score, right.score, accuracy: 1e-9) }
                }
            }
        }
        try check(rounds: 30)
        for round in 0..<4 {
            // Changes that lengthen and shorten texts (a shorter text lowers its blocks' length floor), deletes,
            // and inserts past the last key (the terms' open blocks).
            for key in texts.keys.sorted() where Int.random(in: 0..<4, using: &random) == 0 {
                switch Int.random(in: 0..<3, using: &random) {
                case 0:
                    try table.delete(key)
                    texts[key] = nil
                default:
                    let text = Int.random(in: 0..<3, using: &random) == 0
                        ? Self.words.randomElement(using: &random)! : Self.document(&random)
                    for body in bodies { try table.set(key, column: body, to: .string(text)) }
                    texts[key] = text
                }
            }
            for _ in 0..<100 { try insert() }
            try check(rounds: 20)
            if round == 1 {
                // Committed and opened again: the flag is read back from the catalog.
                try catalog.flush()
                try write.commit()
                write = try store.beginWrite()
                catalog = try Catalog(writer: write)
                table = try XCTUnwrap(catalog.table(named: "Note"))
                XCTAssertEqual(table.fullTextIndexSpecs.map(\.isScoreBounds), [true, false])
                try check(rounds: 20)
            }
        }
    }

    /// The lengths in memory: every count read back as given (dense and searched tables, counts of 255 and more,
    /// keys without one), and `isLonger(_:than:)` true only for a key whose count is above the limit (or which
    /// has none).
    func testLengthTableRejectsOnlyLongerTexts() throws {
        var random = SeededGenerator(seed: 255)
        for spread: Int64 in [1, 3, 50] {
            var keys: [Int64] = [], lengths: [Int32] = []
            var key = Int64.random(in: -1_000...1_000, using: &random)
            for _ in 0..<2_000 {
                key += Int64.random(in: 1...spread, using: &random)
                keys.append(key)
                let long = Int.random(in: 0..<50, using: &random) == 0
                lengths.append(Int32.random(in: long ? 250...600 : 0...40, using: &random))
            }
            let table = DocumentLengthTable(keys: keys, lengths: lengths)
            let known = Dictionary(uniqueKeysWithValues: zip(keys, lengths))
            var rejected = 0
            for probe in (keys[0] - 10)...(keys[keys.count - 1] + 10) {
                let length = known[probe]
                XCTAssertEqual(table.length(of: ObjectKey(probe)), length, "key \(probe), spread \(spread)")
                for limit in [-1, 0, 5, 20, 254, 255, 1_000] where table.isLonger(probe, than: limit) {
                    rejected += 1
                    if let length { XCTAssertGreaterThan(Int(length), limit, "key \(probe), limit \(limit)") }
                }
            }
            // Dense tables reject; a searched one (keys spread far apart) never does.
            if spread == 50 { XCTAssertEqual(rejected, 0) } else { XCTAssertGreaterThan(rejected, 1_000) }
        }
    }

    /// Each frequency's length limit is where the score crosses the bar, as computed: at the limit the score is
    /// at least the bar, one token more and it is below (over random statistics, and bars that are exactly a
    /// posting's score, where ties must be kept).
    func testLengthLimitsAreTheScoresEdge() {
        var random = SeededGenerator(seed: 12)
        for _ in 0..<2_000 {
            let idf = Double.random(in: 0.01...12, using: &random)
            let average = Int.random(in: 0..<10, using: &random) == 0 ? 0 : Double.random(in: 0.5...300, using: &random)
            func score(_ frequency: Int, _ length: Int) -> Double {
                FullTextIndexSearch.score(idf: idf, occurrences: frequency, length: length, averageLength: average)
            }
            var limits = LengthLimits(idf: idf, averageLength: average)
            XCTAssertEqual(limits.longest(frequency: 1, atLeast: nil), LengthLimits.longest)
            let bar = Bool.random(using: &random)
                ? score(Int.random(in: 1...5, using: &random), Int.random(in: 0...500, using: &random))
                : Double.random(in: 0...(idf * 2.3), using: &random)
            for frequency in [1, 2, 3, 7, 15, 16, 40] {
                let longest = limits.longest(frequency: frequency, atLeast: bar)
                // Asked again (cached), the same.
                XCTAssertEqual(limits.longest(frequency: frequency, atLeast: bar), longest)
                if longest < 0 {
                    XCTAssertLessThan(score(frequency, 0), bar)
                } else if longest == LengthLimits.longest {
                    XCTAssertGreaterThanOrEqual(score(frequency, longest), bar)
                } else {
                    XCTAssertGreaterThanOrEqual(score(frequency, longest), bar, "idf \(idf), average \(average)")
                    XCTAssertLessThan(score(frequency, longest + 1), bar, "idf \(idf), average \(average)")
                }
            }
        }
    }
}
