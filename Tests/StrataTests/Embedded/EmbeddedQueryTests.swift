import Foundation
import StrataTestSupport
import XCTest

@testable import Strata

/// Queries over a parent's embedded objects: key paths through links and lists, sorting by an embedded key path,
/// typed `where {}` members through them.
final class EmbeddedQueryTests: EmbeddedTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        try db.write {
            db.add(Resident(id: 1, name: "Ada", home: Address(street: "1", city: "Paris", geo: Geo(lat: 48, lon: 2)),
                pastHomes: [Address(street: "2", city: "Lyon")]))
            db.add(Resident(id: 2, name: "Bo", home: Address(street: "3", city: "Berlin"),
                pastHomes: [Address(street: "4", city: "Nice"), Address(street: "5", city: "Lyon")]))
            db.add(Resident(id: 3, name: "Cy", pastHomes: [Address(street: "6", city: "Oslo")]))
            db.add(Resident(id: 4, name: "Di", home: Address(street: "7", city: "Athens", geo: Geo(lat: 37, lon: 23))))
        }
    }

    private func ids(_ results: Results<Resident>) -> [Int] { results.map(\.id) }

    func testKeyPathsThroughEmbeddedLinksAndLists() throws {
        let people = db.objects(Resident.self)
        XCTAssertEqual(ids(try people.filter("home.city == %@", "Paris")), [1])
        XCTAssertEqual(ids(try people.filter("ANY pastHomes.city == %@", "Lyon")), [1, 2])
        XCTAssertEqual(ids(try people.filter("home.geo.lat > 40")), [1])
        XCTAssertEqual(ids(try people.filter("home == nil")), [3])
        XCTAssertEqual(ids(try people.filter("pastHomes.@count >= 1 AND home.city BEGINSWITH 'B'")), [2])
        XCTAssertEqual(ids(try people.filter("SUBQUERY(pastHomes, $a, $a.city == 'Nice').@count == 1")), [2])
        XCTAssertEqual(ids(try people.filter("NONE pastHomes.city == 'Lyon'")), [3, 4])
    }

    func testThePlannerUsesAnIndexOfAnEmbeddedProperty() throws {
        let people = db.objects(Resident.self)
        let inParis = try people.filter("home.city == 'Paris' AND name != 'x'")
        XCTAssertTrue(inParis.explain.hasPrefix("index Resident.home.city == \"Paris\""), inParis.explain)
        XCTAssertEqual(ids(inParis), [1])
        let lyon = try people.filter("ANY pastHomes.city IN {'Lyon', 'Oslo'}")
        XCTAssertTrue(lyon.explain.hasPrefix("index "), lyon.explain)
        XCTAssertEqual(ids(lyon), [1, 2, 3], "a resident with two matching past homes is one result")
        let none = try people.filter("NONE pastHomes.city == 'Lyon'")
        XCTAssertFalse(none.explain.hasPrefix("index "), "NONE cannot use an index of matching elements")
        XCTAssertEqual(ids(none), [3, 4])
    }

    func testSortingByAnEmbeddedKeyPath() throws {
        let sorted = db.objects(Resident.self).sorted(byKeyPath: "home.city")
        XCTAssertEqual(ids(sorted), [4, 2, 1, 3], "Athens, Berlin, Paris, then no home (a nil link sorts last)")
        let descending = db.objects(Resident.self).sorted(byKeyPath: "home.geo.lat", ascending: false)
        XCTAssertEqual(Array(ids(descending).prefix(2)), [2, 3], "no geo and no home (nil links) first when descending")
        XCTAssertEqual(Array(ids(descending).suffix(2)), [1, 4])
    }

    func testTypedQueriesReachThroughEmbeddedObjects() throws {
        let people = db.objects(Resident.self)
        XCTAssertEqual(ids(try people.where { $0.home.city == "Berlin" }), [2])
        XCTAssertEqual(ids(try people.where { $0.pastHomes.any { $0.city == "Oslo" } }), [3])
        XCTAssertEqual(ids(try people.where { $0.home.geo.lon > 20 }), [4])
    }

    func testQueriesFollowChangesOfEmbeddedObjects() throws {
        let inParis = try db.objects(Resident.self).filter("home.city == 'Paris'")
        XCTAssertEqual(ids(inParis), [1])
        let bo = try XCTUnwrap(db.object(ofType: Resident.self, forPrimaryKey: 2))
        try db.write { bo.home?.city = "Paris" }
        XCTAssertEqual(ids(inParis), [1, 2])
        try db.write { bo.home = Address(street: "x", city: "Bonn") }
        XCTAssertEqual(ids(inParis), [1])
    }
}
