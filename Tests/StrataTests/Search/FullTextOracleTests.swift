import Foundation
import StrataStorage
import StrataTestSupport
import XCTest

@testable import Strata

/// `TEXT` against a brute-force matcher (``FullTextQuery/matches(_:)`` over each object's text, the tokenizer's
/// rules) on random documents in many scripts, after inserts, updates, deletes and reopening; the index path and
/// the scan path must both agree with it, and `verify` must find the index exact.
final class FullTextOracleTests: XCTestCase {
    private var directory: TemporaryDirectory!

    override func setUpWithError() throws { directory = try TemporaryDirectory() }
    override func tearDown() { directory = nil }

    private func open() throws -> Database {
        return try Database(configuration: Configuration(schema: Search.self)
            .scratch(at: directory.url.appendingPathComponent("search.strata")))
    }

    /// Words in several scripts, with accents, case and width variants of each other, so folding matters.
    private static let words = [
        "Émile", "emile", "CAFÉ", "cafe", "naïve", "Straße", "strasse", "data", "database", "datum", "Swift",
        "σοφός", "ΣΟΦΟΣ", "λόγος", "Москва", "москва", "ёлка", "数据库", "数据", "我爱", "東京", "とうきょう",
        "カタカナ", "ｶﾀｶﾅ", "مرحبا", "كتاب", "🍣", "❤️", "ＡＢＣ", "abc", "3.14", "don't", "x-ray", "ภาษาไทย",
    ]

    private static func document(_ random: inout SeededGenerator) -> String {
        let count = Int.random(in: 0...8, using: &random)
        var text = ""
        for _ in 0..<count {
            text += words.randomElement(using: &random)!
            // Sometimes no space: Chinese and Japanese run into each other.
            text += ["", " ", ", ", ". ", " "].randomElement(using: &random)!
        }
        return text
    }

