import StrataTestSupport
import XCTest

@testable import StrataStorage

/// The posting-block layouts against a model of the texts: long posting lists over many blocks, objects inserted
/// in the middle of blocks, removed from the middle and the ends, across commits; the compact layout of new
/// indexes, the wide one of older files and the older one-entry-per-posting layout kept beside each other, which
/// must give the same postings.
final class PostingBlockTests: XCTestCase {
    private var fixture: TableFixture!

    override func setUpWithError() throws { fixture = try TableFixture() }
    override func tearDown() { fixture = nil }

    /// A small vocabulary, so common words have hundreds of postings (several blocks each).
    private static let words = ["alpha", "beta", "gamma", "délta", "epsilon", "数据库", "zeta", "eta", "theta"]

    private static func text(_ random: inout SeededGenerator) -> StorageValue {
        if Int.random(in: 0..<20, using: &random) == 0 { return .null }
        let count = Int.random(in: 0...12, using: &random)
        return .string((0..<count).map { _ in words.randomElement(using: &random)! }.joined(separator: " "))
    }

    /// The postings the texts' tokens give for `term` (the tokenizer's rules), by object.
    private static func expected(
        _ tokens: [ObjectKey: [TextToken]], _ term: String, prefix: Bool
    ) -> [ObjectKey: [Int]] {
        var result: [ObjectKey: [Int]] = [:]
        for (key, tokens) in tokens {
            let positions = tokens
                .filter { prefix ? $0.term.utf8.starts(with: term.utf8) : $0.term == term }.map(\.position)
            if !positions.isEmpty { result[key] = positions.sorted() }
        }
        return result
    }

    private func postings(
        _ table: Table, _ index: IndexKey, _ term: String, prefix: Bool
    ) throws -> [ObjectKey: [Int]] {
        let found = try table.fullTextPostings(index, term: term, prefix: prefix)
        XCTAssertEqual(found.map(\.key), found.map(\.key).sorted(), "postings in key order")
        XCTAssertEqual(try table.fullTextKeys(index, term: term, prefix: prefix), found.map(\.key))
        return Dictionary(uniqueKeysWithValues: found.map { ($0.key, $0.positions) })
    }

    private func check(
        _ table: Table, _ indexes: [IndexKey], _ texts: [ObjectKey: StorageValue], file: StaticString = #filePath,
        line: UInt = #line
    ) throws {
        let terms = Self.words.flatMap { word in
            TextTokenizer.tokens(in: word).map(\.term) + TextTokenizer.tokens(in: word, trigrams: true).map(\.term)
        } + ["de", "数"]
        for index in indexes {
            // The terms as this index cuts runs of unspaced scripts.
            let trigrams = try XCTUnwrap(table.fullTextIndexSpecs.first { $0.key == index }).isTrigrams
            var tokens: [ObjectKey: [TextToken]] = [:]
            for (key, value) in texts {
                if case .string(let text) = value { tokens[key] = TextTokenizer.tokens(in: text, trigrams: trigrams) }
            }
            for term in terms {
                for prefix in [false, true] {
                    XCTAssertEqual(
                        try postings(table, index, term, prefix: prefix), Self.expected(tokens, term, prefix: prefix),
                        "\(term)\(prefix ? "*" : "") in \(index)", file: file, line: line)
                }
            }
            var random = SeededGenerator(seed: UInt64(texts.count))
            for term in terms {
                let expected = Self.expected(tokens, term, prefix: false)
                XCTAssertEqual(
                    try table.fullTextPostingCount(index, term: term), expected.count, file: file, line: line)
                // A sparse, ascending selection of objects with and without the term: the keys that have it, and
                // their positions and lengths, without reading the blocks between them.
                let all = texts.keys.sorted { $0.rawValue < $1.rawValue }
                let among = all.filter { _ in Int.random(in: 0..<9, using: &random) == 0 }
                let holding = among.filter { expected[$0] != nil }
                let within = try table.fullTextPositions(index, term: term, within: among)
                XCTAssertEqual(within.keys, holding, file: file, line: line)
                // The same keys without positions, blocks below the next wanted key stepped over; a selection of
                // one key from the end, where every block before the last is skipped.
                XCTAssertEqual(
                    try table.fullTextKeys(index, term: term, within: among), holding, file: file, line: line)
                if let last = all.last {
                    XCTAssertEqual(
                        try table.fullTextKeys(index, term: term, within: [last]), expected[last] == nil ? [] : [last],
                        file: file, line: line)
                }
                XCTAssertEqual(try table.fullTextKeys(index, term: term, within: []), [], file: file, line: line)
                XCTAssertEqual(try table.fullTextPositions(index, term: term, within: nil).keys.count, expected.count)
                let found = try table.fullTextPositions(index, term: term, among: holding)
                XCTAssertEqual(found.ends.count, holding.count, file: file, line: line)
                for (row, key) in holding.enumerated() {
                    let start = row == 0 ? 0 : Int(found.ends[row - 1])
                    XCTAssertEqual(
                        found.positions[start..<Int(found.ends[row])].map(Int.init), expected[key],
                        "\(term) in \(key)", file: file, line: line)
                    XCTAssertEqual(Int(found.lengths[row]), tokens[key]?.count, file: file, line: line)
                }
                if let missing = among.first(where: { expected[$0] == nil }) {
                    XCTAssertThrowsError(try table.fullTextPositions(index, term: term, among: [missing]))
                }
            }
            let documents = tokens.values.filter { !$0.isEmpty }.count
            XCTAssertEqual(try table.fullTextStatistics(index).documents, documents, file: file, line: line)
            // What ranking reads of the lengths in one walk: the token counts of a sparse selection of the objects
            // with text, beside the statistics (the average over the first few objects in key order).
            let withText = texts.keys.filter { !(tokens[$0] ?? []).isEmpty }.sorted { $0.rawValue < $1.rawValue }
            let selection = withText.filter { _ in Int.random(in: 0..<3, using: &random) == 0 }
            let counts = selection.map { tokens[$0]?.count ?? -1 }
            let ranking = try table.fullTextStatistics(index, sample: 7, lengthsOf: selection)
            XCTAssertEqual(ranking.documents, documents, file: file, line: line)
            XCTAssertEqual(ranking.lengths.map(Int.init), counts, file: file, line: line)
            let first = withText.prefix(7).map { tokens[$0]?.count ?? 0 }
            XCTAssertEqual(
                ranking.averageLength, Double(first.reduce(0, +)) / Double(max(first.count, 1)), accuracy: 1e-9,
                file: file, line: line)
            XCTAssertEqual(
                try table.fullTextDocumentLengths(index, of: selection).map(Int.init), counts, file: file, line: line)
            // An object without a length (no text, or no token) is an error, not a length of another object.
            if let without = texts.keys.first(where: { (tokens[$0] ?? []).isEmpty }) {
                XCTAssertThrowsError(try table.fullTextStatistics(index, lengthsOf: [without]), file: file, line: line)
                XCTAssertThrowsError(try table.fullTextDocumentLengths(index, of: [without]), file: file, line: line)
                // Between objects that have one: the walk must not pass over it.
                let around = Array(withText.filter { $0 < without }.suffix(1)) + [without]
                    + withText.filter { $0 > without }.prefix(1)
                XCTAssertThrowsError(try table.fullTextStatistics(index, lengthsOf: around), file: file, line: line)
            }
        }
        try fixture.catalog.verify()
    }

