import Foundation
import StrataTestSupport
import XCTest

@_spi(StrataGenerated) @testable import Strata

/// A database of the `Specimens` schema (every kind of the schema language), and a specimen holding a value of
/// each kind, links to models with each kind of primary key and without one, and embedded objects.
class SpecimenTestCase: DatabaseTestCase {
    override func makeConfiguration() -> Configuration {
        Configuration(schema: Specimens.self)
    }

    /// A second file of the same schema.
    func otherConfiguration(_ name: String) -> Configuration {
        var other = Configuration(schema: Specimens.self)
        other.fileURL = directory.url.appendingPathComponent(name)
        other.durability = .none
        return other
    }

    let crateId = UUID(uuidString: "0F1E2D3C-4B5A-6978-8796-A5B4C3D2E1F0")!
    let vialId = try! ObjectId(string: "65f0a1b2c3d4e5f601020304")
    /// A date with nanoseconds, which the JSON form keeps.
    let seen = Date(timeIntervalSince1970: 1_714_555_800.123456789)

    /// Adds the linked objects and one specimen holding a value of every kind; returns the specimen.
    @discardableResult
    func addSpecimen(to db: Database, id: Int = 7) throws -> Specimen {
        var specimen: Specimen!
        try db.write {
            let ana = Steward(name: "ana")
            let bo = Steward(name: "bo")
            let crate = Crate(id: crateId, size: 3)
            let vial = Vial(id: vialId, volume: 1.5)
            let red = Pebble(color: "red")
            let grey = Pebble(color: "grey, \"dark\"\nstone")
            db.add([ana, bo])
            db.add(crate)
            db.add(vial)
            db.add([red, grey])
            specimen = Specimen(
                id: id, flag: true, count32: -32, count16: 16, count8: -8, big: Int64.max, ratio: .infinity,
                score: -0.1, name: "Ünïcode, \"quoted\"\nline", blob: Data([0, 1, 2, 254, 255]), seen: seen,
                uid: UUID(uuidString: "00112233-4455-6677-8899-AABBCCDDEEFF")!, price: Decimal(string: "12345.6789")!,
                oid: vialId, kind: .rare, mixed: .object(ana), maybeFlag: false, maybeInt: nil, maybeScore: 2.5,
                maybeName: "x", maybeBlob: nil, maybeSeen: Date(timeIntervalSince1970: -86_400.5), maybeUid: nil,
                maybePrice: Decimal(string: "-0.001"), maybeOid: nil, maybeKind: .fancy, numbers: [3, -1, 0],
                words: ["a", ""], prices: [Decimal(string: "0.1")!, 2], dates: [seen],
                anything: [.int(1), .string("s"), .decimal(Decimal(string: "1.25")!), .object(red), .none,
                           .date(seen), .data(Data([9])), .uuid(crateId), .objectId(vialId), .bool(false),
                           .double(0.5)],
                tags: ["b", "a"], ratios: [nil, 1.5], ids: [vialId], counts: ["one": 1, "two": 2],
                notes: ["n": nil, "m": "memo"], stamps: ["s": seen], extras: ["k": .object(crate), "z": .none],
                steward: ana, crate: crate, vial: vial, pebble: grey, stewards: [bo, ana], pebbles: [red, grey],
                crates: [crate], vials: ["v": vial, "none": nil],
                label: Tagline(text: "top", at: seen, mark: Mark(glyph: "★", weight: Decimal(string: "0.5")!)),
                labels: [Tagline(text: "one"), Tagline(text: "two", mark: Mark(glyph: "x", weight: 3))])
            db.add(specimen)
        }
        return specimen
    }

    /// The stable key of the pebble of `color`.
    func pebbleKey(_ db: Database, _ color: String) throws -> StableObjectKey {
        let pebble = try XCTUnwrap(db.objects(Pebble.self).first { $0.color == color })
        return SnapshotSupport.stableKey(of: pebble)
    }
}
