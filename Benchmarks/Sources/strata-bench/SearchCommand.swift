import ArgumentParser
import CSQLite
import Foundation
import Strata
import StrataStorage

/// `strata-bench search`: full-text search in Strata and in SQLite FTS5 on the same reproducible corpus.
///
/// The corpus (`SearchCorpus`): `--documents` documents (200,000 by default) from a fixed seed, nine in ten of
/// 8–40 words drawn with a Zipf distribution (s = 1) from 20,000 generated Latin-script words (some with
/// accents), one in ten a run of Chinese: two-character words from 3,000 characters, also Zipf-distributed, without
/// spaces. SQLite indexes the Latin part with `unicode61 remove_diacritics 2` and the Chinese part with `trigram`
/// (two FTS5 tables); Strata keeps one `fullText` property for both. Then `--queries` queries of each kind: one
/// word, two words, a prefix (`abc*`), a two-word phrase taken from a document, and the ten most relevant
/// objects for one word (BM25 in both), the first ten matches of one word unranked with their texts read
/// (`prefix(10)` of the unsorted results; `LIMIT 10`: top-10's work minus the ranking), and the ten newest matches
/// of one word (`prefix(10)` of results sorted by id, descending; `ORDER BY rowid DESC LIMIT 10`). Each query reads the ids of every match (SQLite steps
/// through its rows, Strata evaluates `TEXT` through the index); the figures are microseconds per query, the
/// build is seconds, and the size is the file's bytes after the build and the queries, each database closed
/// (content and index in both).
///
/// With `--rounds N` the three ranked rows (top-10, first-10, newest-10) are timed N times in turn, and each row
/// reports its fastest round per engine.
struct SearchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search", abstract: "Full-text search: Strata's TEXT and BM25 against SQLite FTS5.")

    @Option(help: "Documents in the corpus.")
    var documents = 200_000

    @Option(help: "Queries of each kind.")
    var queries = 1_000

    @Flag(help: "Print {\"workloads\": [...]} instead of a table.")
    var json = false

    @Flag(help: """
        Time each phase by the CPU time of the thread that runs both engines, not the wall clock (which stretches \
        with other processes' work on a loaded machine).
        """)
    var cpuTime = false

    @Option(help: """
        Rounds of the ranked rows (top-10, first-10, newest-10), timed in turn; each row reports its fastest \
        round (on a loaded machine, several rounds give a steadier top-10 / first-10 ratio).
        """)
    var rounds = 1

    @Option(help: "Keep both databases in this directory (for `strata info`) instead of a temporary one.")
    var keep: String?

    func run() throws {
        let directory = keep.map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("strata-bench-search-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { if keep == nil { try? FileManager.default.removeItem(at: directory) } }
        let corpus = SearchCorpus(documents: documents, queries: queries)

        var rows: [(id: String, unit: String, strata: Double, sqlite: Double)] = []
        let strataURL = directory.appendingPathComponent("search.strata")
        // Both files are measured closed: SQLite's after `close()`, Strata's once its database is released here,
        // which cuts the file back to the pages its last version uses (open, it keeps the growth a writer takes
        // ahead of need, up to an eighth of the file).
        do {
            var configuration = Configuration(schema: Bench.self)
            configuration.fileURL = strataURL
            configuration.durability = .none
            let db = try Database(configuration: configuration)
            let strataBuild = try seconds {
                try db.write {
                    for (id, body) in corpus.texts.enumerated() {
                        let article = Article()
                        article.id = id
                        article.body = body
                        db.add(article)
                    }
                }
            }
            let sqlite = try FTSDatabase(path: directory.appendingPathComponent("search.sqlite").path)
            let sqliteBuild = try seconds { try sqlite.insert(corpus.texts, isChinese: corpus.isChinese) }

            rows.append(("FTS-build", "s", strataBuild, sqliteBuild))
            let kinds: [(String, [String], [String], Bool)] = [
                ("FTS-one-word", corpus.oneWord, corpus.oneWord, false),
                ("FTS-two-words", corpus.twoWords, corpus.twoWords, false),
                ("FTS-prefix", corpus.prefixes, corpus.prefixes, false),
                ("FTS-phrase", corpus.phrases.map { "\"\($0)\"" }, corpus.phrases.map { "\"\($0)\"" }, false),
                ("FTS-chinese", corpus.chinese, corpus.chinese, true),
            ]
            let articles = db.objects(Article.self)
            for (id, strataQueries, sqliteQueries, chinese) in kinds {
                var strataMatches = 0, sqliteMatches = 0
                let strataTime = try seconds {
                    for query in strataQueries { strataMatches += try articles.filter("body TEXT %@", query).count }
                }
                let sqliteTime = try seconds {
                    for query in sqliteQueries { sqliteMatches += try sqlite.matches(query, chinese: chinese) }
                }
                guard strataMatches > 0, sqliteMatches > 0 else { throw BenchmarkError("\(id): no query matched") }
                rows.append((id, "µs/query", strataTime * 1e6 / Double(strataQueries.count),
                             sqliteTime * 1e6 / Double(sqliteQueries.count)))
                if !json { print("\(id): \(strataMatches) matches in Strata, \(sqliteMatches) in SQLite") }
            }
            let perQuery = 1e6 / Double(corpus.oneWord.count)
            // Each round times the three rows in turn; each row keeps its fastest round per engine.
            var fastest: [String: (strata: Double, sqlite: Double)] = [:]
            func time(_ id: String, strata: () throws -> Int, sqlite: () throws -> Int) throws {
                let times = try timedPair(id, strata: strata, sqlite: sqlite)
                let known = fastest[id] ?? (Double.infinity, Double.infinity)
                fastest[id] = (min(known.strata, times.strata), min(known.sqlite, times.sqlite))
            }
            for _ in 0..<max(rounds, 1) {
                try time(
                    "FTS-top10",
                    strata: {
                        try corpus.oneWord.reduce(0) {
                            $0 + (try articles.search($1, in: "body", limit: 10).count)
                        }
                    },
                    sqlite: { try corpus.oneWord.reduce(0) { $0 + (try sqlite.top10($1).count) } })
                // The same work as top-10 minus the ranking: the first ten matches of each word in key order, with
                // their texts read (what "top-10 by relevance as fast as an unranked query" compares top-10 with).
                try time(
                    "FTS-first10",
                    strata: {
                        try corpus.oneWord.reduce(0) { total, query in
                            try articles.filter("body TEXT %@", query).prefix(10)
                                .reduce(total) { $0 + ($1.body.isEmpty ? 0 : 1) }
                        }
                    },
                    sqlite: { try corpus.oneWord.reduce(0) { $0 + (try sqlite.first10($1).count) } })
                // `Results.prefix(_:)` on sorted results: the ten newest matches, kept by a bounded heap (no full
                // sort).
                try time(
                    "FTS-newest10",
                    strata: {
                        try corpus.oneWord.reduce(0) { total, query in
                            total + (try articles.filter("body TEXT %@", query)
                                .sorted(byKeyPath: "id", ascending: false).prefix(10).map(\.id).count)
                        }
                    },
                    sqlite: { try corpus.oneWord.reduce(0) { $0 + (try sqlite.newest10($1).count) } })
            }
            for id in ["FTS-top10", "FTS-first10", "FTS-newest10"] {
                let times = fastest[id]!
                rows.append((id, "µs/query", times.strata * perQuery, times.sqlite * perQuery))
            }
            if !json {
                let count = rows.first { $0.id == "FTS-one-word" }?.strata ?? 0
                let top = fastest["FTS-top10"]!.strata * perQuery, first = fastest["FTS-first10"]!.strata * perQuery
                print(String(
                    format: "FTS-top10: %.2f× Strata's first-10 (%.1f µs), %.2f× its one-word count (%.1f µs)",
                    top / first, first, top / max(count, 1e-9), count))
            }
            try sqlite.close()
        }
        let strataBytes = try fileSize(strataURL.path)
        let sqliteBytes = try fileSize(directory.appendingPathComponent("search.sqlite").path)
        rows.append(("FTS-size", "MiB", Double(strataBytes) / 1_048_576, Double(sqliteBytes) / 1_048_576))
        try report(rows)
    }

    /// Times `strata`, then `sqlite`, each doing all of row `id`'s queries and returning how many results it
    /// read; throws when the two counts differ (the engines must answer alike), returns both times in seconds.
    private func timedPair(
        _ id: String, strata: () throws -> Int, sqlite: () throws -> Int
    ) throws -> (strata: Double, sqlite: Double) {
        var strataCount = 0, sqliteCount = 0
        let strataTime = try seconds { strataCount = try strata() }
        let sqliteTime = try seconds { sqliteCount = try sqlite() }
        guard strataCount == sqliteCount else {
            throw BenchmarkError("\(id): \(strataCount) results in Strata, \(sqliteCount) in SQLite")
        }
        return (strataTime, sqliteTime)
    }

    private func seconds(_ body: () throws -> Void) throws -> Double {
        let start = now()
        try body()
        return Double(now() - start) / 1e9
    }

    /// Nanoseconds of the wall clock, or with `--cpu-time` of the calling thread's CPU time (user and system).
    private func now() -> UInt64 {
        guard cpuTime else { return DispatchTime.now().uptimeNanoseconds }
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    private func fileSize(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    }

    private func report(_ rows: [(id: String, unit: String, strata: Double, sqlite: Double)]) throws {
        if json {
            let entries: [[String: Any]] = rows.map {
                ["id": $0.id, "unit": $0.unit, "strata": $0.strata, "sqlite": $0.sqlite,
                 "ratio": $0.sqlite > 0 ? $0.strata / $0.sqlite : NSNull()]
            }
            let data = try JSONSerialization.data(
                withJSONObject: ["workloads": entries], options: [.prettyPrinted, .sortedKeys])
            print(String(decoding: data, as: UTF8.self))
            return
        }
        print("workload        unit        Strata        SQLite FTS5   Strata/SQLite")
        for row in rows {
            print(
                row.id.padding(toLength: 16, withPad: " ", startingAt: 0)
                    + row.unit.padding(toLength: 12, withPad: " ", startingAt: 0)
                    + String(format: "%-14.2f%-14.2f%.2f", row.strata, row.sqlite, row.strata / max(row.sqlite, 1e-12)))
        }
    }
}

/// The benchmark's documents and queries, the same for every run (fixed seed).
struct SearchCorpus {
    private(set) var texts: [String] = []
    private(set) var isChinese: [Bool] = []
    private(set) var oneWord: [String] = []
    private(set) var twoWords: [String] = []
    private(set) var prefixes: [String] = []
    private(set) var phrases: [String] = []
    private(set) var chinese: [String] = []

    init(documents: Int, queries: Int) {
        var random = SplitMix(state: 28)
        let words = Self.latinWords(20_000, &random)
        let characters = (0..<3_000).map { Character(Unicode.Scalar(0x4E00 + $0 * 7)!) }
        let chineseWords = (0..<6_000).map { _ in
            String([characters.randomElement(using: &random)!, characters.randomElement(using: &random)!])
        }
        let zipf = Zipf(count: words.count)
        let chineseZipf = Zipf(count: chineseWords.count)
        for index in 0..<documents {
            if index % 10 == 9 {
                let length = Int.random(in: 6...30, using: &random)
                texts.append((0..<length).map { _ in chineseWords[chineseZipf.sample(&random)] }.joined())
                isChinese.append(true)
            } else {
                let length = Int.random(in: 8...40, using: &random)
                texts.append((0..<length).map { _ in words[zipf.sample(&random)] }.joined(separator: " "))
                isChinese.append(false)
            }
        }
        // Query words from ranks 10 to 2,000: common enough to match, not stop words.
        func queryWord() -> String { words[Int.random(in: 10..<2_000, using: &random)] }
        for _ in 0..<queries {
            oneWord.append(queryWord())
            twoWords.append("\(queryWord()) \(words[Int.random(in: 0..<200, using: &random)])")
            prefixes.append(String(queryWord().prefix(3)) + "*")
            var latin = Int.random(in: 0..<documents, using: &random)
            while isChinese[latin] { latin = (latin + 1) % documents }
            let parts = texts[latin].split(separator: " ")
            let start = Int.random(in: 0..<(parts.count - 1), using: &random)
            phrases.append("\(parts[start]) \(parts[start + 1])")
            var han = Int.random(in: 0..<documents, using: &random)
            while !isChinese[han] { han = (han + 1) % documents }
            let text = Array(texts[han])
            let offset = Int.random(in: 0...(text.count - 3), using: &random)
            chinese.append(String(text[offset..<offset + 3]))
        }
    }

    /// Pronounceable words of 3–10 letters, one in eight with an accented letter.
    private static func latinWords(_ count: Int, _ random: inout SplitMix) -> [String] {
        let consonants = Array("bcdfghjklmnprstvz"), vowels = Array("aeiou"), accented = Array("éèàüöñç")
        var seen = Set<String>()
        var words: [String] = []
        while words.count < count {
            var word = ""
            for _ in 0..<Int.random(in: 2...5, using: &random) {
                word.append(consonants.randomElement(using: &random)!)
                word.append(vowels.randomElement(using: &random)!)
            }
            if Int.random(in: 0..<8, using: &random) == 0 { word.append(accented.randomElement(using: &random)!) }
            if seen.insert(word).inserted { words.append(word) }
        }
        return words
    }
}

/// A Zipf distribution (s = 1) over ranks `0..<count`, sampled by binary search over the cumulative weights.
struct Zipf {
    private let cumulative: [Double]

    init(count: Int) {
        var total = 0.0
        cumulative = (1...count).map { rank in
            total += 1 / Double(rank)
            return total
        }
    }

    func sample(_ random: inout SplitMix) -> Int {
        let target = Double.random(in: 0..<cumulative[cumulative.count - 1], using: &random)
        var low = 0, high = cumulative.count - 1
        while low < high {
            let middle = (low + high) / 2
            if cumulative[middle] <= target { low = middle + 1 } else { high = middle }
        }
        return low
    }
}

/// SplitMix64: a small seeded generator, so the corpus is the same on every machine.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// SQLite with two FTS5 tables: `latin` (`unicode61 remove_diacritics 2`) and `chinese` (`trigram`).
final class FTSDatabase: SQLiteStatements {
    private(set) var db: OpaquePointer?
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    init(path: String) throws {
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK else {
            throw BenchmarkError("sqlite3_open_v2(\(path)) failed")
        }
        try execute("PRAGMA journal_mode=DELETE")
        try execute("PRAGMA synchronous=OFF")
        try execute("CREATE VIRTUAL TABLE latin USING fts5(body, tokenize = \"unicode61 remove_diacritics 2\")")
        try execute("CREATE VIRTUAL TABLE chinese USING fts5(body, tokenize = \"trigram\")")
    }

    func insert(_ texts: [String], isChinese: [Bool]) throws {
        try execute("BEGIN")
        let latin = try prepare("INSERT INTO latin (rowid, body) VALUES (?, ?)")
        let chinese = try prepare("INSERT INTO chinese (rowid, body) VALUES (?, ?)")
        defer {
            sqlite3_finalize(latin)
            sqlite3_finalize(chinese)
        }
        for (id, text) in texts.enumerated() {
            let statement = isChinese[id] ? chinese : latin
            sqlite3_bind_int64(statement, 1, Int64(id))
            _ = text.withCString { sqlite3_bind_text(statement, 2, $0, -1, Self.transient) }
            guard sqlite3_step(statement) == SQLITE_DONE else { throw error("insert") }
            sqlite3_reset(statement)
        }
        try execute("COMMIT")
    }

    /// The number of matching rows, every rowid read.
    func matches(_ query: String, chinese: Bool) throws -> Int {
        let statement = try prepare("SELECT rowid FROM \(chinese ? "chinese" : "latin") WHERE body MATCH ?")
        defer { sqlite3_finalize(statement) }
        _ = query.withCString { sqlite3_bind_text(statement, 1, $0, -1, Self.transient) }
        var count = 0
        while sqlite3_step(statement) == SQLITE_ROW { count += sqlite3_column_int64(statement, 0) >= 0 ? 1 : 0 }
        return count
    }

    /// The ten most relevant rows (FTS5's BM25 `rank`) with their text.
    func top10(_ query: String) throws -> [String] {
        try texts("SELECT body FROM latin WHERE body MATCH ? ORDER BY rank LIMIT 10", query)
    }

    /// The texts of the first ten matching rows, unranked (in rowid order).
    func first10(_ query: String) throws -> [String] {
        try texts("SELECT body FROM latin WHERE body MATCH ? LIMIT 10", query)
    }

    /// The texts `sql` (one `MATCH ?` parameter, selecting `body`) returns for `query`.
    private func texts(_ sql: String, _ query: String) throws -> [String] {
        let statement = try prepare(sql)
        defer { sqlite3_finalize(statement) }
        _ = query.withCString { sqlite3_bind_text(statement, 1, $0, -1, Self.transient) }
        var bodies: [String] = []
        while sqlite3_step(statement) == SQLITE_ROW {
            bodies.append(String(cString: sqlite3_column_text(statement, 0)))
        }
        return bodies
    }

    /// The ids of the ten matching rows with the highest ids.
    func newest10(_ query: String) throws -> [Int64] {
        let statement = try prepare("SELECT rowid FROM latin WHERE body MATCH ? ORDER BY rowid DESC LIMIT 10")
        defer { sqlite3_finalize(statement) }
        _ = query.withCString { sqlite3_bind_text(statement, 1, $0, -1, Self.transient) }
        var ids: [Int64] = []
        while sqlite3_step(statement) == SQLITE_ROW { ids.append(sqlite3_column_int64(statement, 0)) }
        return ids
    }

    func close() throws {
        sqlite3_close(db)
        db = nil
    }
}
