import Dispatch
import Foundation
import Observation
import StrataTestSupport
import XCTest

@testable import Strata

/// Results read inside `withObservationTracking` by a database that is confined to a Swift task are watched from the
/// shared queue of the `changes` streams, whose first delivery is a turn of that queue away. The watch starts
/// from what the tracked read saw, so a commit landing before that first delivery still fires `onChange`.
final class ResultsTrackingStartTests: XCTestCase {
    func testACommitBeforeTheFirstDeliveryFiresTheTracking() async throws {
        let directory = try TemporaryDirectory()
        var config = Configuration(schema: Library.self)
        config.fileURL = directory.url.appendingPathComponent("library.strata")
        let db = try Database(configuration: config)
        try db.write {
            db.add(Book(isbn: "978-0-547-77374-0", title: "A Wizard of Earthsea", writer: nil, tags: ["classic"]))
        }
        let classics = try db.objects(Book.self).filter("ANY tags == %@", "classic")
        let changed = expectation(description: "the commit changed the classics")
        // The queue is held until the commit is done: its first delivery comes after it.
        let held = DispatchSemaphore(value: 0)
        ChangeStream.queue.async { _ = held.wait(timeout: .now() + 10) }
        let count = withObservationTracking { classics.count } onChange: { changed.fulfill() }
        XCTAssertEqual(count, 1)
        try db.write {
            db.add(Book(isbn: "978-0-441-00731-8", title: "Always Coming Home", writer: nil, tags: ["classic"]))
        }
        held.signal()
        await fulfillment(of: [changed], timeout: 10)
        XCTAssertEqual(classics.count, 2)
    }
}
