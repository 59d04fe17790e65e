import Foundation
import StrataTestSupport
import XCTest

@testable import Strata

/// `strata export` and `strata import`, which work from the file alone: the same JSON as the app's
/// `exportJSON` (and so as its snapshots), filters, CSV quoting, a round trip into another file, and a bad file
/// that fails with its path and leaves the database as it was.
final class StrataExportImportCommandTests: SpecimenTestCase {
    private func path(_ db: Database) -> String { db.configuration.fileURL.path }

    func testExportWritesTheAppsJSON() throws {
        let db = try openDatabase()
        try addSpecimen(to: db)
        try db.write { db.add(Specimen(id: 8, count32: 5, name: "plain", steward: db.objects(Steward.self).first)) }
        let strata = try BuiltExecutable(named: "strata")
        let export = try strata.run(["export", path(db), "Specimen"])
        XCTAssertEqual(export.status, 0, export.errorOutput)
        XCTAssertEqual(export.output, String(decoding: try db.exportJSON(Specimen.self), as: UTF8.self) + "\n")
        let decoded = try JSONDecoder().decode([Specimen.Snapshot].self, from: Data(export.output.utf8))
        XCTAssertEqual(decoded, db.objects(Specimen.self).snapshots())

        for (filter, ids) in [
            ("count32 > 0", [8]), ("name BEGINSWITH[c] 'ÜN'", [7]), ("steward.name == 'ana'", [7, 8]),
            ("label.mark.glyph == '★' OR id IN {8}", [7, 8]), ("NOT kind == 'rare' AND price == 0", [8]),
            ("maybeScore BETWEEN {2, 3}", [7]), ("name LIKE 'pl*n'", [8]), ("vial == nil", [8]),
            // The app's whole query language: collections, aggregates, maps, subqueries.
            ("ANY stewards.name == 'bo'", [7]), ("numbers.@count == 3", [7]), ("counts['two'] == 2", [7]),
            ("SUBQUERY(labels, $l, $l.text == 'two').@count == 1", [7]), ("tags.@count == 0", [8]),
        ] {
            let filtered = try strata.run(["export", path(db), "Specimen", "--filter", filter])
            XCTAssertEqual(filtered.status, 0, filter + ": " + filtered.errorOutput)
            let got = try JSONDecoder().decode([Specimen.Snapshot].self, from: Data(filtered.output.utf8)).map(\.id)
            XCTAssertEqual(got, ids, filter)
            XCTAssertEqual(got, try Array(db.objects(Specimen.self).filter(filter).map(\.id)), "as the app's query: \(filter)")
        }
        let refused = try strata.run(["export", path(db), "Specimen", "--filter", "name == %@"])
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertTrue(refused.errorOutput.contains("takes no arguments"), refused.errorOutput)
        let unknown = try strata.run(["export", path(db), "Nope"])
        XCTAssertNotEqual(unknown.status, 0)
        XCTAssertTrue(unknown.errorOutput.contains("Crate, Pebble, Specimen, Steward, Vial"), unknown.errorOutput)
    }

    func testCSVQuotesCellsAsRFC4180Says() throws {
        let db = try openDatabase()
        try addSpecimen(to: db)
        let strata = try BuiltExecutable(named: "strata")
        let csv = try strata.run(["export", path(db), "Pebble", "--format", "csv"])
        XCTAssertEqual(csv.status, 0, csv.errorOutput)
        XCTAssertEqual(csv.output, "color\r\nred\r\n\"grey, \"\"dark\"\"\nstone\"\r\n")
        let specimens = try strata.run(["export", path(db), "Specimen", "--format", "csv"])
        let lines = specimens.output.components(separatedBy: "\r\n")
        XCTAssertTrue(lines[0].hasPrefix("id,flag,count32,count16,count8,big,ratio,score,name,blob,seen,"), lines[0])
        XCTAssertTrue(specimens.output.contains("7,true,-32,16,-8,9223372036854775807,Infinity,-0.1,\"Ünïcode, \"\"quoted\"\"\nline\",AAEC/v8=,2024-05-01T09:30:00.123456"), specimens.output)
        XCTAssertTrue(specimens.output.contains(",\"[3,-1,0]\","), "a list is JSON text in a quoted cell")
        XCTAssertTrue(specimens.output.contains(",ana,"), "a link is its key")
    }

    func testImportRoundTripsIntoAnotherFileAndABadFileKeepsNothing() throws {
        let source = try openDatabase()
        try addSpecimen(to: source)
        let targetConfiguration = otherConfiguration("target.strata")
        do { _ = try Database(configuration: targetConfiguration) }  // creates the file and its tables
        let strata = try BuiltExecutable(named: "strata")
        let target = targetConfiguration.fileURL.path
        for model in ["Steward", "Crate", "Vial", "Pebble", "Specimen"] {
            let export = try strata.run(["export", path(source), model])
            let file = directory.url.appendingPathComponent("\(model).json")
            try Data(export.output.utf8).write(to: file)
            let imported = try strata.run(["import", target, model, file.path])
            XCTAssertEqual(imported.status, 0, imported.errorOutput)
            XCTAssertTrue(imported.output.contains("Imported"), imported.output)
        }
        let reopened = try Database(configuration: targetConfiguration)
        XCTAssertEqual(reopened.objects(Specimen.self).snapshots(), source.objects(Specimen.self).snapshots())

        let bad = directory.url.appendingPathComponent("bad.json")
        try Data(#"[{"name": "z"}, {"name": "y", "seen": 12}]"#.utf8).write(to: bad)
        let refused = try strata.run(["import", target, "Steward", bad.path])
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertTrue(refused.errorOutput.contains("$[1].seen: Steward has no property 'seen'"), refused.errorOutput)
        try Data(#"[{"id": 70}, {"id": 71, "label": {"text": 12}}]"#.utf8).write(to: bad)
        let badValue = try strata.run(["import", target, "Specimen", bad.path])
        XCTAssertTrue(badValue.errorOutput.contains("$[1].label.text: expected a string, found 12"), badValue.errorOutput)
        _ = reopened.refresh()
        XCTAssertEqual(reopened.objects(Steward.self).count, 2)
        XCTAssertEqual(reopened.objects(Specimen.self).count, 1)
    }
}
