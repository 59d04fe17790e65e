import Foundation
import StrataTestSupport
import XCTest

@testable import Strata

/// Where and when blocks run: tokens, `withoutNotifying:`, queues, the async sequences, other threads and
/// other processes.
final class DeliveryTests: NotificationTestCase {
    /// Counts what one results observer received.
    private final class Tally: @unchecked Sendable {
        var initial = 0
        var updates: [(deletions: [Int], insertions: [Int], modifications: [Int])] = []
        var errors: [String] = []
    }

    private func observePeople(_ tally: Tally) -> NotificationToken {
        onQueue {
            observerDatabase.objects(Person.self).sorted(byKeyPath: "id").observe { change in
                switch change {
                case .initial: tally.initial += 1
                case .update(_, let deletions, let insertions, let modifications):
                    tally.updates.append((deletions, insertions, modifications))
                case .error(let error): tally.errors.append("\(error)")
                }
            }
        }
    }

    func testUpdatesReportInsertionsDeletionsAndModificationsByIndex() throws {
        let db = try openDatabase()
        try db.write { for id in 0..<3 { db.add(Person(id: id, name: "p\(id)")) } }
        let tally = Tally()
        let token = observePeople(tally)
        startBarrier()
        waitOnQueue("initial") { tally.initial == 1 }
        try db.write {
            db.delete(try XCTUnwrap(db.object(ofType: Person.self, forPrimaryKey: 0)))
            db.object(ofType: Person.self, forPrimaryKey: 2)?.name = "two"
            db.add(Person(id: 3, name: "p3"))
        }
        waitForDelivery(of: db.version)
        onQueue {
            XCTAssertEqual(tally.updates.count, 1)
            XCTAssertEqual(tally.updates.first?.deletions, [0])
            XCTAssertEqual(tally.updates.first?.insertions, [2])
            XCTAssertEqual(tally.updates.first?.modifications, [1])
        }
        withExtendedLifetime(token) {}
    }

    func testCommitsWhileTheReceiverIsBusyCoalesceIntoOneUpdate() throws {
        let db = try openDatabase()
        let tally = Tally()
        let token = observePeople(tally)
        startBarrier()
        waitOnQueue("initial") { tally.initial == 1 }
        let busy = DispatchSemaphore(value: 0)
        queue.async { busy.wait() }
        for id in 1...3 { try db.write { db.add(Person(id: id, name: "p\(id)")) } }
        try db.write { db.object(ofType: Person.self, forPrimaryKey: 1)?.name = "one" }
        busy.signal()
        waitForDelivery(of: db.version)
        onQueue {
            XCTAssertEqual(tally.updates.count, 1, "four commits, one update")
            XCTAssertEqual(tally.updates.first?.insertions, [0, 1, 2])
            XCTAssertEqual(tally.updates.first?.modifications, [], "an inserted object is not also modified")
        }
        withExtendedLifetime(token) {}
    }

    func testInvalidatedTokenStopsDelivery() throws {
        let db = try openDatabase()
        let tally = Tally()
        let token = observePeople(tally)
        startBarrier()
        waitOnQueue("initial") { tally.initial == 1 }
        try db.write { db.add(Person(id: 1, name: "a")) }
        waitForDelivery(of: db.version)
        token.invalidate()
        try db.write { db.add(Person(id: 2, name: "b")) }
        waitForDelivery(of: db.version)
        onQueue { XCTAssertEqual(tally.updates.count, 1) }
    }

    func testReleasedTokenStopsDelivery() throws {
        let db = try openDatabase()
        let tally = Tally()
        var token: NotificationToken? = observePeople(tally)
        startBarrier()
        waitOnQueue("initial") { tally.initial == 1 }
        XCTAssertNotNil(token)
        token = nil
        try db.write { db.add(Person(id: 1, name: "a")) }
        waitForDelivery(of: db.version)
        onQueue { XCTAssertEqual(tally.updates.count, 0) }
    }

