import Foundation
import StrataStorage
import StrataTestSupport
import XCTest

@testable import Strata

/// The score bounds of posting blocks (`IndexSpec.isScoreBounds`) and the block-max pruning of a ranked top-k
/// (`FullTextIndexSearch.prunedTop`): over random texts with dense words (in most objects: many full blocks) and
/// sparse ones (a block or two), lengths from 1 to 60 tokens and words repeated in a text, through random inserts,
/// changes that lengthen and shorten texts, and deletes, every top-k equals the first k of the full ranking (the
/// same keys, the same scores, ties in key order) and `verify` finds no bound below one of its postings; an index
/// of the layout before score bounds keeps answering the same by scoring every match, also after a reopen.
final class ScoreBoundTests: CatalogWriteTestCase {
    override var storeFileName: String { "bounds.strata" }

    /// Dense words first (drawn often), sparse ones last.
    private static let words = [
        "alpha", "beta", "gamma", "delta", "omega", "sigma", "kappa", "lambda", "theta", "zeta", "rho", "tau",
    ]

    /// A text of 1 to 60 tokens (a third of them short), words drawn with a skew towards the dense ones, and
    /// sometimes one word repeated several times.
    private static func document(_ random: inout SeededGenerator) -> String {
        let length = Bool.random(using: &random)
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
        XCTAssertGreaterThan(alphaBlocks.count, 5)
        XCTAssertTrue(alphaBlocks.contains { $0.frequencyBound > 1 })
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
}
