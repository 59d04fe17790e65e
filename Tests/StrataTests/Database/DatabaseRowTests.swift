import Foundation
import StrataTestSupport
import XCTest

@_spi(StrataGenerated) @testable import Strata

/// A managed object's generated getters read through `ObjectBase.databaseRow`, its database row held without
/// counting, which must be set exactly when the object's `managedAccessor` is a database's row and be that row:
/// objects added, queried, embedded and frozen read every kind of value as their row reads it, and objects with no
/// row or another kind of row have none.
final class DatabaseRowTests: SpecimenTestCase {
    /// Asserts that `object`'s database row is its accessor.
    private func assertRowIsAccessor(_ object: ObjectBase, file: StaticString = #filePath, line: UInt = #line) {
        let row = object.databaseRow?.takeUnretainedValue()
        XCTAssertNotNil(row, file: file, line: line)
        XCTAssertTrue(row === object.managedAccessor, file: file, line: line)
    }

    /// Asserts that every scalar getter of `specimen` reads what its accessor reads (the path code generated
    /// before the typed reads still takes).
    private func assertGettersReadTheRow(of specimen: Specimen, file: StaticString = #filePath, line: UInt = #line) {
        let accessor = specimen.managedAccessor!
        XCTAssertEqual(specimen.id, Int(accessor.int(at: 0)), file: file, line: line)
        XCTAssertEqual(specimen.flag, true, file: file, line: line)
        XCTAssertEqual(specimen.count32, -32, file: file, line: line)
        XCTAssertEqual(specimen.count16, 16, file: file, line: line)
        XCTAssertEqual(specimen.count8, -8, file: file, line: line)
        XCTAssertEqual(specimen.big, Int64.max, file: file, line: line)
        XCTAssertEqual(specimen.ratio, .infinity, file: file, line: line)
        XCTAssertEqual(specimen.score, -0.1, file: file, line: line)
        XCTAssertEqual(specimen.name, "Ünïcode, \"quoted\"\nline", file: file, line: line)
        XCTAssertEqual(specimen.blob, Data([0, 1, 2, 254, 255]), file: file, line: line)
        XCTAssertEqual(specimen.seen, seen, file: file, line: line)
        XCTAssertEqual(specimen.uid, UUID(uuidString: "00112233-4455-6677-8899-AABBCCDDEEFF"), file: file, line: line)
        XCTAssertEqual(specimen.price, Decimal(string: "12345.6789"), file: file, line: line)
        XCTAssertEqual(specimen.oid, vialId, file: file, line: line)
        XCTAssertEqual(specimen.kind, .rare, file: file, line: line)
        XCTAssertEqual(specimen.maybeFlag, false, file: file, line: line)
        XCTAssertNil(specimen.maybeInt, file: file, line: line)
        XCTAssertEqual(specimen.maybeScore, 2.5, file: file, line: line)
        XCTAssertEqual(specimen.maybeName, "x", file: file, line: line)
        XCTAssertNil(specimen.maybeBlob, file: file, line: line)
        XCTAssertEqual(specimen.maybeSeen, Date(timeIntervalSince1970: -86_400.5), file: file, line: line)
        XCTAssertNil(specimen.maybeUid, file: file, line: line)
        XCTAssertEqual(specimen.maybePrice, Decimal(string: "-0.001"), file: file, line: line)
        XCTAssertNil(specimen.maybeOid, file: file, line: line)
        XCTAssertEqual(specimen.maybeKind, .fancy, file: file, line: line)
        if case .object(let steward as Steward) = specimen.mixed {
            XCTAssertEqual(steward.name, "ana", file: file, line: line)
        } else {
            XCTFail("mixed reads \(specimen.mixed)", file: file, line: line)
        }
        XCTAssertEqual(specimen.label?.text, "top", file: file, line: line)
    }

    func testUnmanagedObjectHasNoRow() {
        let steward = Steward(name: "cy")
        XCTAssertNil(steward.managedAccessor)
        XCTAssertNil(steward.databaseRow)
    }

    func testAddedObjectReadsThroughItsRow() throws {
        let db = try openDatabase()
        let pebble = Pebble(color: "red")
        try db.write {
            db.add(pebble)
            assertRowIsAccessor(pebble)
            pebble.color = "blue"
        }
        XCTAssertEqual(pebble.color, "blue")
        let specimen = try addSpecimen(to: db)
        assertRowIsAccessor(specimen)
        assertGettersReadTheRow(of: specimen)
    }

    func testQueriedEmbeddedAndFrozenObjectsReadThroughTheirRows() throws {
        let db = try openDatabase()
        try addSpecimen(to: db)
        let specimen = try XCTUnwrap(db.objects(Specimen.self).first)
        assertRowIsAccessor(specimen)
        assertGettersReadTheRow(of: specimen)
        assertRowIsAccessor(try XCTUnwrap(specimen.label))
        let frozen = try specimen.freeze()
        XCTAssertTrue(frozen.isFrozen)
        assertRowIsAccessor(frozen)
        assertGettersReadTheRow(of: frozen)
    }

    func testSnapshotsNamedObjectHasNoDatabaseRow() {
        let named = Steward(managedBy: SnapshotReference(ObjectReference(model: "Steward", key: .string("ana"))))
        XCTAssertTrue(named.isManaged)
        XCTAssertNil(named.databaseRow)
    }
}