    func testCommitWithoutNotifyingSkipsTheNamedTokenOnly() throws {
        let skipped = Tally()
        let told = Tally()
        let skippedToken = observePeople(skipped)
        let toldToken = observePeople(told)
        startBarrier()
        waitOnQueue("initial") { skipped.initial == 1 && told.initial == 1 }
        try onQueue {
            observerDatabase.beginWrite()
            observerDatabase.add(Person(id: 1, name: "typed by the user"))
            try observerDatabase.commitWrite(withoutNotifying: [skippedToken])
        }
        let version = onQueue { observerDatabase.version }
        waitForDelivery(of: version)
        // A later commit is reported to both, relative to the skipped one.
        let db = try openDatabase()
        try db.write { db.add(Person(id: 2, name: "b")) }
        waitForDelivery(of: db.version)
        onQueue {
            XCTAssertEqual(skipped.updates.map(\.insertions), [[1]])
            XCTAssertEqual(told.updates.map(\.insertions), [[0], [1]])
        }
        withExtendedLifetime([skippedToken, toldToken]) {}
    }

    func testWithoutNotifyingRefusesATokenOfAnotherDatabase() throws {
        let db = try openDatabase()
        let tally = Tally()
        let token = observePeople(tally)
        db.beginWrite()
        db.add(Person(id: 1, name: "a"))
        XCTAssertThrowsError(try db.commitWrite(withoutNotifying: [token])) { error in
            XCTAssertTrue("\(error)".contains("another database"), "\(error)")
        }
        XCTAssertFalse(db.isInWriteTransaction)
        XCTAssertEqual(db.objects(Person.self).count, 0, "the write was cancelled")
    }

    func testObserveOnAQueueHandsOutResultsConfinedToThatQueue() throws {
        let db = try openDatabase()
        try db.write { db.add(Person(id: 1, name: "a")) }
        let other = DispatchQueue(label: "another observer queue")
        let delivered = expectation(description: "initial on the queue")
        let token = try db.objects(Person.self).filter("id > 0").observe(on: other) { change in
            guard case .initial(let results) = change else { return }
            dispatchPrecondition(condition: .onQueue(other))
            XCTAssertTrue(results.database.confinement.queue === other)
            XCTAssertEqual(results.map(\.name), ["a"])
            delivered.fulfill()
        }
        wait(for: [delivered], timeout: 20)
        withExtendedLifetime(token) {}
    }

    func testADatabaseOpenedOnTheMainThreadDeliversOnTheMainQueue() throws {
        try XCTSkipUnless(Thread.isMainThread, "XCTest runs this test off the main thread")
        let db = try openDatabase()
        let initial = expectation(description: "initial")
        let update = expectation(description: "update")
        let token = db.objects(Person.self).observe { change in
            dispatchPrecondition(condition: .onQueue(.main))
            switch change {
            case .initial: initial.fulfill()
            case .update(let results, _, let insertions, _):
                XCTAssertTrue(results.database === db)
                XCTAssertEqual(insertions, [0])
                update.fulfill()
            case .error(let error): XCTFail("\(error)")
            }
        }
        wait(for: [initial], timeout: 20)
        try db.write { db.add(Person(id: 1, name: "a")) }
        wait(for: [update], timeout: 20)
        withExtendedLifetime(token) {}
    }

    func testAnObjectObservedOnAQueueArrivesAsAnObjectOfThatQueue() throws {
        let db = try openDatabase()
        try db.write { db.add(Person(id: 1, name: "a", age: 1)) }
        let ana = try XCTUnwrap(db.object(ofType: Person.self, forPrimaryKey: 1))
        let other = DispatchQueue(label: "object observer queue")
        let changed = expectation(description: "change")
        let token = ana.observe(on: other) { change in
            guard case .change(let person, let properties) = change else { return XCTFail("\(change)") }
            dispatchPrecondition(condition: .onQueue(other))
            XCTAssertTrue(person.database?.confinement.queue === other)
            XCTAssertEqual(properties.map(\.name), ["age"])
            XCTAssertEqual(person.age, 2)
            changed.fulfill()
        }
        try db.write { ana.age = 2 }
        wait(for: [changed], timeout: 20)
        withExtendedLifetime(token) {}
    }

