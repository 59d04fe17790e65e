import StrataStorage
import StrataTestSupport
import XCTest

/// The reads of a full-text index that walk part of a term's posting blocks: the seeking walk (keys and
/// positions among given objects, blocks stepped over and the tree descended again), the walk from either end
/// (the first or last keys of a word), and the entry counts that pick a phrase's rarest word. Each against what
/// the whole postings say, in both layouts (posting blocks and one entry per (term, object)), before and after a
/// commit, and after deletes in the middle of blocks.
final class PostingWalkTests: XCTestCase {
    private var fixture: TableFixture!
    private var table: Table!
    private var body: ColumnKey!

    override func setUpWithError() throws {
        fixture = try TableFixture()
        table = try fixture.catalog.createTable(named: "Note")
        body = try table.addColumn(named: "body", type: .value(.string), nullable: true)
    }

    /// The text of object number `n`: `common` in each, `even` in every second, `rare` in every 97th, with
    /// `common` twice in every fifth (two positions).
    private static func text(_ n: Int) -> String {
        var words = ["common", "w\(n % 13)"]
        if n % 2 == 0 { words.append("even") }
        if n % 97 == 0 { words.append("rare") }
        if n % 5 == 0 { words += ["x", "common"] }
        return words.joined(separator: " ")
    }

    private func check(_ index: IndexKey, _ random: inout SeededGenerator, file: StaticString = #filePath,
                       line: UInt = #line) throws {
        for term in ["common", "even", "rare", "w3", "absent"] {
            let all = try table.fullTextPostings(index, term: term, prefix: false)
            let keys = all.map(\.key)
            XCTAssertEqual(try table.fullTextKeys(index, term: term, prefix: false), keys, term, file: file, line: line)
            // The entry count that picks a phrase's rarest word: blocks of at most 128 postings, or one per posting.
            let entries = try table.fullTextEntryCount(index, term: term)
            XCTAssertEqual(entries == 0, keys.isEmpty, term, file: file, line: line)
            XCTAssertGreaterThanOrEqual(entries, (keys.count + 127) / 128, term, file: file, line: line)
            XCTAssertLessThanOrEqual(entries, keys.count, term, file: file, line: line)
            for count in [1, 10, 200, 5_000] {
                XCTAssertEqual(
                    try table.fullTextKeys(index, term: term, first: count, descending: true),
                    Array(keys.suffix(count).reversed()), "last \(count) of \(term)", file: file, line: line)
                XCTAssertEqual(
                    try table.fullTextKeys(index, term: term, first: count, descending: false),
                    Array(keys.prefix(count)), "first \(count) of \(term)", file: file, line: line)
            }
            // Random sets of wanted objects: sparse (seeking past runs of blocks), dense, and at the ends.
            let everyKey = try table.keys()
            for density in [1, 3, 40, 400] {
                let within = everyKey.filter { _ in Int.random(in: 0..<density, using: &random) == 0 }
                let wanted = Set(within)
                let expected = all.filter { wanted.contains($0.key) }
                XCTAssertEqual(
                    try table.fullTextKeys(index, term: term, within: within), expected.map(\.key),
                    "\(term) within 1/\(density)", file: file, line: line)
                let found = try table.fullTextPositions(index, term: term, within: within)
                XCTAssertEqual(found.keys, expected.map(\.key), file: file, line: line)
                XCTAssertEqual(found.positions, expected.flatMap { $0.positions.map(Int32.init) }, file: file, line: line)
                XCTAssertEqual(found.lengths, expected.map { Int32($0.documentLength) }, file: file, line: line)
            }
            let last = Array(everyKey.suffix(3))
            XCTAssertEqual(
                try table.fullTextKeys(index, term: term, within: last), keys.filter(last.contains), file: file,
                line: line)
        }
    }

    private func run(postingBlocks: Bool) throws {
        var random = SeededGenerator(seed: 97)
        let index = try table.addFullTextIndex(on: body, postingBlocks: postingBlocks, trigrams: postingBlocks)
        var keys: [ObjectKey] = []
        for n in 0..<6_000 { keys.append(try table.insert([(body, .string(Self.text(n)))])) }
        try check(index, &random)
        try fixture.commit()
        // Stored leaves, read in place by a read-only catalog, then by the next write transaction's.
        let reader = try fixture.reader()
        table = try XCTUnwrap(reader.table(named: "Note"))
        try check(index, &random)
        table = try XCTUnwrap(fixture.catalog.table(named: "Note"))
        try check(index, &random)
        // Deletes in the middle of blocks and runs of whole blocks, and changed texts.
        for (n, key) in keys.enumerated() where n % 7 == 3 || (2_000..<2_600).contains(n) {
            try table.delete(key)
        }
        for (n, key) in keys.enumerated() where n % 11 == 4 && n % 7 != 3 && !(2_000..<2_600).contains(n) {
            try table.set(key, column: body, to: .string("rare common even"))
        }
        try check(index, &random)
        try fixture.catalog.verify()
        try fixture.commit()
        table = try XCTUnwrap(fixture.catalog.table(named: "Note"))
        try check(index, &random)
    }

    func testPartialWalksOverPostingBlocksAgreeWithTheWholePostings() throws {
        try run(postingBlocks: true)
    }

    func testPartialWalksOverTheOlderLayoutAgreeWithTheWholePostings() throws {
        try run(postingBlocks: false)
    }
}
