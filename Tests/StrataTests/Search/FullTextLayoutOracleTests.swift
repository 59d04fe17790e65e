import Foundation
import StrataStorage
import StrataTestSupport
import XCTest

@testable import Strata

/// The five layouts a full-text index may have in a file (one entry per (term, object) with pairs, wide posting
/// blocks with pairs, wide posting blocks with trigrams, compact posting blocks with trigrams, and those with
/// score bounds: `IndexSpec.isPostingBlocks`, `IndexSpec.isTrigrams`, `IndexSpec.isCompactPostings`,
/// `IndexSpec.isScoreBounds`) answer every query alike, the ranked top-k too, and as brute force says: over random
/// documents mixing runs of 1 to 6 Chinese characters (from a small alphabet, so runs repeat and long posting lists
/// span many blocks) with Latin words, queries of 1 to 6
/// characters, mixed clauses and phrases, after inserts, changes, deletes, a commit and a reopen.
final class FullTextLayoutOracleTests: CatalogWriteTestCase {
    override var storeFileName: String { "layouts.strata" }

    private static let han = Array("数据库我爱中文")
    private static let latin = ["data", "base", "swift", "x"]

    /// A run of 1 to `longest` characters of ``han``.
    private static func run(_ random: inout SeededGenerator, longest: Int = 6) -> String {
        String((0..<Int.random(in: 1...longest, using: &random)).map { _ in han.randomElement(using: &random)! })
    }

    /// Runs and words, sometimes touching (a run straight after a word), sometimes apart (a space, or
    /// punctuation that ends a run without taking a position).
    private static func document(_ random: inout SeededGenerator) -> String {
        var text = ""
        for _ in 0..<Int.random(in: 0...9, using: &random) {
            text += Bool.random(using: &random) ? run(&random) : latin.randomElement(using: &random)!
            text += ["", " ", "。", ", ", " "].randomElement(using: &random)!
        }
        return text
    }

    private static func query(_ random: inout SeededGenerator) -> String {
        switch Int.random(in: 0..<8, using: &random) {
        case 0: return run(&random) + "*"
        case 1: return latin.randomElement(using: &random)! + run(&random, longest: 3)
        case 2: return "\"\(run(&random, longest: 3)) \(latin.randomElement(using: &random)!)\""
        case 3: return "\"\(latin.randomElement(using: &random)!) \(run(&random, longest: 4))\""
        case 4: return run(&random) + " -" + run(&random, longest: 3)
        case 5: return run(&random, longest: 3) + " " + run(&random, longest: 4)
        default: return run(&random)
        }
    }

    /// The maximal runs of ``han`` characters of `text`.
    private static func runs(of text: String) -> [String] {
        text.split { !han.contains($0) }.map(String.init)
    }

