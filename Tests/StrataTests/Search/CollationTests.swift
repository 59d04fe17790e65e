import Foundation
import StrataTestSupport
import XCTest

@testable import Strata

/// Sorting with a collation: byte order stays the default; `.caseInsensitive` folds case; `.unicode` orders a
/// table of strings in several languages as the Unicode Collation Algorithm's default table does.
final class CollationTests: XCTestCase {
    /// In DUCET order: digits before letters, then base letters, then diacritics, then lowercase before uppercase;
    /// Latin, then Greek, then Cyrillic.
    private static let unicodeOrder = [
        "", "1st", "a", "A", "adam", "cote", "coté", "côte", "côté", "Eli", "Émile", "Emma", "resume", "Resume",
        "résumé", "Zoe", "αλφα", "Ελλάδα", "ёж", "Москва",
    ]

    func testUnicodeCollationOrdersTheTable() {
        var random = SeededGenerator(seed: 11)
        for _ in 0..<20 {
            let shuffled = Self.unicodeOrder.shuffled(using: &random)
            let sorted = shuffled.sorted { SortCollation.unicode.sortKey($0) < SortCollation.unicode.sortKey($1) }
            XCTAssertEqual(sorted, Self.unicodeOrder)
        }
    }

    func testResultsSortWithACollationAndKeepByteOrderByDefault() throws {
        let directory = try TemporaryDirectory()
        let configuration = Configuration(schema: Search.self)
            .scratch(at: directory.url.appendingPathComponent("collation.strata"))
        let db = try Database(configuration: configuration)
        let titles = ["Emma", "Zoe", "Émile", "adam", "Eli", "beth"]
        try db.write {
            for (id, title) in titles.enumerated() {
                let document = Document()
                document.id = id
                document.title = title
                db.add(document)
            }
        }
        let objects = db.objects(Document.self)
        XCTAssertEqual(objects.sorted(byKeyPath: "title").map(\.title), ["Eli", "Emma", "Zoe", "adam", "beth", "Émile"])
        XCTAssertEqual(
            objects.sorted(by: [SortDescriptor(keyPath: "title", collation: .caseInsensitive)]).map(\.title),
            ["adam", "beth", "Eli", "Emma", "Zoe", "Émile"])
        XCTAssertEqual(
            objects.sorted(by: [SortDescriptor(keyPath: "title", collation: .unicode)]).map(\.title),
            ["adam", "beth", "Eli", "Émile", "Emma", "Zoe"])
        XCTAssertEqual(
            objects.sorted(by: [SortDescriptor(keyPath: "title", ascending: false, collation: .unicode)]).map(\.title),
            ["Zoe", "Emma", "Émile", "Eli", "beth", "adam"])
    }
}
