import Foundation
import StrataTestSupport
import XCTest

@testable import Strata

/// `Database.exportJSON` and `importJSON`: the snapshots' JSON form, a round trip of every kind into another
/// file, upserts, and bad values that fail with their JSON path and keep nothing.
final class JSONExportImportTests: SpecimenTestCase {
    /// The export is the JSON of the snapshots' `Codable` form (the same document, member for member).
    func testTheExportIsTheSnapshotsCodableForm() throws {
        let db = try openDatabase()
        try addSpecimen(to: db)
        try db.write { db.add(Specimen(id: 8, name: "plain")) }
        let exported = try db.exportJSON(Specimen.self)
        let encoded = try JSONEncoder().encode(db.objects(Specimen.self).snapshots())
        let parsedExport = try JSONSerialization.jsonObject(with: exported) as? NSArray
        let parsedEncoded = try JSONSerialization.jsonObject(with: encoded) as? NSArray
        XCTAssertNotNil(parsedExport)
        XCTAssertEqual(parsedExport, parsedEncoded)
        XCTAssertEqual(
            try JSONDecoder().decode([Specimen.Snapshot].self, from: exported), db.objects(Specimen.self).snapshots())
        let filtered = try db.exportJSON(db.objects(Specimen.self).filter("name == 'plain'"), pretty: true)
        XCTAssertEqual(try JSONDecoder().decode([Specimen.Snapshot].self, from: filtered).map(\.id), [8])
        XCTAssertTrue(String(decoding: filtered, as: UTF8.self).contains("\n  {\n    \"id\": 8,"))
    }

    /// Exported from one file and imported into an empty one, model by model, every value comes back.
    func testEveryKindRoundTripsIntoAnotherFile() throws {
        let source = try openDatabase()
        try addSpecimen(to: source)
        let target = try Database(configuration: otherConfiguration("target.strata"))
        XCTAssertEqual(try target.importJSON(try source.exportJSON(Steward.self), into: Steward.self), 2)
        try target.importJSON(try source.exportJSON(Crate.self), into: Crate.self)
        try target.importJSON(try source.exportJSON(Vial.self), into: Vial.self)
        try target.importJSON(try source.exportJSON(Pebble.self), into: Pebble.self)
        XCTAssertEqual(try pebbleKey(target, "red"), try pebbleKey(source, "red"), "pebbles imported in key order")
        XCTAssertEqual(try target.importJSON(try source.exportJSON(Specimen.self), into: Specimen.self), 1)
        XCTAssertEqual(target.objects(Specimen.self).snapshots(), source.objects(Specimen.self).snapshots())
        XCTAssertEqual(try target.exportJSON(Specimen.self), try source.exportJSON(Specimen.self))
    }

    /// An object whose primary key is stored updates it: the members it names, the others kept.
    func testImportUpdatesByPrimaryKey() throws {
        let db = try openDatabase()
        try addSpecimen(to: db)
        let json = #"[{"id": 7, "name": "updated", "label": {"text": "L"}}, {"name": "auto key"}]"#
        XCTAssertEqual(try db.importJSON(Data(json.utf8), into: Specimen.self), 2)
        let specimens = db.objects(Specimen.self).sorted(byKeyPath: "id")
        XCTAssertEqual(specimens.map(\.name), ["updated", "auto key"])
        XCTAssertEqual(specimens[0].steward?.name, "ana", "not named, kept")
        XCTAssertEqual(specimens[0].label?.text, "L")
        XCTAssertNil(specimens[0].label?.mark)
        XCTAssertEqual(specimens[1].id, 8, "the next integer of the auto key")
        XCTAssertEqual(try db.catalog().table(named: "Tagline")?.count(), 3, "the replaced embedded label was deleted")
    }

