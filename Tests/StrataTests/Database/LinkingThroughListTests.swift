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
        try db.write { ana.lendings.removeAll() }
        XCTAssertTrue(dune.borrowers.isEmpty)
    }

    func testInverseThroughAListIsFilteredAndSortedLikeADirectInverse() throws {
        let directory = try TemporaryDirectory()
        var configuration = Configuration(schema: Circulation.self)
        configuration.fileURL = directory.url.appendingPathComponent("lending.strata")
        let db = try Database(configuration: configuration)
        let dune = Volume(isbn: "dune")
        let emma = Volume(isbn: "emma")
        let readers = [
            Reader(id: 3, lendings: [Lending(volume: dune)]),
            Reader(id: 1, lendings: [Lending(volume: emma), Lending(volume: dune), Lending(volume: dune)]),
            Reader(id: 4, lendings: [Lending(volume: emma)]),
            Reader(id: 2, lendings: [Lending(volume: dune)]),
        ]
        try db.write { db.add(readers) }
        XCTAssertEqual(try dune.borrowers.filter("id > 1").map(\.id), dune.borrowers.map(\.id).filter { $0 > 1 })
        XCTAssertEqual(Set(try dune.borrowers.filter("id > 1").map(\.id)), [2, 3])
        XCTAssertEqual(try dune.borrowers.where { $0.id < 3 }.map(\.id).sorted(), [1, 2])
        XCTAssertEqual(dune.borrowers.sorted(byKeyPath: "id").map(\.id), [1, 2, 3])
        XCTAssertEqual(dune.borrowers.sorted(byKeyPath: "id", ascending: false).map(\.id), [3, 2, 1])
        XCTAssertEqual(try dune.borrowers.fetchCount(), 3, "a reader who borrowed twice is one borrower")
        XCTAssertEqual(dune.borrowers.max(ofProperty: "id") as Int?, 3)
        XCTAssertEqual(try emma.borrowers.filter("ANY lendings.volume.isbn == 'dune'").map(\.id), [1])
        let live = try dune.borrowers.filter("id >= 2")
        try db.write { readers[3].lendings.first?.volume = emma }
        XCTAssertEqual(live.map(\.id), [3], "the results follow a change of the middle link")
        XCTAssertEqual(emma.borrowers.sorted(byKeyPath: "id").map(\.id), [1, 2, 4])
        try db.write { db.delete(readers[0]) }
        XCTAssertEqual(live.map(\.id), [])
    }
}
