import Foundation
import StrataTestSupport
import XCTest

@testable import Strata

/// docs/SCHEMA.md's `Book.borrowers: { linkingObjects: Person.loans }`: the people whose loans point at the book.
final class LinkingThroughListTests: XCTestCase {
    func testInverseThroughAListFollowsTheMiddleLink() throws {
        let directory = try TemporaryDirectory()
        var configuration = Configuration(schema: Circulation.self)
        configuration.fileURL = directory.url.appendingPathComponent("lending.strata")
        let db = try Database(configuration: configuration)
        let dune = Volume(isbn: "dune")
        let emma = Volume(isbn: "emma")
        let ana = Reader(id: 1, lendings: [Lending(volume: dune), Lending(volume: emma), Lending(volume: dune)])
        let bo = Reader(id: 2, lendings: [Lending(volume: dune)])
        try db.write { db.add([ana, bo]) }
        XCTAssertEqual(Set(dune.borrowers.map(\.id)), [1, 2])
        XCTAssertEqual(dune.borrowers.count, 2, "a reader who borrowed twice is one borrower")
        XCTAssertEqual(emma.borrowers.map(\.id), [1])
        try db.write { db.delete(bo) }
        XCTAssertEqual(dune.borrowers.map(\.id), [1])
        XCTAssertThrowsError(try dune.borrowers.filter("id > 0")) { error in
            XCTAssertTrue("\(error)".contains("can be read but not yet queried"), "\(error)")
        }
        try db.write { ana.lendings.removeAll() }
        XCTAssertTrue(dune.borrowers.isEmpty)
    }
}
