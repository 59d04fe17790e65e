import Foundation
import XCTest

@testable import Strata

/// `MutableSet.changes` and `Map.changes`: async sequences of frozen snapshots, as `List.changes`.
final class SetAndMapStreamTests: PantryTestCase {
    /// What the loops received, handed between the test and the tasks that iterate the streams.
    private final class Received: @unchecked Sendable {
        let lock = NSLock()
        var sets: [[String]] = []
        var maps: [[String: Int]] = []
        var mapKeys: [[String]] = []
        var frozen = true
        var setChanges: AsyncStream<CollectionChange<MutableSet<String>>>?
        var mapChanges: AsyncStream<MapChange<Map<String, Int>>>?
    }

    func testChangesCarryFrozenSnapshots() async throws {
        let configuration = self.configuration!
        let queue = DispatchQueue(label: "set and map streams")
        let db = try queue.sync {
            let db = try Database(configuration: configuration, queue: queue)
            try db.write { db.add(Cook(id: 1, name: "Bea", nicknames: ["a"], scores: ["x": 1])) }
            return db
        }
        let cook = try XCTUnwrap(queue.sync { db.object(ofType: Cook.self, forPrimaryKey: 1) })
        let received = Received()
        queue.sync {
            received.setChanges = cook.nicknames.changes
            received.mapChanges = cook.scores.changes
        }
        let sawBoth = expectation(description: "two states of each")
        sawBoth.expectedFulfillmentCount = 2
        let setTask = _Concurrency.Task {
            guard let setChanges = received.setChanges else { return }
            for await change in setChanges {
                switch change {
                case .initial(let set), .update(let set, _, _, _):
                    received.lock.withLock {
                        received.sets.append(Array(set))
                        received.frozen = received.frozen && set.isFrozenForTests
                    }
                case .error: break
                }
                if received.lock.withLock({ received.sets.count }) == 2 { sawBoth.fulfill() }
            }
        }
        let mapTask = _Concurrency.Task {
            guard let mapChanges = received.mapChanges else { return }
            for await change in mapChanges {
                switch change {
                case .initial(let map):
                    received.lock.withLock { received.maps.append(Dictionary(uniqueKeysWithValues: map.map { ($0.key, $0.value) })) }
                case .update(let map, let deletions, let insertions, let modifications):
                    received.lock.withLock {
                        received.maps.append(Dictionary(uniqueKeysWithValues: map.map { ($0.key, $0.value) }))
                        received.mapKeys.append(deletions + insertions + modifications)
                    }
                case .error: break
                }
                if received.lock.withLock({ received.maps.count }) == 2 { sawBoth.fulfill() }
            }
        }
        // The streams start from the database's current version: let their initial elements arrive first.
        while received.lock.withLock({ received.sets.isEmpty || received.maps.isEmpty }) { try await _Concurrency.Task.sleep(for: .milliseconds(5)) }
        let writer = try openDatabase()
        let written = try XCTUnwrap(writer.object(ofType: Cook.self, forPrimaryKey: 1))
        try writer.write {
            written.nicknames.insert("b")
            written.scores["x"] = nil
            written.scores["y"] = 2
        }
        await fulfillment(of: [sawBoth], timeout: 30)
        setTask.cancel()
        mapTask.cancel()
        received.lock.withLock {
            XCTAssertEqual(received.sets, [["a"], ["a", "b"]])
            XCTAssertEqual(received.maps, [["x": 1], ["y": 2]])
            XCTAssertEqual(received.mapKeys, [["x", "y"]])
            XCTAssertTrue(received.frozen, "the sets a stream carries are frozen")
        }
        queue.sync { withExtendedLifetime(db) {} }
    }
}

extension MutableSet {
    /// Whether the set reads a frozen snapshot (or is unmanaged, which never changes by itself).
    var isFrozenForTests: Bool {
        guard let storage = managedStorage as? ManagedSetStorage<Element> else { return true }
        return storage.row.database.isFrozen
    }
}