    /// A bad value fails the import with its JSON path, and nothing of the import is kept.
    func testABadValueNamesItsPathAndKeepsNothing() throws {
        let db = try openDatabase()
        try addSpecimen(to: db)
        let before = try db.exportJSON(Specimen.self)
        let cases: [(String, String)] = [
            (#"[{"id": 1}, {"id": 2}, {"id": 3}, {"id": 4, "label": {"text": 12}}]"#,
             "$[3].label.text: expected a string, found 12"),
            (#"[{"id": 1, "name": "kept?"}, {"id": 2, "count8": 300}]"#, "$[1].count8: 300 does not fit in int8"),
            (#"[{"id": 1, "kind": "odd"}]"#, #"$[0].kind: expected one of "plain", "fancy", "rare", found the string "odd""#),
            (#"[{"id": 1, "steward": "nobody"}]"#, #"$[0].steward: no Steward has the primary key "nobody""#),
            (#"[{"id": 1, "nmae": "x"}]"#, "$[0].nmae: Specimen has no property 'nmae': did you mean 'name'?"),
            (#"[{"id": 1, "seen": "yesterday"}]"#, #"$[0].seen: expected an ISO 8601 date string, found the string "yesterday""#),
            (#"[{"id": 1, "prices": ["1", true]}]"#, "$[0].prices[1]: expected a decimal number as a string, found true"),
            (#"[{"id": 1, "extras": {"a": {"int": "x"}}}]"#, #"$[0].extras.a.int: expected an integer, found the string "x""#),
            (#"[{"id": 1, "mixed": {"link": {"model": "Nope", "key": 1}}}]"#, "$[0].mixed.link.model: no model 'Nope' to link to"),
            (#"[{"id": 1, "flag": null}]"#, "$[0].flag: expected true or false, found null"),
            (#"{"id": 1}"#, "$: expected an array of Specimen objects, found an object"),
            ("[{\"id\": 1,]", "$: invalid JSON at line 1, column 11: expected a member name in quotes"),
            (#"[{"id": 7}, {"id": 7, "name": "twice"}, {"id": 9, "oid": "65f0a1b2c3d4e5f601020304"}, {"id": 10, "uid": "no"}]"#,
             #"$[3].uid: expected a UUID string, found the string "no""#),
        ]
        for (json, message) in cases {
            XCTAssertThrowsError(try db.importJSON(Data(json.utf8), into: Specimen.self), json) { error in
                XCTAssertEqual("\(error)", message)
            }
            XCTAssertEqual(try db.exportJSON(Specimen.self), before, "nothing kept after: \(message)")
        }
        XCTAssertEqual(db.objects(Specimen.self).count, 1)
    }

    /// The import streams its objects into the table: many objects, whole or naming only some properties, new
    /// and stored ones mixed, come back as the export wrote them; a bad value late in a long file still names its
    /// path and keeps nothing, and so do a non-object element, a repeated member and text after the array.
    func testAStreamedImportOfManyObjectsKeepsAllOrNothing() throws {
        let source = try openDatabase()
        try addSpecimen(to: source)
        let base = try XCTUnwrap(source.objects(Specimen.self).first).snapshot()
        try source.write {
            for id in 8..<100 {
                var specimen = base
                specimen.id = id
                specimen.name = "specimen \(id)"
                specimen.maybeName = id % 2 == 0 ? nil : "n\(id)"
                specimen.label = id % 3 == 0 ? nil : Tagline.Snapshot(text: "label \(id)")
                source.add(Specimen(snapshot: specimen))
            }
        }
        let target = try Database(configuration: otherConfiguration("streamed.strata"))
        try target.importJSON(try source.exportJSON(Steward.self), into: Steward.self)
        try target.importJSON(try source.exportJSON(Crate.self), into: Crate.self)
        try target.importJSON(try source.exportJSON(Vial.self), into: Vial.self)
        try target.importJSON(try source.exportJSON(Pebble.self), into: Pebble.self)
        let exported = try source.exportJSON(Specimen.self)
        XCTAssertEqual(try target.importJSON(exported, into: Specimen.self), 93)
        XCTAssertEqual(try target.exportJSON(Specimen.self), exported)
        XCTAssertEqual(target.objects(Specimen.self).snapshots(), source.objects(Specimen.self).snapshots())

        // Objects naming only some properties, stored ones (updated) and new ones (the auto key) mixed.
        let partial = #"[{"name": "new one"}, {"id": 9, "name": "renamed"}, {"name": "new two", "count8": 5}]"#
        XCTAssertEqual(try target.importJSON(Data(partial.utf8), into: Specimen.self), 3)
        XCTAssertEqual(target.object(ofType: Specimen.self, forPrimaryKey: 9)?.name, "renamed")
        XCTAssertEqual(target.object(ofType: Specimen.self, forPrimaryKey: 9)?.maybeName, "n9", "not named, kept")
        XCTAssertEqual(target.object(ofType: Specimen.self, forPrimaryKey: 100)?.name, "new one")
        XCTAssertEqual(target.object(ofType: Specimen.self, forPrimaryKey: 101)?.count8, 5)

        let before = try target.exportJSON(Specimen.self)
        let objects = (1_000..<1_100).map { #"{"id": \#($0), "name": "n\#($0)"}"# }
        let cases: [(String, String)] = [
            ("[" + objects.joined(separator: ",") + #", {"id": 2000, "score": "high"}]"#,
             #"$[100].score: expected a number, found the string "high""#),
            ("[" + objects.joined(separator: ",") + ", 3]", "$[100]: expected a Specimen object, found 3"),
            (#"[{"id": 1000, "name": "a", "name": "b"}]"#, "$[0].name: the member 'name' appears twice"),
            (#"[{"id": 1000}] x"#, "$: invalid JSON at line 1, column 16: unexpected text after the JSON value"),
            (#"[{"id": 1000} {"id": 1001}]"#, "$: invalid JSON at line 1, column 15: expected ',' or ']' in an array"),
            (#"[{"id": 1000, "name": 1}]"#, "$[0].name: expected a string, found 1"),
        ]
        for (json, message) in cases {
            XCTAssertThrowsError(try target.importJSON(Data(json.utf8), into: Specimen.self), message) { error in
                XCTAssertEqual("\(error)", message)
            }
            XCTAssertEqual(try target.exportJSON(Specimen.self), before, "nothing kept after: \(message)")
        }
        XCTAssertEqual(try target.importJSON(Data("[]".utf8), into: Specimen.self), 0)
    }

    func testImportInsideAWriteIsRefused() throws {
        let db = try openDatabase()
        db.beginWrite()
        XCTAssertThrowsError(try db.importJSON(Data("[]".utf8), into: Steward.self))
        db.cancelWrite()
    }

    func testDatesKeepTheirNanosecondsAndOffsetsAreRead() {
        XCTAssertEqual(SnapshotFormat.dateText(nanoseconds: 0), "1970-01-01T00:00:00Z")
        XCTAssertEqual(SnapshotFormat.dateText(nanoseconds: -1), "1969-12-31T23:59:59.999999999Z")
        XCTAssertEqual(SnapshotFormat.dateText(nanoseconds: 1_714_555_800_250_000_000), "2024-05-01T09:30:00.25Z")
        XCTAssertEqual(SnapshotFormat.nanoseconds("2024-05-01T11:30:00.25+02:00"), 1_714_555_800_250_000_000)
        XCTAssertEqual(SnapshotFormat.nanoseconds("2000-02-29T00:00:00Z"), 951_782_400_000_000_000)
        XCTAssertNil(SnapshotFormat.nanoseconds("2001-02-29T00:00:00Z"))
        XCTAssertNil(SnapshotFormat.nanoseconds("2024-05-01T09:30:00.1234567891Z"))
        XCTAssertNil(SnapshotFormat.nanoseconds("2024-05-01"))
        for nanoseconds: Int64 in [-9_000_000_000_000_000_000, -86_400_000_000_001, 123, 9_000_000_000_000_000_007] {
            XCTAssertEqual(SnapshotFormat.nanoseconds(SnapshotFormat.dateText(nanoseconds: nanoseconds)), nanoseconds)
        }
    }
}