    private static func query(_ random: inout SeededGenerator) -> String {
        var parts: [String] = []
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            let word = words.randomElement(using: &random)!
            switch Int.random(in: 0..<10, using: &random) {
            case 0: parts.append("-" + word)
            case 1: parts.append(String(word.prefix(2)) + "*")
            case 2: parts.append("\"\(word) \(words.randomElement(using: &random)!)\"")
            case 3: parts.append(String(word.dropFirst().prefix(1)))
            default: parts.append(word)
            }
        }
        return parts.joined(separator: " ")
    }

    private func check(
        _ db: Database, _ random: inout SeededGenerator, rounds: Int, file: StaticString = #filePath,
        line: UInt = #line
    ) throws {
        let all = Array(db.objects(Document.self))
        var matchedSome = 0
        defer { XCTAssertGreaterThan(matchedSome, rounds / 4, "too few queries match anything", file: file, line: line) }
        for _ in 0..<rounds {
            let text = Self.query(&random)
            let parsed = FullTextQuery(text)
            let expected = Set(all.filter { parsed.matches($0.body) }.map(\.id))
            if !expected.isEmpty { matchedSome += 1 }
            let indexed = try db.objects(Document.self).filter("body TEXT %@", text)
            XCTAssertTrue(indexed.explain.contains("full-text index"), indexed.explain, file: file, line: line)
            XCTAssertEqual(Set(indexed.map(\.id)), expected, "body TEXT \(text)", file: file, line: line)
            // The newest matches, by the primary key the object keys are: in key order, no value read.
            let newest = expected.sorted(by: >).prefix(5)
            XCTAssertEqual(
                Array(indexed.sorted(byKeyPath: "id", ascending: false).prefix(5).map(\.id)), Array(newest),
                "newest of \(text)", file: file, line: line)
            XCTAssertEqual(
                Array(indexed.sorted(byKeyPath: "id").prefix(5).map(\.id)), Array(expected.sorted().prefix(5)),
                "oldest of \(text)", file: file, line: line)
            try checkRanking(db, text, all: all, file: file, line: line)
            let typed = try db.objects(Document.self).where { $0.body.matches(text) }
            XCTAssertEqual(Set(typed.map(\.id)), expected, "typed \(text)", file: file, line: line)
            // The same query on a string without an index is a scan with the same answer.
            let scanned = Set(all.filter { parsed.matches($0.title) }.map(\.id))
            let titles = try db.objects(Document.self).filter("title TEXT %@", text)
            XCTAssertFalse(titles.explain.contains("full-text index"), file: file, line: line)
            XCTAssertEqual(Set(titles.map(\.id)), scanned, "title TEXT \(text)", file: file, line: line)
            let summaries = Set(all.filter { $0.summary.map(parsed.matches) ?? false }.map(\.id))
            XCTAssertEqual(
                Set(try db.objects(Document.self).filter("summary TEXT %@", text).map(\.id)), summaries,
                "summary TEXT \(text)", file: file, line: line)
            // Combined with other predicates.
            let combined = try db.objects(Document.self).filter("body TEXT %@ AND rank < 5", text)
            XCTAssertEqual(
                Set(combined.map(\.id)), Set(all.filter { parsed.matches($0.body) && $0.rank < 5 }.map(\.id)),
                file: file, line: line)
            let negated = try db.objects(Document.self).filter("NOT body TEXT %@ OR rank == 1", text)
            XCTAssertEqual(
                Set(negated.map(\.id)), Set(all.filter { !parsed.matches($0.body) || $0.rank == 1 }.map(\.id)),
                file: file, line: line)
        }
        XCTAssertNoThrow(try db.verify(), file: file, line: line)
    }

    /// The scores `search` gives against BM25 worked out from each document's tokens (each required clause's
    /// document frequency and occurrences), and the best three with `limit` against the first three of all.
    private func checkRanking(
        _ db: Database, _ text: String, all: [Document], file: StaticString, line: UInt
    ) throws {
        let parsed = FullTextQuery(text)
        let tokens = all.map { (id: $0.id, tokens: TextTokenizer.tokens(in: $0.body)) }
        let documents = tokens.filter { !$0.tokens.isEmpty }
        // Averaged in key order (ids are the keys here) over at most the first 4,096, as the index does.
        let sample = documents.sorted { $0.id < $1.id }.prefix(4096)
        let average = sample.isEmpty ? 0 : Double(sample.map(\.tokens.count).reduce(0, +)) / Double(sample.count)
        let frequencies = parsed.required.map { clause in
            documents.filter { FullTextQuery.occurrences(of: clause, in: $0.tokens) > 0 }.count
        }
        var expected: [Int: Double] = [:]
        for document in documents where parsed.matches(tokens: document.tokens) {
            var score = 0.0
            for (clause, frequency) in zip(parsed.required, frequencies) {
                score += FullTextIndexSearch.score(
                    frequency: frequency, documents: documents.count,
                    occurrences: FullTextQuery.occurrences(of: clause, in: document.tokens),
                    length: document.tokens.count, averageLength: average)
            }
            expected[document.id] = score
        }
        let hits = try db.objects(Document.self).search(text, in: "body")
        XCTAssertEqual(Set(hits.map(\.object.id)), Set(expected.keys), "search \(text)", file: file, line: line)
        for hit in hits {
            XCTAssertEqual(hit.score, expected[hit.object.id] ?? -1, accuracy: 1e-9, "\(text)", file: file, line: line)
        }
        let best = try db.objects(Document.self).search(text, in: "body", limit: 3)
        XCTAssertEqual(
            best.map(\.object.id), hits.prefix(3).map(\.object.id), "best of \(text)", file: file, line: line)
    }

    func testTextQueriesMatchTheBruteForceMatcherThroughWritesAndReopening() throws {
        var random = SeededGenerator(seed: 2028)
        var db: Database! = try open()
        try db.write {
            for id in 0..<160 {
                let document = Document()
                document.id = id
                document.title = Self.document(&random)
                document.body = Self.document(&random)
                document.summary = id % 3 == 0 ? nil : Self.document(&random)
                document.rank = id % 10
                db.add(document)
            }
        }
        try check(db, &random, rounds: 60)
        // Updates (some to the same text, some to none), then deletes.
        try db.write {
            for document in db.objects(Document.self) where document.id % 4 == 1 {
                document.body = document.id % 8 == 1 ? Self.document(&random) : ""
                document.summary = document.id % 3 == 1 ? nil : Self.document(&random)
            }
        }
        try check(db, &random, rounds: 60)
        try db.write {
            for document in Array(db.objects(Document.self)) where document.id % 5 == 2 { db.delete(document) }
        }
        try check(db, &random, rounds: 60)
        db = nil
        db = try open()
        try check(db, &random, rounds: 60)
    }

    /// Enough documents that common words have several posting blocks (128 objects each): queries cross block
    /// boundaries, and deletes and updates land in the middle of blocks, in one transaction and across several.
    func testTextQueriesMatchTheBruteForceMatcherAcrossPostingBlocks() throws {
        var random = SeededGenerator(seed: 128)
        var db: Database! = try open()
        func add(_ ids: Range<Int>) throws {
            try db.write {
                for id in ids {
                    let document = Document()
                    document.id = id
                    document.body = Self.document(&random) + " " + Self.document(&random)
                    document.rank = id % 10
                    db.add(document)
                }
            }
        }
        try add(0..<900)
        try check(db, &random, rounds: 6)
        try db.write {
            for document in Array(db.objects(Document.self)) {
                if document.id % 3 == 1 {
                    db.delete(document)
                } else if document.id % 7 == 2 {
                    document.body = Self.document(&random)
                }
            }
        }
        try add(900..<1_100)
        try check(db, &random, rounds: 6)
        db = nil
        db = try open()
        try check(db, &random, rounds: 6)
    }

    /// A word of a vocabulary where a few words are common (dozens of posting blocks each) and most are rare
    /// (one block or a few postings): phrases then pair a rare driver with a common word whose blocks the seeking
    /// walk must step over, descending the tree again, and cross block and leaf boundaries.
    private static func skewedWord(_ random: inout SeededGenerator) -> String {
        let rank = Int(pow(Double.random(in: 0..<1, using: &random), 3) * 60)
        return "w\(rank)"
    }

    /// A run of Chinese characters from a small set, so that character pairs repeat across many documents.
    private static func chineseRun(_ random: inout SeededGenerator) -> String {
        let characters = Array("数据库管理系统我爱东京学习中文字符查询索引")
        return String((0..<Int.random(in: 2...14, using: &random)).map { _ in characters.randomElement(using: &random)! })
    }

    /// Phrases taken from documents (so they match), Chinese substrings of 2–4 characters, and the newest and
    /// oldest ten matches of a word, over 4,000 documents, against the brute-force matcher, through deletes and
    /// updates in the middle of blocks and reopening.
    func testPhrasesChineseAndNewestMatchesOverManyBlocksMatchTheBruteForceMatcher() throws {
        var random = SeededGenerator(seed: 4_096)
        var db: Database! = try open()
        func text() -> String {
            if Int.random(in: 0..<5, using: &random) == 0 { return Self.chineseRun(&random) }
            return (0..<Int.random(in: 2...12, using: &random)).map { _ in Self.skewedWord(&random) }
                .joined(separator: " ")
        }
        try db.write {
            for id in 0..<4_000 {
                let document = Document()
                document.id = id
                document.body = text()
                db.add(document)
            }
        }
        func check(line: UInt = #line) throws {
            let all = Array(db.objects(Document.self)).map { (id: $0.id, body: $0.body) }
            let tokens = all.map { TextTokenizer.tokens(in: $0.body) }
            func expected(_ query: String) -> [Int] {
                let parsed = FullTextQuery(query)
                return all.indices.filter { parsed.matches(tokens: tokens[$0]) }.map { all[$0].id }.sorted()
            }
            func found(_ query: String) throws -> [Int] {
                try db.objects(Document.self).filter("body TEXT %@", query).map(\.id).sorted()
            }
            var queries: [String] = []
            for _ in 0..<40 {
                let source = all[Int.random(in: 0..<all.count, using: &random)].body
                let words = source.split(separator: " ")
                if words.count >= 2 {
                    let start = Int.random(in: 0..<(words.count - 1), using: &random)
                    let length = Swift.min(Int.random(in: 2...3, using: &random), words.count - start)
                    queries.append("\"" + words[start..<start + length].joined(separator: " ") + "\"")
                } else if source.count >= 2 {
                    let characters = Array(source)
                    let length = Int.random(in: 2...Swift.min(4, characters.count), using: &random)
                    let start = Int.random(in: 0...(characters.count - length), using: &random)
                    queries.append(String(characters[start..<start + length]))
                }
                queries.append("\"\(Self.skewedWord(&random)) \(Self.skewedWord(&random))\"")
                queries.append(String(Self.chineseRun(&random).prefix(3)))
            }
            var matched = 0
            for query in queries {
                let want = expected(query)
                if !want.isEmpty { matched += 1 }
                XCTAssertEqual(try found(query), want, query, line: line)
                XCTAssertEqual(
                    try db.objects(Document.self).filter("body TEXT %@", query).count, want.count, query, line: line)
            }
            XCTAssertGreaterThan(matched, queries.count / 3, line: line)
            for _ in 0..<20 {
                let word = Self.skewedWord(&random)
                let want = expected(word)
                let matches = try db.objects(Document.self).filter("body TEXT %@", word)
                XCTAssertEqual(
                    Array(matches.sorted(byKeyPath: "id", ascending: false).prefix(10).map(\.id)),
                    Array(want.reversed().prefix(10)), "newest of \(word)", line: line)
                XCTAssertEqual(
                    Array(matches.sorted(byKeyPath: "id").prefix(10).map(\.id)), Array(want.prefix(10)),
                    "oldest of \(word)", line: line)
            }
        }
        try check()
        try db.write {
            for document in Array(db.objects(Document.self)) {
                if document.id % 7 == 3 || (1_000..<1_500).contains(document.id) {
                    db.delete(document)
                } else if document.id % 11 == 4 {
                    document.body = text()
                }
            }
        }
        try check()
        db = nil
        db = try open()
        try check()
    }

    func testQueriesOfUnspacedScriptsFindWordsInsideSentences() throws {
        let db = try open()
        try db.write {
            for (id, body) in ["我爱数据库管理", "数据很重要", "东京タワーに行きました", "Swiftのデータベース"].enumerated() {
                let document = Document()
                document.id = id
                document.body = body
                db.add(document)
            }
        }
        func ids(_ query: String) throws -> [Int] {
            try db.objects(Document.self).filter("body TEXT %@", query).map(\.id).sorted()
        }
        XCTAssertEqual(try ids("数据库"), [0])
        XCTAssertEqual(try ids("数据"), [0, 1])
        XCTAssertEqual(try ids("库"), [0])
        XCTAssertEqual(try ids("タワー"), [2])
        XCTAssertEqual(try ids("swift データ"), [3])
        XCTAssertEqual(try ids("数据 -管理"), [1])
        XCTAssertEqual(try ids("据重"), [])
    }

    func testRelevanceOrderIsBM25() throws {
        let db = try open()
        let bodies = [
            "apple banana cherry date elderberry fig grape honeydew",  // 0: one "apple" in a long text
            "apple apple apple banana",  // 1: three in a short text
            "banana cherry",  // 2: none
            "apple banana",  // 3: one in a short text
            "apple pie and apple juice with apple cake",  // 4: three in a longer text
        ]
        try db.write {
            for (id, body) in bodies.enumerated() {
                let document = Document()
                document.id = id
                document.body = body
                db.add(document)
            }
        }
        let hits = try db.objects(Document.self).search("apple", in: "body")
        XCTAssertEqual(hits.map(\.object.id), [1, 4, 3, 0])
        XCTAssertTrue(zip(hits, hits.dropFirst()).allSatisfy { $0.score > $1.score })
        // The scores are BM25's, from the documents' lengths.
        let lengths = bodies.map { Double(TextTokenizer.tokens(in: $0).count) }
        let average = lengths.reduce(0, +) / Double(lengths.count)
        let idf = log((5.0 - 4 + 0.5) / (4 + 0.5) + 1)
        let expected = 3 * 2.2 / (3 + 1.2 * (1 - 0.75 + 0.75 * lengths[1] / average)) * idf
        XCTAssertEqual(hits[0].score, expected, accuracy: 1e-9)
        // Filters narrow the search; highlights are the matched words.
        let filtered = try db.objects(Document.self).filter("id != 1").search("apple ban*", in: "body")
        XCTAssertEqual(filtered.map(\.object.id), [3, 0])
        XCTAssertEqual(filtered[0].ranges.map { String(filtered[0].text[$0]) }, ["apple", "banana"])
        XCTAssertThrowsError(try db.objects(Document.self).search("apple", in: "title"))
    }

    func testHighlightsOfPhrasesAndUnspacedText() throws {
        let text = "Le café de Émile, 我爱数据库"
        let query = FullTextQuery("\"cafe de\" emile 数据 库*")
        XCTAssertEqual(query.highlights(in: text).map { String(text[$0]) }, ["café de", "Émile", "数据库"])
    }
}
