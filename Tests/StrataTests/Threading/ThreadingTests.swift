import Foundation
import XCTest

@testable import Strata

final class ThreadingTests: DatabaseTestCase {
    func testThreadSafeReferenceResolvesOnAnotherThread() throws {
        let db = try openDatabase()
        let ana = Person(id: 1, name: "Ana")
        try db.write { db.add(ana) }
        let reference = ThreadSafeReference(to: ana)
        let configuration = self.configuration!
        let result = try runOnNewThread { () -> String? in
            let other = try Database(configuration: configuration)
            return other.resolve(reference)?.name
        }
        XCTAssertEqual(result, "Ana")
    }

    func testResolvingADeletedObjectGivesNil() throws {
        let db = try openDatabase()
        let ana = Person(id: 1, name: "Ana")
        try db.write { db.add(ana) }
        let reference = ThreadSafeReference(to: ana)
        try db.write { db.delete(ana) }
        XCTAssertNil(db.resolve(reference))
    }

    func testFrozenResultsAreReadableFromAnyThreadAndNeverChange() throws {
        let db = try openDatabase()
        try db.write { for i in 0..<10 { db.add(Person(id: i, name: "p\(i)")) } }
        let frozen = try db.objects(Person.self).freeze()
        XCTAssertTrue(frozen.isFrozen)
        try db.write { db.delete(db.objects(Person.self)) }
        XCTAssertEqual(db.objects(Person.self).count, 0)
        let names = try runOnNewThread { frozen.map(\.name) }
        XCTAssertEqual(names.count, 10)
        XCTAssertEqual(frozen.count, 10)
        let frozenAna = try XCTUnwrap(frozen.first)
        XCTAssertTrue(frozenAna.isFrozen)
        XCTAssertThrowsError(try frozenAna.database?.write {}) { error in
            guard case StrataError.readOnly = error else { return XCTFail("\(error)") }
        }
    }

    func testConcurrentReadersOfOneFrozenSnapshot() throws {
        let db = try openDatabase()
        try db.write { for i in 0..<200 { db.add(Person(id: i, name: "p\(i)", age: i)) } }
        let frozen = try db.objects(Person.self).freeze()
        let sums = try (0..<4).map { _ in
            try runOnNewThread { frozen.reduce(0) { $0 + $1.age } }
        }
        XCTAssertEqual(Set(sums), [199 * 200 / 2])
    }

    func testFrozenObject() throws {
        let db = try openDatabase()
        let ana = Person(id: 1, name: "Ana")
        try db.write { db.add(ana) }
        let frozen = try ana.freeze()
        try db.write { ana.name = "Changed" }
        XCTAssertEqual(frozen.name, "Ana")
        XCTAssertThrowsError(try Person(id: 9).freeze())
    }
}