    func testListChangesSequenceYieldsFrozenLists() async throws {
        try onQueue {
            try observerDatabase.write { observerDatabase.add(Person(id: 1, name: "a")) }
        }
        var iterator = try onQueue {
            try XCTUnwrap(observerDatabase.object(ofType: Person.self, forPrimaryKey: 1)).dogs.changes
        }.makeAsyncIterator()
        guard case .initial(let initial)? = await iterator.next() else { return XCTFail("no initial") }
        XCTAssertEqual(initial.count, 0)
        try onQueue {
            try observerDatabase.write {
                observerDatabase.object(ofType: Person.self, forPrimaryKey: 1)?.dogs.append(Dog(name: "Rex"))
            }
        }
        guard case .update(let list, _, let insertions, _)? = await iterator.next() else { return XCTFail("no update") }
        XCTAssertEqual(insertions, [0])
        XCTAssertEqual(list.map(\.name), ["Rex"], "a frozen list, readable from this task")
    }

    func testObservingWithoutAQueueFromAPlainThreadIsAnErrorThatSaysToPassOne() throws {
        let configuration = self.configuration!
        let message = try runOnNewThread { () -> String in
            let db = try Database(configuration: configuration)
            var message = ""
            let token = db.objects(Person.self).observe { change in
                if case .error(let error) = change { message = "\(error)" }
            }
            withExtendedLifetime(token) {}
            return message
        }
        XCTAssertTrue(message.contains("pass a serial queue") || message.contains("Pass a serial queue"), message)
    }

    func testObservingAFrozenSnapshotOrAnUnmanagedListIsAnError() throws {
        let db = try openDatabase()
        try db.write { db.add(Person(id: 1, name: "a")) }
        var messages: [String] = []
        let frozen = try db.objects(Person.self).freeze().observe(on: queue) { change in
            if case .error(let error) = change { messages.append("\(error)") }
        }
        let unmanaged = Person(id: 2, name: "b").dogs.observe(on: queue) { change in
            if case .error(let error) = change { messages.append("\(error)") }
        }
        XCTAssertEqual(messages.count, 2)
        XCTAssertTrue(messages.first?.contains("frozen snapshot") ?? false, "\(messages)")
        XCTAssertTrue(messages.last?.contains("unmanaged List") ?? false, "\(messages)")
        withExtendedLifetime([frozen, unmanaged]) {}
    }

    func testDatabaseObserverHearsACommitOfAnotherThread() throws {
        let heard = expectation(description: "didChange")
        let token = onQueue {
            observerDatabase.observe { notification, database in
                XCTAssertEqual(notification, .didChange)
                XCTAssertEqual(database.objects(Person.self).count, 1)
                heard.fulfill()
            }
        }
        let configuration = self.configuration!
        try runOnNewThread {
            let db = try Database(configuration: configuration)
            try db.write { db.add(Person(id: 1, name: "from another thread")) }
        }
        wait(for: [heard], timeout: 20)
        withExtendedLifetime(token) {}
    }

    func testChangesSequenceYieldsFrozenInitialThenUpdate() async throws {
        var iterator = onQueue { observerDatabase.objects(Person.self).changes }.makeAsyncIterator()
        guard case .initial(let initial)? = await iterator.next() else { return XCTFail("no initial") }
        XCTAssertTrue(initial.isFrozen)
        XCTAssertEqual(initial.count, 0)
        try onQueue { try observerDatabase.write { observerDatabase.add(Person(id: 1, name: "a")) } }
        guard case .update(let updated, let deletions, let insertions, _)? = await iterator.next() else {
            return XCTFail("no update")
        }
        XCTAssertTrue(updated.isFrozen)
        XCTAssertEqual(updated.map(\.name), ["a"])
        XCTAssertEqual(deletions, [])
        XCTAssertEqual(insertions, [0])
    }

    func testACommitOfAnotherProcessIsDelivered() throws {
        var notes = Configuration(schema: Notes.self)
        notes.fileURL = directory.url.appendingPathComponent("notes.strata")
        let queue = DispatchQueue(label: "notes observer")
        let database = try queue.sync { try Database(configuration: notes, queue: queue) }
        try queue.sync { try database.write {} }  // creates the file
        let heard = expectation(description: "three notes from the other process")
        let token = queue.sync {
            database.objects(Note.self).observe { change in
                if case .update(let results, _, _, _) = change, results.count == 3 { heard.fulfill() }
            }
        }
        let helper = try BuiltExecutable(named: "strata-object-helper")
        let outcome = try helper.run(["add-notes", notes.fileURL.path, "7", "3"])
        XCTAssertEqual(outcome.status, 0, outcome.errorOutput)
        wait(for: [heard], timeout: 20)
        queue.sync { withExtendedLifetime((token, database)) {} }
    }
}