    func testLongPostingListsStayExactThroughInsertsUpdatesAndDeletesInTheMiddleOfBlocks() throws {
        var table = try fixture.catalog.createTable(named: "Note")
        let body = try table.addColumn(named: "body", type: .value(.string), nullable: true)
        let old = try table.addColumn(named: "old", type: .value(.string), nullable: true)
        let wideColumn = try table.addColumn(named: "wide", type: .value(.string), nullable: true)
        let blocks = try table.addFullTextIndex(on: body)
        let entries = try table.addFullTextIndex(on: old, postingBlocks: false, trigrams: false)
        let wide = try table.addFullTextIndex(on: wideColumn, postingBlocks: true, trigrams: true, compact: false)
        XCTAssertEqual(table.fullTextIndex(on: body)?.isPostingBlocks, true)
        XCTAssertEqual(table.fullTextIndex(on: body)?.isCompactPostings, true)
        XCTAssertEqual(table.fullTextIndex(on: old)?.isPostingBlocks, false)
        XCTAssertEqual(table.fullTextIndex(on: wideColumn)?.isCompactPostings, false)
        var random = SeededGenerator(seed: 128)
        var texts: [ObjectKey: StorageValue] = [:]
        func insert(_ count: Int) throws {
            for _ in 0..<count {
                let text = Self.text(&random)
                texts[try table.insert([(body, text), (old, text), (wideColumn, text)])] = text
            }
        }
        // More than a block (128) of postings per common word, in one transaction, read half way.
        try insert(700)
        try check(table, [blocks, entries, wide], texts)
        try insert(300)
        try fixture.commit()
        table = try XCTUnwrap(fixture.catalog.table(named: "Note"))
        try check(table, [blocks, entries, wide], texts)
        for round in 0..<4 {
            // Deletes from the middle of blocks (every 7th object, shifted each round) and updates.
            for (offset, key) in texts.keys.sorted(by: { $0.rawValue < $1.rawValue }).enumerated() {
                if offset % 7 == round {
                    try table.delete(key)
                    texts[key] = nil
                } else if offset % 11 == round {
                    let text = Self.text(&random)
                    try table.set(key, column: body, to: text)
                    try table.set(key, column: old, to: text)
                    try table.set(key, column: wideColumn, to: text)
                    texts[key] = text
                }
            }
            try insert(150)
            try fixture.commit()
            table = try XCTUnwrap(fixture.catalog.table(named: "Note"))
            try check(table, [blocks, entries, wide], texts)
        }
        try table.sortedIndex(blocks).mergePending()
        XCTAssertTrue(try table.sortedIndex(blocks).postingChanges.heldBlocks.isEmpty)
        // Emptying the table empties both indexes.
        for key in texts.keys { try table.delete(key) }
        texts = [:]
        try fixture.commit()
        table = try XCTUnwrap(fixture.catalog.table(named: "Note"))
        try check(table, [blocks, entries, wide], texts)
        XCTAssertEqual(try table.fullTextSize(blocks).entries, 0)
        XCTAssertEqual(try table.fullTextSize(wide).entries, 0)
    }

