import Foundation
import XCTest

@testable import Strata

final class WriteTests: DatabaseTestCase {
    func testAddedObjectBecomesManagedAndReadsFromTheStore() throws {
        let db = try openDatabase()
        let ana = Person(id: 1, name: "Ana", age: 30)
        XCTAssertFalse(ana.isManaged)
        try db.write { db.add(ana) }
        XCTAssertTrue(ana.isManaged)
        XCTAssertEqual(ana.name, "Ana")
        try db.write { ana.age = 31 }
        let found = try XCTUnwrap(db.object(ofType: Person.self, forPrimaryKey: 1))
        XCTAssertEqual(found.age, 31)
        XCTAssertTrue(found.isSameObject(as: ana))
    }

    func testWriteReturnsItsBodysValue() throws {
        let db = try openDatabase()
        let count = try db.write { () -> Int in
            db.add(Person(id: 1, name: "A"))
            db.add(Person(id: 2, name: "B"))
            return db.objects(Person.self).count
        }
        XCTAssertEqual(count, 2)
    }

    func testDataSurvivesReopen() throws {
        do {
            let db = try openDatabase()
            try db.write {
                let rex = Dog(name: "Rex", age: 4)
                let ana = Person(id: 7, name: "Ana", age: 30, nickname: "A", tags: ["x", "y"])
                ana.dogs.append(rex)
                ana.favourite = rex
                db.add(ana)
            }
        }
        let db = try openDatabase()
        let ana = try XCTUnwrap(db.object(ofType: Person.self, forPrimaryKey: 7))
        XCTAssertEqual(ana.nickname, "A")
        XCTAssertEqual(Array(ana.tags), ["x", "y"])
        XCTAssertEqual(ana.dogs.count, 1)
        XCTAssertEqual(ana.dogs[0].name, "Rex")
        XCTAssertEqual(ana.favourite?.name, "Rex")
        XCTAssertEqual(ana.favourite?.owners.count, 1)
        XCTAssertEqual(ana.favourite?.fans.first?.name, "Ana")
    }

    func testDuplicatePrimaryKeyFailsTheWriteAndKeepsNothing() throws {
        let db = try openDatabase()
        try db.write { db.add(Person(id: 1, name: "Ana")) }
        XCTAssertThrowsError(
            try db.write {
                db.add(Person(id: 2, name: "Bo"))
                db.add(Person(id: 1, name: "Ana again"))
            }
        ) { error in
            XCTAssertEqual(error as? StrataError, .duplicatePrimaryKey(type: "Person", key: "1"))
        }
        XCTAssertEqual(db.objects(Person.self).count, 1)
        XCTAssertNil(db.object(ofType: Person.self, forPrimaryKey: 2))
        XCTAssertFalse(db.isInWriteTransaction)
    }

    func testUpdatePolicies() throws {
        let db = try openDatabase()
        try db.write { db.add(Person(id: 1, name: "Ana", age: 30, email: "a@x")) }
        try db.write { db.add(Person(id: 1, name: "Ana B.", age: 30), update: .modified) }
        let ana = try XCTUnwrap(db.object(ofType: Person.self, forPrimaryKey: 1))
        XCTAssertEqual(ana.name, "Ana B.")
        XCTAssertEqual(ana.email, "", "an unmanaged object carries every property: .modified writes its default")
        try db.write { db.add(Person(id: 1, name: "Ana C.", age: 33), update: .all) }
        XCTAssertEqual(ana.name, "Ana C.")
        XCTAssertEqual(ana.age, 33)
        XCTAssertEqual(db.objects(Person.self).count, 1)
    }

    func testThrowingBodyCancelsTheWrite() throws {
        struct Oops: Error {}
        let db = try openDatabase()
        XCTAssertThrowsError(try db.write {
            db.add(Person(id: 1, name: "Ana"))
            throw Oops()
        })
        XCTAssertEqual(db.objects(Person.self).count, 0)
    }

    func testBeginCommitAndCancel() throws {
        let db = try openDatabase()
        db.beginWrite()
        XCTAssertTrue(db.isInWriteTransaction)
        let ana = Person(id: 1, name: "Ana")
        db.add(ana)
        db.cancelWrite()
        XCTAssertFalse(db.isInWriteTransaction)
        XCTAssertTrue(ana.isInvalidated)
        XCTAssertEqual(db.objects(Person.self).count, 0)
        db.beginWrite()
        db.add(Person(id: 2, name: "Bo"))
        try db.commitWrite()
        XCTAssertEqual(db.objects(Person.self).count, 1)
    }

