import Foundation
import Strata
import XCTest

@testable import StrataSyncServer

/// Embedded objects (docs/SYNC.md, "Embedded objects"): three clients make seeded random changes to places and
/// their embedded addresses (a link, a list and a map of them, with an embedded `geo` inside): replace, clear,
/// edit a field of one in place (two levels down too), add and remove list elements and map entries, delete
/// places, while going offline and online at random. Once all are online and synced, every client holds the same
/// places, and PostgreSQL holds each owner's embedded objects as the same nested value in a `jsonb` column, which
/// SQL can query. `STRATA_LONG_TESTS=1` runs 300 rounds instead of 30.
final class SyncEmbeddedConvergenceTests: XCTestCase {
    func testRandomEmbeddedChangesConverge() async throws {
        let long = ProcessInfo.processInfo.environment["STRATA_LONG_TESTS"] == "1"
        let rounds = long ? 300 : 30
        let seed = UInt64(ProcessInfo.processInfo.environment["STRATA_SYNC_SEED"] ?? "") ?? 20_261_127
        try await SyncHarness.run { harness in
            let clients = try await harness.randomRounds(
                rounds, seed: seed, count: { random in 1 + random.next(3) },
                change: { random, db, round in RandomEmbeddedChange.make(&random, in: db, round: round) })
            let expected = clients[0].run(PlaceJSON.places)
            XCTAssertFalse(expected.isEmpty, "the places survived (seed \(seed))")
            XCTAssertTrue(
                expected.contains { $0[2] != "null" || $0[3] != "[]" },
                "some places hold embedded objects (seed \(seed))")
            for client in clients.dropFirst() {
                XCTAssertEqual(client.run(PlaceJSON.places), expected, "client \(client.name) differs (seed \(seed))")
            }
            // PostgreSQL: one row per place, the embedded objects as the same nested values, in jsonb.
            let rows = try await harness.rows(
                """
                SELECT id, name, address::text, stops::text, spots::text, jsonb_typeof(address)
                FROM S."SyncPlace" ORDER BY id COLLATE "C"
                """)
            let stored = rows.map { row -> [String] in
                [
                    row[0] ?? "", row[1] ?? "", PlaceJSON.canonical(row[2], empty: .null),
                    PlaceJSON.canonical(row[3], empty: .array([])), PlaceJSON.canonical(row[4], empty: .object([:])),
                ]
            }
            XCTAssertEqual(stored, expected, "the server's table holds what the clients hold (seed \(seed))")
            for row in rows where row[2] != nil {
                XCTAssertEqual(row[5], "object", "address is a jsonb object")
            }
            // A backend queries inside the nested values with SQL.
            let streets = try await harness.rows(
                """
                SELECT id, address->>'street', coalesce(jsonb_array_length(stops), 0)::text FROM S."SyncPlace"
                WHERE address IS NOT NULL ORDER BY id COLLATE "C"
                """)
            let localStreets = clients[0].run { db in
                db.objects(SyncPlace.self).sorted(byKeyPath: "id").compactMap { place -> [String?]? in
                    guard let address = place.address else { return nil }
                    return [place.id, address.street, String(place.stops.count)]
                }
            }
            XCTAssertEqual(streets, localStreets)
        }
    }
}

/// The places of a database in a comparable form: id, name, and each embedded property's canonical JSON, as the
/// client sends it (docs/SYNC.md, "Embedded objects").
enum PlaceJSON {
    static func places(_ db: Database) -> [[String]] {
        db.refresh()
        return db.objects(SyncPlace.self).sorted { Array($0.id.utf8).lexicographicallyPrecedes(Array($1.id.utf8)) }
            .map { place in
                [
                    place.id, place.name, address(place.address).canonicalText,
                    SyncValue.array(place.stops.map { address($0) }).canonicalText,
                    SyncValue.object(
                        Dictionary(uniqueKeysWithValues: place.spots.keys.map { ($0, address(place.spots[$0] ?? nil)) })
                    ).canonicalText,
                ]
            }
    }

    static func address(_ address: SyncAddress?) -> SyncValue {
        guard let address else { return .null }
        return .object([
            "street": .string(address.street), "number": .integer(Int64(address.number)),
            "lines": .array(address.lines.map { .string($0) }),
            "geo": address.geo.map { .object(["lat": .number($0.lat), "lon": .number($0.lon)]) } ?? .null,
            "topic": address.topic.map { .integer(Int64($0.code)) } ?? .null,
        ])
    }

    /// A jsonb column's text as canonical JSON (`empty` for SQL null: a property never written).
    static func canonical(_ text: String?, empty: SyncValue) -> String {
        guard let text, let value = try? SyncValue.parse(text) else { return empty.canonicalText }
        return value.canonicalText
    }
}

/// One random change to places and their embedded objects.
enum RandomEmbeddedChange {
    static func make(_ random: inout SeededRandom, in db: Database, round: Int) {
        let places = Array(db.objects(SyncPlace.self))
        if places.isEmpty || random.next(100) < 15 {
            let id = "p\(random.next(5))"
            guard db.object(ofType: SyncPlace.self, forPrimaryKey: id) == nil else { return }
            db.add(SyncPlace(id: id, name: "made \(round)", address: newAddress(&random, round: round)))
            return
        }
        let place = places[random.next(places.count)]
        switch random.next(12) {
        case 0: place.address = random.next(3) == 0 ? nil : newAddress(&random, round: round)
        case 1: place.address?.number = random.next(1000)
        case 2: place.address?.street = "street \(round).\(random.next(100))"
        case 3: place.address?.geo = random.next(3) == 0 ? nil : SyncGeo(lat: Double(random.next(90)), lon: 0.5)
        case 4: place.address?.geo?.lat = Double(random.next(90)) + 0.25
        case 5: place.address?.lines.append("line \(round)")
        case 6: place.stops.append(newAddress(&random, round: round))
        case 7: if !place.stops.isEmpty { place.stops.remove(at: random.next(place.stops.count)) }
        case 8: if !place.stops.isEmpty { place.stops[random.next(place.stops.count)].number = random.next(1000) }
        case 9: place.spots["k\(random.next(3))"] = newAddress(&random, round: round)
        case 10: place.spots.removeObject(for: "k\(random.next(3))")
        default:
            if random.next(4) == 0 { db.delete(place) } else { place.name = "renamed \(round)" }
        }
    }

    private static func newAddress(_ random: inout SeededRandom, round: Int) -> SyncAddress {
        SyncAddress(
            street: "street \(round)", number: random.next(100), lines: random.next(2) == 0 ? [] : ["first"],
            geo: random.next(2) == 0 ? nil : SyncGeo(lat: 1.5, lon: Double(random.next(10))))
    }
}