    /// A write transaction whose changes fill their buffer many times: each batch holds every term's open last
    /// block out of the tree for the next one (`PostingChanges.heldBlocks`), and reads, deletes and updates in
    /// between, a commit and a rollback see exactly the postings the texts give.
    /// A bulk load into an empty index written in many batches ends with its leaves full (its last batch, the
    /// held open blocks of every term, is not swept through the leaves the earlier ones filled, splitting them):
    /// no more nodes than the same texts written in one batch, the same entries, and a tree the verifier accepts.
    func testABulkLoadInManyBatchesEndsWithFullLeaves() throws {
        var table = try fixture.catalog.createTable(named: "Note")
        let one = try table.addColumn(named: "one", type: .value(.string), nullable: true)
        let many = try table.addColumn(named: "many", type: .value(.string), nullable: true)
        let whole = try table.addFullTextIndex(on: one)
        let batched = try table.addFullTextIndex(on: many)
        try table.sortedIndex(batched).postingChangeLimit = 500
        var random = SeededGenerator(seed: 2026)
        for _ in 0..<3_000 {
            // Common words, whose closed blocks the held batches write, and many rare ones, whose blocks (each
            // term's open one) wait for the last batch and go between them: the index spans many leaves.
            let words = (0..<4).map { _ in "c\(Int.random(in: 0..<30, using: &random))" }
                + (0..<4).map { _ in "w\(Int.random(in: 0..<50_000, using: &random))" }
            let text = StorageValue.string(words.joined(separator: " "))
            try table.insert([(one, text), (many, text)])
        }
        try fixture.commit()
        table = try XCTUnwrap(fixture.catalog.table(named: "Note"))
        let packed = try table.fullTextSize(whole), repacked = try table.fullTextSize(batched)
        XCTAssertGreaterThan(packed.nodes, 20, "an index of many leaves")
        XCTAssertEqual(repacked.entries, packed.entries)
        XCTAssertEqual(repacked.bytes, packed.bytes)
        XCTAssertLessThanOrEqual(repacked.nodes, packed.nodes + 1)
        try fixture.catalog.verify()
    }

    func testBatchesOfOneTransactionAppendToTheHeldOpenBlocks() throws {
        var table = try fixture.catalog.createTable(named: "Note")
        let body = try table.addColumn(named: "body", type: .value(.string), nullable: true)
        let old = try table.addColumn(named: "old", type: .value(.string), nullable: true)
        let blocks = try table.addFullTextIndex(on: body)
        let pairs = try table.addFullTextIndex(on: old, postingBlocks: true, trigrams: false)
        var random = SeededGenerator(seed: 512)
        var texts: [ObjectKey: StorageValue] = [:]
        func limitBatches() throws {
            for index in [blocks, pairs] { try table.sortedIndex(index).postingChangeLimit = 97 }
        }
        func insert(_ count: Int) throws {
            for _ in 0..<count {
                let text = Self.text(&random)
                texts[try table.insert([(body, text), (old, text)])] = text
            }
        }
        try limitBatches()
        try insert(900)
        XCTAssertFalse(try table.sortedIndex(blocks).postingChanges.heldBlocks.isEmpty, "no block held")
        // Deletes and updates in the held blocks and in the tree's, then more batches.
        for (offset, key) in texts.keys.sorted(by: { $0.rawValue < $1.rawValue }).enumerated() where offset % 9 == 4 {
            if offset % 2 == 0 {
                try table.delete(key)
                texts[key] = nil
            } else {
                let text = Self.text(&random)
                try table.set(key, column: body, to: text)
                try table.set(key, column: old, to: text)
                texts[key] = text
            }
        }
        try insert(400)
        // A read writes the held blocks into the tree.
        try check(table, [blocks, pairs], texts)
        XCTAssertTrue(try table.sortedIndex(blocks).postingChanges.heldBlocks.isEmpty)
        try insert(500)
        try fixture.commit()
        table = try XCTUnwrap(fixture.catalog.table(named: "Note"))
        try check(table, [blocks, pairs], texts)
        // Batches of a transaction rolled back leave the committed blocks as they were.
        try limitBatches()
        let committed = texts
        try insert(600)
        try fixture.rollback()
        table = try XCTUnwrap(fixture.catalog.table(named: "Note"))
        try check(table, [blocks, pairs], committed)
    }
}
