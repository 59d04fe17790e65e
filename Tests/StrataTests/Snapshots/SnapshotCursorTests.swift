import Foundation
import StrataTestSupport
import XCTest

@_spi(StrataGenerated) @testable import Strata

/// `results.snapshots()` reads its objects in cluster order through a `SnapshotRowCursor` (the generated
/// `Model.snapshot(cursor:)`): for every kind of the schema language its snapshots equal each object's own
/// `snapshot()`, whatever the results' order, inside a write, on a frozen database, and for a sparse result read
/// object by object.
final class SnapshotCursorTests: SpecimenTestCase {
    /// 60 specimens over the linked objects of `addSpecimen`, their values varied (nulls, empty collections, no
    /// embedded label, other links) from one specimen to the next.
    private func addSpecimens(to db: Database) throws {
        let base = try addSpecimen(to: db, id: 1).snapshot()
        try db.write {
            for id in 2...60 {
                var specimen = base
                specimen.id = id
                specimen.name = "specimen \(id) " + String(repeating: "é", count: id % 5)
                specimen.count8 = Int8(id % 100)
                specimen.flag = id % 2 == 0
                specimen.score = Double(id) / 3
                specimen.blob = Data(repeating: UInt8(id), count: id % 7)
                specimen.price = Decimal(id) / 8
                specimen.maybeInt = id % 2 == 0 ? nil : id
                specimen.maybeName = id % 3 == 0 ? nil : "n\(id)"
                specimen.maybeSeen = id % 4 == 0 ? nil : Date(timeIntervalSince1970: Double(id) * 1_000.125)
                specimen.maybeUid = id % 5 == 0 ? UUID() : nil
                specimen.maybePrice = id % 2 == 0 ? nil : Decimal(id)
                specimen.maybeOid = id % 3 == 0 ? vialId : nil
                specimen.maybeKind = id % 2 == 0 ? nil : .plain
                specimen.mixed = id % 3 == 0 ? .int(id) : id % 3 == 1 ? .string("m\(id)") : .none
                specimen.numbers = Array(0..<(id % 4))
                specimen.tags = id % 2 == 0 ? [] : ["t\(id)", "a"]
                specimen.notes = ["k\(id)": id % 2 == 0 ? nil : "v"]
                specimen.extras = id % 2 == 0 ? [:] : ["x": .double(0.25)]
                specimen.label = id % 4 == 0 ? nil : Tagline.Snapshot(text: "label \(id)")
                specimen.steward = id % 2 == 0 ? nil : "bo"
                specimen.stewards = id % 3 == 0 ? [] : ["ana"]
                db.add(Specimen(snapshot: specimen))
            }
        }
    }

    /// Each object's own `snapshot()`, read through its managed row.
    private func rowSnapshots(_ results: Results<Specimen>) -> [Specimen.Snapshot] {
        results.map { $0.snapshot() }
    }

    func testTheCursorsSnapshotsEqualEachObjectsSnapshotForEveryKind() throws {
        let db = try openDatabase()
        try addSpecimens(to: db)
        let results = db.objects(Specimen.self)
        let snapshots = results.snapshots()
        XCTAssertEqual(snapshots.count, 60)
        XCTAssertEqual(snapshots, rowSnapshots(results))
        XCTAssertEqual(snapshots.map(\.id), Array(1...60))

        // The walk itself, to be sure every object came from the cursor.
        var rowReads = 0
        var cursorReads = 0
        let model = try XCTUnwrap(db.schema.model(for: Specimen.self))
        let walk = SnapshotWalk(
            database: db, model: model, table: try db.table(for: model),
            fromCursor: { cursorReads += 1; return Specimen.snapshot(cursor: $0) },
            fromRow: { rowReads += 1; return Specimen.snapshot(row: $0) })
        XCTAssertEqual(try walk.snapshots(of: results.keys), snapshots)
        XCTAssertEqual(cursorReads, 60)
        XCTAssertEqual(rowReads, 0)
    }

    func testSortedAndFilteredResultsKeepTheirOrder() throws {
        let db = try openDatabase()
        try addSpecimens(to: db)
        let sorted = db.objects(Specimen.self).sorted(byKeyPath: "score", ascending: false)
        XCTAssertEqual(sorted.snapshots(), rowSnapshots(sorted))
        XCTAssertEqual(sorted.snapshots().first?.id, 60)
        let byName = db.objects(Specimen.self).sorted(byKeyPath: "name")
        XCTAssertEqual(byName.snapshots(), rowSnapshots(byName))
        let odd = try db.objects(Specimen.self).filter("flag == false")
        XCTAssertEqual(odd.snapshots(), rowSnapshots(odd))
        XCTAssertEqual(odd.snapshots().count, 29, "the odd ids but 1, whose flag is set")
        // A sparse result is read object by object: the same snapshots.
        let one = try db.objects(Specimen.self).filter("id == 5")
        XCTAssertEqual(one.snapshots(), rowSnapshots(one))
        XCTAssertEqual(one.snapshots().map(\.id), [5])
        XCTAssertEqual(try db.objects(Specimen.self).filter("id > 1000").snapshots(), [])
    }

    func testSnapshotsInsideAWriteSeeItsChanges() throws {
        let db = try openDatabase()
        try addSpecimens(to: db)
        try db.write {
            db.object(ofType: Specimen.self, forPrimaryKey: 3)!.name = "changed in the write"
            db.delete(db.object(ofType: Specimen.self, forPrimaryKey: 4)!)
            var added = db.object(ofType: Specimen.self, forPrimaryKey: 5)!.snapshot()
            added.id = 61
            db.add(Specimen(snapshot: added))
            let results = db.objects(Specimen.self)
            let snapshots = results.snapshots()
            XCTAssertEqual(snapshots, rowSnapshots(results))
            XCTAssertEqual(snapshots.count, 60)
            XCTAssertEqual(snapshots.first { $0.id == 3 }?.name, "changed in the write")
            XCTAssertNil(snapshots.first { $0.id == 4 })
            XCTAssertEqual(snapshots.last?.id, 61)
        }
    }

    func testAFrozenDatabasesSnapshotsAreTheLiveOnes() throws {
        let db = try openDatabase()
        try addSpecimens(to: db)
        let live = db.objects(Specimen.self).snapshots()
        let frozen = try db.freeze()
        XCTAssertEqual(frozen.objects(Specimen.self).snapshots(), live)
    }

    func testEveryModelsSnapshotsFromTheCursorEqualItsRowSnapshots() throws {
        let db = try openDatabase()
        try db.write {
            for index in 0..<40 {
                db.add(Steward(name: "steward \(index)"))
                db.add(Crate(id: UUID(), size: index))
                db.add(Vial(id: ObjectId.generate(), volume: Double(index) / 7))
                db.add(Pebble(color: index % 2 == 0 ? "red" : "ⓡⓔⓓ"))
            }
        }
        XCTAssertEqual(db.objects(Steward.self).snapshots(), db.objects(Steward.self).map { $0.snapshot() })
        XCTAssertEqual(db.objects(Crate.self).snapshots(), db.objects(Crate.self).map { $0.snapshot() })
        XCTAssertEqual(db.objects(Vial.self).snapshots(), db.objects(Vial.self).map { $0.snapshot() })
        XCTAssertEqual(db.objects(Pebble.self).snapshots(), db.objects(Pebble.self).map { $0.snapshot() })
    }
}
