import Foundation
import Observation
import StrataTestSupport
import XCTest

@testable import Strata

/// The README's five-minute tour, step 3, as written there: if this test needs a change, so does the README.
final class ReadmeTourTests: XCTestCase {
    func testTheTourRunsAsTheReadmeSays() async throws {
        let directory = try TemporaryDirectory()
        var config = Configuration(schema: Library.self)
        config.fileURL = directory.url.appendingPathComponent("library.strata")
        let db = try Database(configuration: config)

        try db.write {
            let leGuin = Author(name: "Ursula K. Le Guin")
            db.add(Book(isbn: "978-0-547-77374-0", title: "A Wizard of Earthsea", writer: leGuin, tags: ["fantasy"]))
            db.create(Book.self, value: ["isbn": "978-0-06-051275-4", "title": "The Dispossessed", "writer": leGuin])
        }

        let book = db.object(ofType: Book.self, forPrimaryKey: "978-0-547-77374-0")!
        XCTAssertEqual(book.title, "A Wizard of Earthsea")
        XCTAssertEqual(book.writer?.books.count ?? 0, 2)
        try db.write { book.tags.append("classic") }
        XCTAssertEqual(db.objects(Author.self).map(\.name), ["Ursula K. Le Guin"])

        let classics = try db.objects(Book.self)
            .filter("ANY tags == %@ AND title BEGINSWITH[c] %@", "classic", "a")
            .sorted(byKeyPath: "title")
        let short = try db.objects(Book.self).where { $0.title.starts(with: "The") }
        XCTAssertEqual(classics.count, 1)
        XCTAssertEqual(short.first?.title, "The Dispossessed")
        XCTAssertFalse(classics.explain.isEmpty)

        let changed = expectation(description: "a commit changed the classics")
        try await db.asyncWrite { book.tags.append("favourite") }
        let copy: Book.Snapshot = book.snapshot()
        XCTAssertEqual(copy.tags, ["fantasy", "classic", "favourite"])
        withObservationTracking { _ = classics.count } onChange: { changed.fulfill() }
        try await db.asyncWrite {
            db.add(Book(isbn: "978-0-441-00731-8", title: "Always Coming Home", writer: nil, tags: ["classic"]))
        }
        await fulfillment(of: [changed], timeout: 10)
    }
}
