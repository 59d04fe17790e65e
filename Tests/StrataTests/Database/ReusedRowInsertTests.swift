import Foundation
import StrataStorage
import StrataTestSupport
import XCTest

@testable import Strata

/// Bulk adds through the rows a model keeps between adds (`ModelBinding.withUnmanagedRow`, moved out and back, never
/// copied) and the storage engine's insert with new embedded objects (`Table.insert(_:into:embedding:)`): many
/// objects sharing their indexed strings, over several writes (each commit flushes the indexes' pending entries), with
/// a refused write between them, must read back object by object and agree with their indexes.
final class ReusedRowInsertTests: EmbeddedTestCase {
    /// The city of resident `i`: one of a few, so that many addresses share each string; every sixth resident has no
    /// address at all.
    private func city(_ i: Int) -> String? { i % 6 == 0 ? nil : "city-\((i * 7) % 5)" }

    private func resident(_ i: Int) -> Resident {
        Resident(id: i, name: "r\(i)", home: city(i).map { Address(street: "\(i) Main Street", city: $0) })
    }

    /// Every resident's address is its own, and each city's index answer is the residents that live there.
    private func check(ids: Range<Int>, file: StaticString = #filePath, line: UInt = #line) throws {
        let residents = db.objects(Resident.self)
        XCTAssertEqual(residents.count, ids.count, file: file, line: line)
        for resident in residents {
            XCTAssertEqual(resident.home?.city, city(resident.id), "resident \(resident.id)", file: file, line: line)
            XCTAssertEqual(
                resident.home?.street, city(resident.id).map { _ in "\(resident.id) Main Street" },
                "resident \(resident.id)", file: file, line: line)
        }
        for number in 0..<5 {
            let name = "city-\(number)"
            let indexed = try residents.filter("home.city == %@", name)
            XCTAssertEqual(
                indexed.map(\.id).sorted(), ids.filter { city($0) == name }, name, file: file, line: line)
        }
        XCTAssertEqual(try count("Address"), ids.filter { city($0) != nil }.count, file: file, line: line)
        let addresses = try table("Address")
        for key in try addresses.keys() {
            XCTAssertEqual(try addresses.backlinkCount(of: key), 1, "address \(key)", file: file, line: line)
        }
        XCTAssertNoThrow(try db.verify(), file: file, line: line)
    }

    func testManyOwnersSharingCitiesOverSeveralWrites() throws {
        try db.write { for i in 0..<400 { db.add(resident(i)) } }
        try check(ids: 0..<400)
        try db.write { for i in 400..<900 { db.add(resident(i)) } }
        try check(ids: 0..<900)
    }

    func testARefusedWriteBetweenBulkAddsLeavesNothingBehind() throws {
        try db.write { for i in 0..<200 { db.add(resident(i)) } }
        XCTAssertThrowsError(
            try db.write {
                for i in 200..<300 { db.add(resident(i)) }
                db.add(Resident(id: 7, name: "again", home: Address(street: "refused", city: "city-9")))
            }
        ) { error in
            guard case StrataError.duplicatePrimaryKey = error else { return XCTFail("\(error)") }
        }
        try check(ids: 0..<200)
        XCTAssertEqual(try db.objects(Resident.self).filter("home.city == %@", "city-9").count, 0)
        // The rows kept from the refused adds hold nothing the next objects read back.
        try db.write { for i in 200..<300 { db.add(resident(i)) } }
        try check(ids: 0..<300)
    }
}

/// The same for an indexed set (`Tagbook.Tagger.tags`): objects sharing most of their strings, set after set refilled
/// into the row kept between adds, over several writes and a refused one.
final class ReusedRowSetInsertTests: XCTestCase {
    private var directory: TemporaryDirectory!

    override func setUpWithError() throws { directory = try TemporaryDirectory() }
    override func tearDown() { directory = nil }

    private func openDatabase() throws -> Database {
        return try Database(configuration: Configuration(schema: Tagbook.self)
            .scratch(at: directory.url.appendingPathComponent("tagbook.strata")))
    }

    /// Tags of member `i`: up to five of a pool of nine, so each string is shared by many members; some have none.
    private func tags(_ i: Int) -> [String] { (0..<(i % 6)).map { "tag-\((i + $0 * 4) % 9)" } }

    private func check(_ db: Database, ids: [Int], file: StaticString = #filePath, line: UInt = #line) throws {
        let members = db.objects(Tagger.self)
        XCTAssertEqual(members.map(\.id).sorted(), ids, file: file, line: line)
        for member in members {
            XCTAssertEqual(Set(member.tags), Set(tags(member.id)), "member \(member.id)", file: file, line: line)
            XCTAssertEqual(member.name, "m\(member.id)", file: file, line: line)
        }
        for number in 0..<9 {
            let tag = "tag-\(number)"
            let indexed = try members.filter("ANY tags == %@", tag)
            XCTAssertEqual(
                indexed.map(\.id).sorted(), ids.filter { tags($0).contains(tag) }, tag, file: file, line: line)
        }
        XCTAssertNoThrow(try db.verify(), file: file, line: line)
    }

    func testMembersSharingTagsOverSeveralWritesAndARefusedOne() throws {
        let db = try openDatabase()
        try db.write { for i in 0..<500 { db.add(Tagger(id: i, name: "m\(i)", tags: tags(i))) } }
        try check(db, ids: Array(0..<500))
        XCTAssertThrowsError(
            try db.write {
                for i in 500..<600 { db.add(Tagger(id: i, name: "m\(i)", tags: tags(i))) }
                db.add(Tagger(id: 3, name: "again", tags: ["refused"]))
            })
        try check(db, ids: Array(0..<500))
        XCTAssertEqual(try db.objects(Tagger.self).filter("ANY tags == %@", "refused").count, 0)
        try db.write { for i in 500..<1_100 { db.add(Tagger(id: i, name: "m\(i)", tags: tags(i))) } }
        try check(db, ids: Array(0..<1_100))
    }
}