    func testNestedWriteThrows() throws {
        let db = try openDatabase()
        try db.write {
            XCTAssertThrowsError(try db.write {}) { error in
                guard case StrataError.transactionMisuse(let message) = error else { return XCTFail("\(error)") }
                XCTAssertTrue(message.contains("writes do not nest"), message)
            }
        }
    }

    func testReadOnlyDatabaseRefusesWrites() throws {
        do { _ = try openDatabase() }
        configuration.readOnly = true
        let db = try openDatabase()
        XCTAssertThrowsError(try db.write {}) { error in
            guard case StrataError.readOnly = error else { return XCTFail("\(error)") }
        }
    }

    func testAutoPrimaryKeysAndDefaults() throws {
        let db = try openDatabase()
        let before = Date()
        try db.write {
            db.add(Keeper(name: "first"))
            db.add(Keeper(name: "second"))
            db.add(Ticket())
            db.add(Ticket())
        }
        let keepers = db.objects(Keeper.self)
        XCTAssertEqual(keepers.map(\.id).sorted(), [1, 2])
        try db.write { db.add(Keeper(id: 10, name: "explicit")); db.add(Keeper(name: "after")) }
        XCTAssertNotNil(db.object(ofType: Keeper.self, forPrimaryKey: 11), "the sequence continues past explicit keys")
        let tickets = db.objects(Ticket.self)
        XCTAssertEqual(Set(tickets.map(\.code)).count, 2)
        XCTAssertTrue(tickets.allSatisfy { $0.issued >= before.addingTimeInterval(-1) })
    }

    /// An explicit key of `Int.max` takes the `auto` sequence to its end: the next object without a key makes its
    /// write throw (nothing of that write is kept), where it used to overflow and stop the program.
    func testAutoPrimaryKeyPastIntMaxIsAnErrorNotACrash() throws {
        let db = try openDatabase()
        try db.write { db.add(Keeper(id: .max, name: "last")) }
        XCTAssertThrowsError(try db.write {
            db.add(Keeper(id: 5, name: "kept back"))
            db.add(Keeper(name: "one too many"))
        }) { error in
            guard case StrataError.invalidArgument(let message) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(message.contains("Keeper"), message)
        }
        XCTAssertEqual(db.objects(Keeper.self).map(\.name), ["last"])
        XCTAssertNoThrow(try db.verify())
    }

    func testEveryTypeRoundTrips() throws {
        let db = try openDatabase()
        let when = Date(timeIntervalSince1970: 1_234_567_890.5)
        let ident = UUID()
        try db.write {
            db.add(Everything(
                flag: true, small: -8, medium: 1600, wide: -320_000, long: .max, real: 1.5, precise: -2.25,
                text: "héllo 🚀", bytes: Data([0, 1, 255]), when: when, ident: ident, maybeFlag: false,
                maybeInt: nil, maybeReal: 3.5, maybeText: nil, maybeBytes: Data(), maybeWhen: when, maybeIdent: nil,
                numbers: [1, -2, 3], words: ["a", "", "c"], instants: [when]))
        }
        let stored = try XCTUnwrap(db.objects(Everything.self).first)
        XCTAssertEqual(stored.flag, true)
        XCTAssertEqual(stored.small, -8)
        XCTAssertEqual(stored.medium, 1600)
        XCTAssertEqual(stored.wide, -320_000)
        XCTAssertEqual(stored.long, .max)
        XCTAssertEqual(stored.real, 1.5)
        XCTAssertEqual(stored.precise, -2.25)
        XCTAssertEqual(stored.text, "héllo 🚀")
        XCTAssertEqual(stored.bytes, Data([0, 1, 255]))
        XCTAssertEqual(stored.when.timeIntervalSince1970, when.timeIntervalSince1970, accuracy: 1e-6)
        XCTAssertEqual(stored.ident, ident)
        XCTAssertEqual(stored.maybeFlag, false)
        XCTAssertNil(stored.maybeInt)
        XCTAssertEqual(stored.maybeReal, 3.5)
        XCTAssertNil(stored.maybeText)
        XCTAssertEqual(stored.maybeBytes, Data())
        XCTAssertNil(stored.maybeIdent)
        XCTAssertEqual(Array(stored.numbers), [1, -2, 3])
        XCTAssertEqual(Array(stored.words), ["a", "", "c"])
        XCTAssertEqual(stored.instants.count, 1)
        try db.write {
            stored.maybeInt = 5
            stored.maybeText = "now"
            stored.text = String(repeating: "long ", count: 100_000)
        }
        XCTAssertEqual(stored.maybeInt, 5)
        XCTAssertEqual(stored.maybeText, "now")
        XCTAssertEqual(stored.text.count, 500_000)
    }
}
