import Foundation
import XCTest

@testable import Strata

/// Notifications for `decimal`, `objectId` and `any` properties: object observations name them with their old
/// and new values, results observations report the objects whose values changed, and a mixed value turning
/// null because its object was deleted is a change.
final class MoreValueTypesNotificationTests: NotificationTestCase {
    private final class Received: @unchecked Sendable {
        var changes: [[String: (old: String, new: String)]] = []
        var modified: [[Int]] = []
    }

    override func setUpWithError() throws {
        try super.setUpWithError()
        configuration = Configuration(schema: Wallet.self)
            .scratch(at: directory.url.appendingPathComponent("wallet.strata"))
        let configuration = self.configuration!
        let queue = self.queue!
        // The observers' database of the Wallet schema, replacing the base class's on its own queue.
        try queue.sync { observerDatabase = try Database(configuration: configuration, queue: queue) }
    }

    private func text(_ value: Any?) -> String {
        guard let value else { return "nil" }
        if let mixed = value as? AnyValue, case .object(let object) = mixed { return "object \(type(of: object))" }
        return "\(value)"
    }

    func testObjectAndResultsObservationsSeeTheNewKinds() throws {
        let db = try openDatabase()
        let id = ObjectId.generate()
        let memo = Memo(text: "m")
        try db.write {
            db.add(Account(id: id, owner: "Ana", balance: 1, tag: .int(1)))
            db.add(memo)
        }
        let received = Received()
        let tokens = try onQueue {
            let account = try XCTUnwrap(observerDatabase.object(ofType: Account.self, forPrimaryKey: id))
            let objectToken = account.observe { change in
                guard case .change(_, let properties) = change else { return }
                var byName: [String: (old: String, new: String)] = [:]
                for property in properties { byName[property.name] = (self.text(property.oldValue), self.text(property.newValue)) }
                received.changes.append(byName)
            }
            let resultsToken = observerDatabase.objects(Account.self).observe { change in
                if case .update(_, _, _, let modifications) = change { received.modified.append(modifications) }
            }
            return [objectToken, resultsToken]
        }
        startBarrier()
        let account = try XCTUnwrap(db.object(ofType: Account.self, forPrimaryKey: id))
        let ref = ObjectId.generate()
        try db.write {
            account.balance = Decimal(string: "2.50")!
            account.ref = ref
            account.tag = .object(memo)
        }
        waitForDelivery(of: db.version)
        try db.write { db.delete(memo) }
        waitForDelivery(of: db.version)
        onQueue {
            XCTAssertEqual(received.changes.count, 2)
            XCTAssertEqual(received.changes.first?["balance"]?.old, "1")
            XCTAssertEqual(received.changes.first?["balance"]?.new, "2.5")
            XCTAssertEqual(received.changes.first?["ref"]?.new, ref.stringValue)
            XCTAssertEqual(received.changes.first?["tag"]?.old, "1")
            XCTAssertEqual(received.changes.first?["tag"]?.new, "object Memo")
            XCTAssertEqual(received.changes.last?["tag"]?.new, "nil", "the deleted object's value turned null")
            XCTAssertEqual(received.modified, [[0], [0]])
        }
        withExtendedLifetime(tokens) {}
    }
}
