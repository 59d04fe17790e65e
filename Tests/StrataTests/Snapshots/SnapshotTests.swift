import Foundation
import StrataTestSupport
import XCTest

@testable import Strata

/// Generated snapshots: every kind of value read from the store and from an unmanaged object, their `Codable`
/// round trip, `results.snapshots()`, crossing tasks, and adding or upserting a model from a snapshot.
final class SnapshotTests: SpecimenTestCase {
    func testASnapshotHoldsEveryKindAndLinksByKey() throws {
        let db = try openDatabase()
        let specimen = try addSpecimen(to: db)
        let snapshot = specimen.snapshot()
        XCTAssertEqual(snapshot.id, 7)
        XCTAssertEqual(snapshot.count8, -8)
        XCTAssertEqual(snapshot.big, .max)
        XCTAssertEqual(snapshot.ratio, .infinity)
        XCTAssertEqual(snapshot.kind, .rare)
        XCTAssertEqual(snapshot.price, Decimal(string: "12345.6789"))
        XCTAssertEqual(snapshot.seen, ValueConversion.date(ValueConversion.timestamp(seen)))
        XCTAssertEqual(snapshot.words, ["a", ""])
        XCTAssertEqual(Set(snapshot.tags), ["a", "b"])
        XCTAssertEqual(snapshot.notes, ["n": nil, "m": "memo"])
        XCTAssertEqual(snapshot.mixed, .object(ObjectReference(model: "Steward", key: .string("ana"))))
        XCTAssertEqual(snapshot.anything[3], .object(ObjectReference(model: "Pebble", key: .int(try pebbleKey(db, "red").rawValue))))
        XCTAssertEqual(snapshot.extras["k"], .object(ObjectReference(model: "Crate", key: .string(crateId.uuidString))))
        XCTAssertEqual(snapshot.steward, "ana")
        XCTAssertEqual(snapshot.crate, crateId)
        XCTAssertEqual(snapshot.vial, vialId)
        XCTAssertEqual(snapshot.pebble, try pebbleKey(db, "grey, \"dark\"\nstone"))
        XCTAssertEqual(snapshot.stewards, ["bo", "ana"])
        XCTAssertEqual(snapshot.crates, [crateId])
        XCTAssertEqual(snapshot.vials, ["v": vialId, "none": nil])
        XCTAssertEqual(snapshot.label?.text, "top")
        XCTAssertEqual(snapshot.label?.mark, Mark.Snapshot(glyph: "★", weight: Decimal(string: "0.5")!))
        XCTAssertEqual(snapshot.labels.map(\.text), ["one", "two"])
        XCTAssertEqual(db.objects(Specimen.self).snapshots(), [snapshot])
        XCTAssertEqual(Set([snapshot, snapshot]).count, 1, "Hashable")
    }

    func testAnUnmanagedObjectsSnapshotReadsItsOwnValues() throws {
        let specimen = Specimen(name: "u", steward: Steward(name: "cy"), label: Tagline(text: "t"))
        let snapshot = specimen.snapshot()
        XCTAssertEqual(snapshot.name, "u")
        XCTAssertEqual(snapshot.steward, "cy")
        XCTAssertEqual(snapshot.label, Tagline.Snapshot(text: "t"))
        XCTAssertEqual(snapshot.id, 0, "an auto key not assigned yet")
    }

    func testSnapshotsRoundTripThroughCodable() throws {
        let db = try openDatabase()
        try addSpecimen(to: db)
        let snapshots = db.objects(Specimen.self).snapshots()
        let data = try JSONEncoder().encode(snapshots)
        XCTAssertEqual(try JSONDecoder().decode([Specimen.Snapshot].self, from: data), snapshots)
        let text = String(decoding: data, as: UTF8.self)
        XCTAssertTrue(text.contains("\"price\":\"12345.6789\""), text)
        XCTAssertTrue(text.contains("\"ratio\":\"Infinity\""), text)
        XCTAssertTrue(text.contains("\"seen\":\"2024-05-01T09:30:00.123456"), text)
        XCTAssertTrue(text.contains("\"blob\":\"AAEC\\/v8=\"") || text.contains("\"blob\":\"AAEC/v8=\""), text)
        XCTAssertTrue(text.contains("\"mixed\":{\"link\":{\"key\":\"ana\",\"model\":\"Steward\"}}")
            || text.contains("\"mixed\":{\"link\":{\"model\":\"Steward\",\"key\":\"ana\"}}"), text)
    }

    func testSnapshotsCrossTasks() async throws {
        let db = try openDatabase()
        try addSpecimen(to: db)
        let snapshots = db.objects(Specimen.self).snapshots()
        let names = await Task.detached { snapshots.map(\.name) }.value
        XCTAssertEqual(names, ["Ünïcode, \"quoted\"\nline"])
    }

    func testAddingASnapshotUpsertsByPrimaryKeyAndResolvesLinks() throws {
        let db = try openDatabase()
        try addSpecimen(to: db)
        var changed = try XCTUnwrap(db.objects(Specimen.self).first).snapshot()
        changed.name = "renamed"
        changed.steward = "bo"
        changed.label = Tagline.Snapshot(text: "new label")
        changed.anything = [.object(ObjectReference(model: "Steward", key: .string("bo")))]
        try db.write { db.add(Specimen(snapshot: changed), update: .modified) }
        XCTAssertEqual(db.objects(Specimen.self).count, 1)
        let stored = try XCTUnwrap(db.objects(Specimen.self).first)
        XCTAssertEqual(stored.name, "renamed")
        XCTAssertEqual(stored.steward?.name, "bo")
        XCTAssertEqual(stored.label?.text, "new label")
        XCTAssertEqual(stored.anything.first?.object.flatMap { $0 as? Steward }?.name, "bo")
        XCTAssertEqual(stored.snapshot(), changed)
        XCTAssertEqual(db.objects(Steward.self).count, 2, "references found the stored stewards, added none")

        var fresh = changed
        fresh.id = 8
        try db.write { db.add(Specimen(snapshot: fresh)) }
        XCTAssertEqual(db.objects(Specimen.self).count, 2)
        XCTAssertEqual(try db.objects(Specimen.self).filter("id == 8").first?.snapshot(), fresh)
    }

    func testASnapshotLinkingToNoStoredObjectFailsTheWrite() throws {
        let db = try openDatabase()
        try addSpecimen(to: db)
        var snapshot = try XCTUnwrap(db.objects(Specimen.self).first).snapshot()
        snapshot.id = 9
        snapshot.steward = "nobody"
        XCTAssertThrowsError(try db.write { db.add(Specimen(snapshot: snapshot)) }) { error in
            XCTAssertTrue("\(error)".contains("Steward \"nobody\""), "\(error)")
        }
        XCTAssertEqual(db.objects(Specimen.self).count, 1)
    }
}
