import Foundation
import Strata
import StrataStudio
import StrataTestSupport
import XCTest

/// The studio's query box runs the app's query engine over the file's stored schema: for predicates over every
/// kind (collections, embedded objects, maps, any, decimal, objectId, full-text, subqueries, aggregates) it finds
/// the objects `Results` finds, in the same order; a malformed predicate fails with the engine's message and
/// offset; paging and sorting over a larger model give the rows `Results` gives at those positions.
final class StudioQueryEngineTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var configuration: Configuration!
    private var path: String { directory.url.appendingPathComponent("gallery.strata").path }

    /// The predicates checked against `Results`, at least one per kind.
    private static let predicates = [
        "year >= 1950 AND title BEGINSWITH[c] 'w'",
        "title == 'Work 7'",
        "rating == nil OR rating > 3.5",
        "price > 12.5",
        "price == 10.25",
        "serial == oid('507f1f77bcf86cd799439015')",
        "serial > oid('507f1f77bcf86cd799439030')",
        "medium == 'ink'",
        "extra == 'seven' OR extra > 40",
        "note TEXT 'quiet -storm'",
        "ANY tags == 'red'",
        "ALL scores > 2",
        "NONE scores == 5",
        "scores.@count == 2",
        "scores.@sum > 12",
        "scores.@max < 6",
        "'blue' IN labels",
        "labels.@count == 0",
        "sizes['width'] > 30",
        "ANY sizes.@allKeys == 'depth'",
        "sizes.@count == 1",
        "artist.born < 1900",
        "artist == nil",
        "ANY lenders.name == 'Klee'",
        "lenders.@count > 1",
        "lenders.@avg.born < 1850",
        "frame.material == 'oak'",
        "frame.width BETWEEN {20, 40}",
        "ANY panels.material == 'gilt'",
        "SUBQUERY(panels, $p, $p.width >= 15 AND $p.material != 'pine').@count >= 1",
        "SUBQUERY(lenders, $a, $a.born < 1800).@count == 0",
        "NOT (year < 1900 OR tags.@count == 0)",
        "title LIKE 'Work ?'",
        "year IN {1901, 1930, 1999}",
    ]

    override func setUpWithError() throws {
        directory = try TemporaryDirectory(prefix: "strata-studio-query")
        configuration = Configuration(schema: Gallery.self)
        configuration.fileURL = directory.url.appendingPathComponent("gallery.strata")
        configuration.durability = .none
    }

    override func tearDown() {
        directory = nil
    }

    /// Writes `count` artworks and three artists, every kind with varied values.
    private func fill(_ count: Int) throws {
        let db = try Database(configuration: configuration)
        let woods = ["oak", "pine", "gilt", "ash"]
        let notes = ["a quiet harbour", "storm over a quiet sea", "loud city", "quiet", "storm"]
        try db.write {
            let artists = [("Klee", 1879), ("Hokusai", 1760), ("Martin", 1912)].map { Artist(name: $0, born: $1) }
            for artist in artists { db.add(artist) }
            for index in 0..<count {
                let serial = try ObjectId(string: "507f1f77bcf86cd7994390" + String(format: "%02x", index % 256))
                let extra: AnyValue = index % 3 == 0 ? .string(index % 7 == 0 ? "seven" : "other") : .int(index)
                let year: Int = 1890 + (index * 7) % 120
                let rating: Double? = index % 4 == 0 ? nil : Double(index % 9) / 2
                let price: Decimal = Decimal(index % 30) + Decimal(string: "0.25")!
                let medium: Artwork.Medium = index % 3 == 0 ? .oil : (index % 3 == 1 ? .ink : .clay)
                let tags: [String] = index % 5 == 0 ? [] : (index % 2 == 0 ? ["red", "blue"] : ["green"])
                let scores: [Int] = (0..<(index % 4)).map { ($0 * 3 + index) % 8 }
                let labels: [String] = index % 3 == 1 ? ["blue"] : []
                let sizes: [String: Int] = index % 2 == 0 ? ["width": index % 60, "depth": 3] : ["width": index % 45]
                let lenders = Array(artists.prefix(index % 2 == 1 ? index % 3 : 0))
                let frame: Frame? = index % 5 == 4 ? nil : Frame(material: woods[index % 4], width: 10 + index % 40)
                let panels = (0..<(index % 3)).map { Frame(material: woods[($0 + index) % 4], width: 5 + $0 * 10) }
                let artwork = Artwork(
                    id: index, title: "Work \(index)", year: year, rating: rating, price: price, serial: serial,
                    medium: medium, extra: extra, note: notes[index % notes.count], tags: tags,
                    scores: scores, labels: labels, sizes: sizes,
                    artist: index % 4 == 3 ? nil : artists[index % 3], lenders: lenders, frame: frame,
                    panels: panels)
                db.add(artwork)
            }
        }
    }

    /// The ids `Results` finds for `predicate` (sorted by `sort` when given), in its order.
    private func expected(_ predicate: String?, sort: String? = nil, ascending: Bool = true) throws -> [Int] {
        let db = try Database(configuration: configuration)
        var results = db.objects(Artwork.self)
        if let predicate { results = try results.filter(predicate) }
        if let sort { results = results.sorted(byKeyPath: sort, ascending: ascending) }
        return try results.fetch().map(\.id)
    }

    /// The error `Results.filter` throws for `predicate`: its offset and message.
    private func engineError(_ predicate: String) throws -> (offset: Int, message: String) {
        let db = try Database(configuration: configuration)
        do {
            _ = try db.objects(Artwork.self).filter(predicate)
        } catch StrataError.invalidPredicate(_, let offset, let message) {
            return (offset, message)
        }
        throw StudioError(500, "Results accepted '\(predicate)'")
    }

    /// The ids of a page's rows.
    private func ids(_ page: [String: Any]) throws -> [Int] {
        let columns = (page["columns"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        let index = try XCTUnwrap(columns.firstIndex(of: "id"))
        return (page["rows"] as? [[String: Any]] ?? []).compactMap { ($0["values"] as? [Any])?[index] as? Int }
    }

    private func page(_ studio: LiveStudio, _ query: [String: String]) async throws -> [String: Any] {
        let answer = try await studio.get("/api/objects", ["model": "Artwork"].merging(query) { $1 })
        XCTAssertEqual(answer.status, 200, answer.text)
        return try answer.json()
    }

    func testEveryKindOfPredicateFindsWhatResultsFinds() async throws {
        try fill(90)
        var expectations: [(String, [Int])] = []
        for predicate in Self.predicates { expectations.append((predicate, try expected(predicate))) }
        for (predicate, ids) in expectations {
            XCTAssertTrue(!ids.isEmpty && ids.count < 90, "\(predicate) selects some objects, not all: \(ids.count)")
        }
        try await LiveStudio.with(StudioConfiguration(path: path, readOnly: true)) { studio in
            for (predicate, ids) in expectations {
                let found = try await page(studio, ["filter": predicate, "limit": "500", "count": "1"])
                XCTAssertEqual(try self.ids(found), ids, predicate)
                XCTAssertEqual(found["total"] as? Int, ids.count, predicate)
                XCTAssertFalse((found["explain"] as? String ?? "").isEmpty, predicate)
            }
            let indexed = try await page(studio, ["filter": "title == 'Work 7'"])
            XCTAssertTrue((indexed["explain"] as? String ?? "").hasPrefix("index Artwork.title"), "\(indexed)")
            let text = try await page(studio, ["filter": "note TEXT 'harbour'"])
            XCTAssertTrue((text["explain"] as? String ?? "").contains("full-text index Artwork.note"), "\(text)")
        }
    }

    func testMalformedPredicatesFailWithTheEnginesMessageAndOffset() async throws {
        try fill(3)
        let bad = ["year >>= 3", "title == 'open", "shoeSize == 3", "year == 'x'", "ANY year > 3", "tags.@foo > 1",
                   "SUBQUERY(panels, $p, $p.depth > 1).@count > 0", "title == %@"]
        var errors: [(String, Int, String)] = []
        for predicate in bad.dropLast() {
            let (offset, message) = try engineError(predicate)
            errors.append((predicate, offset, message))
        }
        try await LiveStudio.with(StudioConfiguration(path: path, readOnly: true)) { studio in
            for (predicate, offset, message) in errors {
                let answer = try await studio.get("/api/objects", ["model": "Artwork", "filter": predicate])
                XCTAssertEqual(answer.status, 400, predicate)
                let error = try answer.json()
                XCTAssertEqual(error["predicate"] as? String, predicate)
                XCTAssertEqual(error["offset"] as? Int, offset, predicate)
                XCTAssertTrue((error["error"] as? String ?? "").contains(message), "\(predicate): \(error)")
            }
            let placeholder = try await studio.get("/api/objects", ["model": "Artwork", "filter": "title == %@"])
            XCTAssertEqual(placeholder.status, 400)
            XCTAssertEqual(try placeholder.json()["offset"] as? Int, 9, "the placeholder's position")
            let badSort = try await studio.get("/api/objects", ["model": "Artwork", "sort": "tags"])
            XCTAssertEqual(badSort.status, 400)
            XCTAssertTrue(badSort.text.contains("cannot sort by 'tags' of Artwork"), badSort.text)
        }
    }

    func testPagingAndSortingALargerModelGiveTheRowsResultsGives() async throws {
        try fill(3000)
        let byYear = try expected(nil, sort: "year", ascending: false)
        let filteredByTitle = try expected("year > 1950", sort: "title")
        let filtered = try expected("rating > 2")
        let byArtist = try expected("frame != nil", sort: "artist.born")
        try await LiveStudio.with(StudioConfiguration(path: path, readOnly: true)) { studio in
            let middle = try await page(studio, ["sort": "year", "desc": "1", "offset": "1500", "limit": "40"])
            XCTAssertEqual(try self.ids(middle), Array(byYear[1500..<1540]))
            XCTAssertEqual(middle["total"] as? Int, 3000)
            XCTAssertEqual(middle["more"] as? Bool, true)
            let last = try await page(
                studio, ["filter": "year > 1950", "sort": "title", "offset": String(filteredByTitle.count - 7)])
            XCTAssertEqual(try self.ids(last), Array(filteredByTitle.suffix(7)))
            XCTAssertEqual(last["more"] as? Bool, false)
            let second = try await page(studio, ["filter": "rating > 2", "offset": "50", "limit": "50"])
            XCTAssertEqual(try self.ids(second), Array(filtered[50..<100]))
            XCTAssertTrue(second["total"] is NSNull, "an unfinished filtered page does not count every match")
            let newest = try await page(studio, ["filter": "rating > 2", "desc": "1", "limit": "30"])
            XCTAssertEqual(try self.ids(newest), Array(filtered.reversed().prefix(30)))
            XCTAssertEqual(newest["total"] as? Int, filtered.count)
            let throughLink = try await page(studio, ["filter": "frame != nil", "sort": "artist.born", "limit": "100"])
            XCTAssertEqual(try self.ids(throughLink), Array(byArtist.prefix(100)))
            let export = try await studio.get(
                "/api/export", ["model": "Artwork", "filter": "rating > 2", "desc": "1", "format": "csv"])
            let lines = export.text.split(whereSeparator: \.isNewline)
            XCTAssertEqual(lines.count, filtered.count + 1, "a header and every match")
        }
    }
}
