import Foundation
import StrataSyncWire
import StrataTestSupport
import XCTest

@testable import Strata

/// Embedded objects in the outbox and from the server (docs/SYNC.md, "Embedded objects"): they travel with their
/// owner as the nested value of the owner's property, so an edit inside one records a `set` of the owner's
/// property with the whole value, and a downloaded `set` replaces the owner's embedded objects. The session is
/// created paused, so nothing is sent anywhere.
final class SyncEmbeddedOutboxTests: XCTestCase {
    private var directory: TemporaryDirectory!

    override func setUpWithError() throws { directory = try TemporaryDirectory() }
    override func tearDown() { directory = nil }

    private func open(_ name: String = "a") throws -> Database { try PausedSyncDatabase.open(name, in: directory) }

    private func remote(
        _ seq: Int64, _ op: SyncOperation, _ object: SyncValue, model: String = "SyncPlace", wall: Int64,
        property: String? = nil, value: SyncValue? = nil
    ) -> DownloadResponse {
        let change = PausedSyncDatabase.remote(seq, op, object, model: model, wall: wall, property: property, value: value)
        return DownloadResponse(changes: [change], last: seq, more: false)
    }

    private func address(_ street: String, _ number: Int, geo: SyncValue = .null, lines: [String] = []) -> SyncValue {
        .object([
            "street": .string(street), "number": .integer(Int64(number)),
            "lines": .array(lines.map(SyncValue.string)), "geo": geo, "topic": .null,
        ])
    }

    /// Values compare as the server and every client compare them: by canonical text (a double with no fraction
    /// reads back from the outbox as an integer).
    private func assertSame(
        _ value: SyncValue?, _ expected: SyncValue, file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertEqual((value ?? .null).canonicalText, expected.canonicalText, file: file, line: line)
    }

    func testAddingAnOwnerRecordsItsEmbeddedObjectsAsNestedValues() throws {
        let db = try open()
        try db.write {
            let place = SyncPlace(id: "p1", name: "Home")
            place.address = SyncAddress(street: "Main", number: 1, lines: ["Flat 2"], geo: SyncGeo(lat: 1.5, lon: -2))
            place.stops.append(SyncAddress(street: "First", number: 10))
            place.stops.append(SyncAddress(street: "Second", number: 20))
            place.spots["work"] = SyncAddress(street: "Office", number: 3)
            db.add(place)
        }
        let changes = try db.pendingSyncChanges()
        XCTAssertEqual(changes.map(\.op), [.create, .set, .set, .set])
        XCTAssertEqual(changes.map(\.model), Array(repeating: "SyncPlace", count: 4), "nothing names an embedded model")
        guard case .object(let values)? = changes.first?.value else { return XCTFail("create carries no values") }
        XCTAssertEqual(values["name"], .string("Home"))
        XCTAssertNil(values["address"], "embedded objects follow the create as sets")
        let byProperty = Dictionary(changes.dropFirst().map { ($0.property ?? "", $0.value ?? .null) }) { a, _ in a }
        assertSame(
            byProperty["address"],
            address("Main", 1, geo: .object(["lat": .number(1.5), "lon": .number(-2)]), lines: ["Flat 2"]))
        assertSame(byProperty["stops"], .array([address("First", 10), address("Second", 20)]))
        assertSame(byProperty["spots"], .object(["work": address("Office", 3)]))
    }

    func testAnEditInsideAnEmbeddedObjectRecordsItsOwnersProperty() throws {
        let db = try open()
        try db.write {
            db.add(
                SyncPlace(
                    id: "p1", name: "Home",
                    address: SyncAddress(street: "Main", number: 1, geo: SyncGeo(lat: 1, lon: 2)),
                    stops: [SyncAddress(street: "First", number: 10)]))
        }
        let before = try db.pendingSyncChanges().count
        let place = try XCTUnwrap(db.object(ofType: SyncPlace.self, forPrimaryKey: "p1"))
        // A field two levels down: the owner's `address` is recorded, whole.
        try db.write { place.address?.geo?.lat = 5 }
        var recorded = try db.pendingSyncChanges().dropFirst(before)
        XCTAssertEqual(recorded.map(\.op), [.set])
        XCTAssertEqual(recorded.first?.model, "SyncPlace")
        XCTAssertEqual(recorded.first?.object, .string("p1"))
        XCTAssertEqual(recorded.first?.property, "address")
        assertSame(recorded.first?.value, address("Main", 1, geo: .object(["lat": .number(5), "lon": .number(2)])))

        // An element of a list of embedded objects, and an element added: one `set` of the whole list each write.
        try db.write {
            place.stops.first?.number = 11
            place.stops.append(SyncAddress(street: "Next", number: 12))
        }
        recorded = try db.pendingSyncChanges().dropFirst(before + 1)
        XCTAssertEqual(recorded.map(\.op), [.set])
        XCTAssertEqual(recorded.first?.property, "stops")
        assertSame(recorded.first?.value, .array([address("First", 11), address("Next", 12)]))

        // Removing the embedded object records null.
        try db.write { place.address = nil }
        recorded = try db.pendingSyncChanges().dropFirst(before + 2)
        XCTAssertEqual(recorded.map(\.property), ["address"])
        assertSame(recorded.first?.value, .null)
    }

    func testADownloadedValueReplacesTheEmbeddedObjectsAndIsNotEchoed() throws {
        let db = try open()
        try db.applyDownloadedPage(
            remote(1, .create, .string("p1"), wall: 1000, value: .object(["name": .string("Remote")])))
        try db.applyDownloadedPage(
            remote(
                2, .set, .string("p1"), wall: 1001, property: "address",
                value: address("Main", 1, geo: .object(["lat": .number(1.5), "lon": .integer(2)]), lines: ["a", "b"])))
        try db.applyDownloadedPage(
            remote(
                3, .set, .string("p1"), wall: 1002, property: "stops",
                value: .array([address("First", 10), address("Second", 20)])))
        try db.applyDownloadedPage(
            remote(
                4, .set, .string("p1"), wall: 1003, property: "spots", value: .object(["work": address("Office", 3)])))
        XCTAssertEqual(try db.pendingSyncChanges(), [], "applied changes are not echoed")
        let place = try XCTUnwrap(db.object(ofType: SyncPlace.self, forPrimaryKey: "p1"))
        XCTAssertEqual(place.address?.street, "Main")
        XCTAssertEqual(place.address?.geo?.lat, 1.5)
        XCTAssertEqual(place.address.map { Array($0.lines) }, ["a", "b"])
        XCTAssertEqual(place.stops.map(\.street), ["First", "Second"])
        XCTAssertEqual(place.spots["work"]??.number, 3)

        // A later value replaces the whole list; an older one loses (last writer wins on the owner's property).
        try db.applyDownloadedPage(
            remote(5, .set, .string("p1"), wall: 1005, property: "stops", value: .array([address("Only", 1)])))
        try db.applyDownloadedPage(
            remote(6, .set, .string("p1"), wall: 1004, property: "stops", value: .array([address("Stale", 9)])))
        XCTAssertEqual(place.stops.map(\.street), ["Only"])
        try db.applyDownloadedPage(remote(7, .set, .string("p1"), wall: 1006, property: "address", value: .null))
        XCTAssertNil(place.address)
        XCTAssertEqual(try db.pendingSyncChanges(), [])

        // A local edit after it records the owner's property again.
        try db.write { place.stops.first?.street = "Local" }
        XCTAssertEqual(try db.pendingSyncChanges().map(\.property), ["stops"])
        assertSame(try db.pendingSyncChanges().first?.value, .array([address("Local", 1)]))
    }
}
