import Foundation
import StrataTestSupport
import XCTest

@testable import Strata

/// Counting through an embedded object's index (`home.city == %@` alone): the count reads the backlinks of the
/// matching addresses in place and counts those the counted link owns, so addresses with the same city owned
/// elsewhere (a past home, a building's entrance) never count, and it equals the number of results.
final class EmbeddedIndexCountTests: EmbeddedTestCase {
    func testACountThroughASingleLinkCountsOnlyTheObjectsThatLinkOwns() throws {
        try db.write {
            for id in 0..<40 {
                let city = "c\(id % 5)"
                db.add(Resident(
                    id: id, name: "r\(id)", home: id % 3 == 0 ? nil : Address(street: "\(id)", city: city),
                    pastHomes: [Address(street: "p\(id)", city: "c\((id + 1) % 6)"), Address(street: "q", city: city)]))
            }
            let entrances = [Address(street: "e", city: "c5"), Address(street: "f", city: "c1")]
            db.add(Building(name: "hall", entrances: entrances))
        }
        let people = db.objects(Resident.self)
        for city in (0...6).map({ "c\($0)" }) {
            let query = try people.filter("home.city == %@", city)
            XCTAssertTrue(query.explain.hasPrefix("index Resident.home.city"), query.explain)
            let expected = people.filter { $0.home?.city == city }.map(\.id)
            XCTAssertEqual(query.map(\.id), expected, city)
            XCTAssertEqual(query.count, expected.count, city)
            // Through a list, a resident with two matching addresses counts once.
            let past = try people.filter("ANY pastHomes.city == %@", city)
            XCTAssertEqual(past.count, people.filter { $0.pastHomes.contains { $0.city == city } }.count, city)
        }
        try db.write { db.delete(try people.filter("id < 10")) }
        XCTAssertEqual(try people.filter("home.city == 'c1'").count, people.filter { $0.home?.city == "c1" }.count)
    }
}
