import Foundation
import StrataTestSupport
import XCTest

@testable import Strata

/// Observing `Results.prefix(_:)`: an object leaving the first n lets the next one in, and the update says so.
final class PrefixNotificationTests: NotificationTestCase {
    private final class Seen: @unchecked Sendable {
        var names: [[String]] = []
        var updates: [(deletions: [Int], insertions: [Int])] = []
    }

    func testAnObjectLeavingThePrefixLetsTheNextOneIn() throws {
        let db = try openDatabase()
        try db.write { for id in 0..<5 { db.add(Person(id: id, name: "p\(id)")) } }
        let seen = Seen()
        let token = onQueue {
            observerDatabase.objects(Person.self).sorted(byKeyPath: "id").prefix(2).observe { change in
                switch change {
                case .initial(let results): seen.names.append(results.map(\.name))
                case .update(let results, let deletions, let insertions, _):
                    seen.names.append(results.map(\.name))
                    seen.updates.append((deletions, insertions))
                case .error(let error): XCTFail("\(error)")
                }
            }
        }
        startBarrier()
        waitOnQueue("initial") { seen.names.count == 1 }
        try db.write { db.delete(try XCTUnwrap(db.object(ofType: Person.self, forPrimaryKey: 0))) }
        waitForDelivery(of: db.version)
        onQueue {
            XCTAssertEqual(seen.names, [["p0", "p1"], ["p1", "p2"]])
            XCTAssertEqual(seen.updates.first?.deletions, [0])
            XCTAssertEqual(seen.updates.first?.insertions, [1])
        }
        withExtendedLifetime(token) {}
    }
}
