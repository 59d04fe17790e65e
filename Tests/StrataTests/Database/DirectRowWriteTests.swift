import Foundation
import StrataTestSupport
import XCTest

@_spi(StrataGenerated) @testable import Strata

/// `add(_:)` inserts a new object from the row its generated class writes itself into
/// (`ObjectBase.writeValues(into:)`), one row kept per model and reused, its list and set columns refilled in place:
/// every kind of value, nil and empty ones, embedded objects and a failed add must come out as written.
final class DirectRowWriteTests: SpecimenTestCase {
    /// A date the store keeps exactly (whole nanoseconds).
    private let when = Date(timeIntervalSince1970: 1_714_555_800.5)

    /// A specimen holding a value of every kind, each depending on `variant` (collections of different sizes, so
    /// that a reused row's arrays grow and shrink between objects). Its sets are in element order, as a stored
    /// set reads, and it links only to objects with a primary key, so its snapshot before the add is the one
    /// after.
    private func specimen(id: Int, variant: Int, steward: Steward, crate: Crate, vial: Vial) -> Specimen {
        let words = (0..<(variant * 2)).map { "w\(variant)-\($0)" }
        return Specimen(
            id: id, flag: variant % 2 == 0, count32: Int32(-variant), count16: Int16(variant), count8: Int8(variant),
            big: Int64.max - Int64(variant), ratio: Float(variant) + 0.25, score: Double(variant) / 8,
            name: "name \(variant) ü", blob: Data((0..<UInt8(variant)).map { $0 }), seen: when,
            uid: UUID(uuidString: "00112233-4455-6677-8899-AABBCCDDEE0\(variant)")!,
            price: Decimal(string: "\(variant).125")!, oid: vialId, kind: variant == 1 ? .fancy : .rare,
            mixed: variant == 2 ? .object(steward) : .string("m\(variant)"), maybeFlag: variant == 1 ? nil : true,
            maybeInt: variant == 2 ? nil : variant, maybeScore: 2.5, maybeName: variant == 3 ? nil : "n\(variant)",
            maybeBlob: Data([UInt8(variant)]), maybeSeen: variant == 1 ? when : nil, maybeUid: crateId,
            maybePrice: variant == 3 ? Decimal(string: "-0.001") : nil, maybeOid: variant == 2 ? vialId : nil,
            maybeKind: variant == 1 ? .plain : nil, numbers: Array(0..<variant), words: words,
            prices: [Decimal(variant)], dates: variant == 2 ? [] : [when, when],
            anything: [.int(variant), .none, .object(crate)],
            tags: words.sorted(), ratios: variant == 1 ? [nil, 1.5] : [],
            ids: [vialId], counts: ["c\(variant)": variant], notes: ["n": nil, "m": "memo \(variant)"],
            stamps: variant == 3 ? [:] : ["s": when], extras: ["k": .object(vial), "z": .none],
            steward: variant == 1 ? nil : steward, crate: crate, vial: vial, stewards: [steward],
            crates: [crate], vials: ["v": vial, "none": nil],
            label: variant == 2 ? nil : Tagline(text: "label \(variant)", at: when, mark: Mark(glyph: "★", weight: 1)),
            labels: (0..<variant).map { Tagline(text: "l\($0)") })
    }

    func testEveryKindAddedReadsBackAsWritten() throws {
        let db = try openDatabase()
        var expected: [Int: Specimen.Snapshot] = [:]
        try db.write {
            let steward = Steward(name: "ana")
            let crate = Crate(id: crateId, size: 3)
            let vial = Vial(id: vialId, volume: 1.5)
            db.add(steward)
            db.add(crate)
            db.add(vial)
            for (id, variant) in [(1, 3), (2, 1), (3, 2), (4, 0), (5, 3)] {
                let added = specimen(id: id, variant: variant, steward: steward, crate: crate, vial: vial)
                expected[id] = added.snapshot()
                db.add(added)
                XCTAssertTrue(added.isManaged)
            }
        }
        XCTAssertEqual(db.objects(Specimen.self).count, 5)
        for (id, snapshot) in expected {
            let stored = try XCTUnwrap(db.object(ofType: Specimen.self, forPrimaryKey: id))
            XCTAssertEqual(stored.snapshot(), snapshot, "specimen \(id)")
        }
    }

    func testAnObjectOfDefaultsAndNilsReadsBackAsWritten() throws {
        let db = try openDatabase()
        let plain = Specimen(id: 9)
        let expected = plain.snapshot()
        try db.write { db.add(plain) }
        let stored = try XCTUnwrap(db.object(ofType: Specimen.self, forPrimaryKey: 9))
        XCTAssertEqual(stored.snapshot(), expected)
        XCTAssertNil(stored.maybeName)
        XCTAssertNil(stored.label)
        XCTAssertTrue(stored.tags.isEmpty)
        XCTAssertEqual(stored.counts.count, 0)
    }