    func testEveryLayoutAnswersLikeBruteForce() throws {
        let table = try catalog.createTable(named: "Note")
        let columns = try (0..<5).map {
            try table.addColumn(named: "body\($0)", type: .value(.string), nullable: true)
        }
        let layouts = [
            (false, false, false, false), (true, false, false, false), (true, true, false, false),
            (true, true, true, false), (true, true, true, true),
        ]
        let indexes = try zip(columns, layouts).map { column, layout in
            try table.addFullTextIndex(
                on: column, postingBlocks: layout.0, trigrams: layout.1, compact: layout.2, scoreBounds: layout.3)
        }
        XCTAssertEqual(table.fullTextIndexSpecs.map(\.isTrigrams), [false, false, true, true, true])
        XCTAssertEqual(table.fullTextIndexSpecs.map(\.isCompactPostings), [false, false, false, true, true])
        XCTAssertEqual(table.fullTextIndexSpecs.map(\.isScoreBounds), [false, false, false, false, true])
        var random = SeededGenerator(seed: 2026)
        var texts: [ObjectKey: String] = [:]
        func insert(_ text: String) throws {
            let key = try table.insert(columns.map { ($0, .string(text)) })
            texts[key] = text
        }
        // Texts whose clause has a run in the middle: its tail is left out of the clause, and the words after it
        // keep their places.
        for text in ["foo数据bar", "数据库 data", "x数y", "我爱。中文"] { try insert(text) }
        let apart = try XCTUnwrap(texts.first { $0.value == "我爱。中文" }?.key)
        for _ in 0..<1_200 { try insert(Self.document(&random)) }
        var table0 = table
        func check(rounds: Int) throws {
            var matchedSome = 0
            for round in 0..<rounds {
                let text = round < 4 ? ["foo数据bar", "\"数据库 data\"", "x数y", "我爱中文"][round] : Self.query(&random)
                let parsed = FullTextQuery(text)
                let expected = texts.filter { parsed.matches($0.value) }.keys.sorted()
                if !expected.isEmpty { matchedSome += 1 }
                if round < 3 { XCTAssertFalse(expected.isEmpty, text) }
                if round == 3 { XCTAssertFalse(expected.contains(apart), "a run matched across a run's end") }
                // A query of one run: brute force over the texts' runs, independently of the tokenizer.
                if !text.contains(where: { !Self.han.contains($0) }) {
                    let found = texts.filter { Self.runs(of: $0.value).contains { $0.contains(text) } }.keys.sorted()
                    XCTAssertEqual(expected, found, "runs holding \(text)")
                }
                var scores: [[Double]] = []
                for index in indexes {
                    let search = FullTextIndexSearch(table: table0, index: index, query: parsed)
                    XCTAssertEqual(try search.keys(), expected, "\(text) in index \(index)")
                    let ranked = try search.ranked()
                    XCTAssertEqual(ranked.map(\.key).sorted(), expected, "ranked \(text) in index \(index)")
                    scores.append(ranked.sorted { $0.key < $1.key }.map(\.score))
                    // The top 5 (pruned by score bounds where the index keeps them): the ranking's first five.
                    let top = try search.ranked(limit: 5)
                    XCTAssertEqual(
                        top.map(\.key), ranked.prefix(5).map(\.key), "top 5 of \(text) in index \(index)")
                    XCTAssertEqual(top.map(\.score), ranked.prefix(5).map(\.score), "\(text) in index \(index)")
                    XCTAssertEqual(
                        try search.keys(first: 3, descending: true), Array(expected.suffix(3).reversed()),
                        "newest of \(text) in index \(index)")
                }
                for other in scores.dropFirst() {
                    XCTAssertEqual(other.count, scores[0].count)
                    for (left, right) in zip(scores[0], other) { XCTAssertEqual(left, right, accuracy: 1e-9, text) }
                }
            }
            XCTAssertGreaterThan(matchedSome, rounds / 3, "too few queries match anything")
            try catalog.verify()
        }
        try check(rounds: 120)
        // Changes and deletes in the middle of the blocks.
        // (The first four texts, the ones above, stay.)
        for (offset, key) in texts.keys.sorted().enumerated() where offset > 3 && offset % 5 == 2 {
            if offset % 3 == 0 {
                try table.delete(key)
                texts[key] = nil
            } else {
                let text = Self.document(&random)
                for column in columns { try table.set(key, column: column, to: .string(text)) }
                texts[key] = text
            }
        }
        try check(rounds: 80)
        // Committed and opened again: the layouts are read back from the catalog.
        try catalog.flush()
        try write.commit()
        write = try store.beginWrite()
        catalog = try Catalog(writer: write)
        table0 = try XCTUnwrap(catalog.table(named: "Note"))
        XCTAssertEqual(table0.fullTextIndexSpecs.map(\.isTrigrams), [false, false, true, true, true])
        XCTAssertEqual(table0.fullTextIndexSpecs.map(\.isPostingBlocks), [false, true, true, true, true])
        XCTAssertEqual(table0.fullTextIndexSpecs.map(\.isCompactPostings), [false, false, false, true, true])
        XCTAssertEqual(table0.fullTextIndexSpecs.map(\.isScoreBounds), [false, false, false, false, true])
        try check(rounds: 80)
    }
}