    func testAutoKeysAreAssignedToWrittenRows() throws {
        let db = try openDatabase()
        try db.write {
            db.add(Specimen(name: "first"))
            db.add(Specimen(id: 40, name: "explicit"))
            db.add(Specimen(name: "after"))
        }
        let names = Dictionary(uniqueKeysWithValues: db.objects(Specimen.self).map { ($0.id, $0.name) })
        XCTAssertEqual(names, [1: "first", 40: "explicit", 41: "after"])
    }

    func testAFailedAddLeavesNothingAndTheNextAddItsOwnValues() throws {
        let db = try openDatabase()
        try db.write { db.add(Specimen(id: 1, name: "kept", tags: ["k"], label: Tagline(text: "kept"))) }
        XCTAssertThrowsError(
            try db.write {
                db.add(Specimen(id: 2, name: "new", tags: ["x", "y"], label: Tagline(text: "new")))
                db.add(Specimen(id: 1, name: "duplicate", tags: ["z"], label: Tagline(text: "duplicate")))
            }
        ) { error in
            guard case StrataError.duplicatePrimaryKey(let type, let key) = error else {
                return XCTFail("\(error)")
            }
            XCTAssertEqual(type, "Specimen")
            XCTAssertEqual(key, "1")
        }
        XCTAssertEqual(db.objects(Specimen.self).map(\.id), [1])
        try db.write { db.add(Specimen(id: 3, name: "third", words: ["w"], labels: [Tagline(text: "t")])) }
        let kept = try XCTUnwrap(db.object(ofType: Specimen.self, forPrimaryKey: 1))
        XCTAssertEqual(kept.name, "kept")
        XCTAssertEqual(Array(kept.tags), ["k"])
        XCTAssertEqual(kept.label?.text, "kept")
        let third = try XCTUnwrap(db.object(ofType: Specimen.self, forPrimaryKey: 3))
        XCTAssertEqual(third.name, "third")
        XCTAssertTrue(third.tags.isEmpty, "no elements left over from the refused object")
        XCTAssertNil(third.label)
        XCTAssertEqual(Array(third.words), ["w"])
        XCTAssertEqual(third.labels.map(\.text), ["t"])
    }

    /// The row a model keeps between adds holds no object of the last add: a managed object holds its database, so
    /// a kept link would keep the database (and its file) open after the app let go of it.
    func testTheKeptRowDoesNotKeepTheDatabaseOpen() throws {
        weak var released: Database?
        do {
            let db = try openDatabase()
            try db.write {
                let steward = Steward(name: "ana")
                db.add(Specimen(id: 1, mixed: .object(steward), steward: steward, stewards: [steward]))
            }
            released = db
        }
        XCTAssertNil(released, "the database outlived its last reference")
        var readOnly = try XCTUnwrap(configuration)
        readOnly.readOnly = true
        XCTAssertNoThrow(try Database(configuration: readOnly), "the file is closed and opens read-only")
    }

    /// `UnmanagedRow.write(_:at:)`, whose primitive case is inlined into generated code: a primitive in a value
    /// column is stored as the store's value, a primitive in a mixed column goes to the links, a value needing
    /// conversion is converted out of line, an object in a value column or a column the model lacks leaves the row
    /// unstorable; each write counts once.
    func testARowWriteStoresPrimitivesInlineAndConvertsTheRest() {
        // Properties 0-3 are value columns 0-3; property 4 is the first link or mixed property.
        var row = UnmanagedRow(slots: [0, 1, 2, 3, -1], valueCount: 4, linkCount: 1)
        row.write(7.persistedValue, at: 0)
        row.write("seven".persistedValue, at: 1)
        row.write(true.persistedValue, at: 2)
        row.write(2.5.persistedValue, at: 3)
        row.write(.string("mixed"), at: 4)
        XCTAssertEqual(row.values, [.int(7), .string("seven"), .bool(true), .double(2.5)])
        guard case .string("mixed") = row.links[0] else { return XCTFail("\(row.links)") }
        XCTAssertEqual(row.writtenCount, 5)
        XCTAssertTrue(row.isStorable)
        row.write(Float(1.5).persistedValue, at: 3)
        XCTAssertEqual(row.values[3], .float(1.5))
        row.write(.null, at: 1)
        XCTAssertEqual(row.values[1], .null)
        row.write(.uuid(crateId), at: 0)
        XCTAssertEqual(row.values[0], .uuid(crateId), "converted out of line")
        XCTAssertEqual(row.writtenCount, 8)
        XCTAssertTrue(row.isStorable)
        row.write(.int(1), at: 5)
        XCTAssertFalse(row.isStorable, "a column the model does not have")
        var other = UnmanagedRow(slots: [0], valueCount: 1, linkCount: 0)
        other.write(.object(Steward(name: "ana")), at: 0)
        XCTAssertFalse(other.isStorable, "an object is no row value")
        XCTAssertEqual(other.writtenCount, 1)
    }
}
