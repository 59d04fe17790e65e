import Foundation
import Observation
import StrataTestSupport
import Synchronization
import XCTest

@_spi(StrataGenerated) @testable import Strata

/// Swift's Observation over managed objects and results: reads inside `withObservationTracking` register what
/// they read, and commits of other threads and processes that change it fire `onChange`; commits that change
/// only other properties do not, and reads outside tracking set nothing up.
final class ObservationTrackingTests: NotificationTestCase {
    func testAPropertyReadInsideTrackingFiresOnACommitOfAnotherThread() throws {
        let writer = try openDatabase()
        try writer.write { writer.add(Person(id: 1, name: "Ana", age: 30)) }
        let fired = Counter()
        // Tracking follows the object read: it is kept (as a view keeps the objects it shows).
        let tracked = onQueue {
            var ana: Person?
            let name = withObservationTracking {
                ana = observerDatabase.object(ofType: Person.self, forPrimaryKey: 1)
                return ana?.name
            } onChange: {
                fired.add()
            }
            XCTAssertEqual(name, "Ana")
            return ana!
        }
        startBarrier()
        let version = try runOnNewThread { [configuration] in
            let other = try Database(configuration: configuration!)
            try other.write { other.object(ofType: Person.self, forPrimaryKey: 1)!.name = "Ana B." }
            return other.version
        }
        waitForDelivery(of: version)
        XCTAssertEqual(fired.value, 1)
        onQueue {
            XCTAssertEqual(tracked.name, "Ana B.")
        }
        onQueue { withExtendedLifetime(tracked) {} }
    }

    func testACommitThatChangesOnlyOtherPropertiesDoesNotFire() throws {
        let writer = try openDatabase()
        try writer.write {
            writer.add(Person(id: 1, name: "Ana", age: 30))
            writer.add(Person(id: 2, name: "Bo", age: 40))
        }
        let fired = Counter()
        let tracked = onQueue {
            // Looked up before any tracking: its reads are tracked once the database has been read under tracking
            // (here through `objects(_:)`), as a SwiftUI view's list read does.
            let ana = observerDatabase.object(ofType: Person.self, forPrimaryKey: 1)!
            XCTAssertFalse(observerDatabase.observationArmed)
            withObservationTracking { _ = observerDatabase.objects(Person.self) } onChange: {}
            XCTAssertTrue(observerDatabase.observationArmed)
            _ = withObservationTracking { ana.name } onChange: { fired.add() }
            return ana
        }
        startBarrier()
        let ana = writer.object(ofType: Person.self, forPrimaryKey: 1)!
        try writer.write { ana.age = 31 }
        waitForDelivery(of: writer.version)
        XCTAssertEqual(fired.value, 0, "a change of age fired a tracking of name")
        try writer.write { writer.object(ofType: Person.self, forPrimaryKey: 2)!.name = "Bo B." }
        waitForDelivery(of: writer.version)
        XCTAssertEqual(fired.value, 0, "a change of another object's name fired a tracking of this one's")
        try writer.write { ana.name = "Ana B." }
        waitForDelivery(of: writer.version)
        XCTAssertEqual(fired.value, 1)
        onQueue { withExtendedLifetime(tracked) {} }
    }

    func testResultsCountFiresOnInsertionsAndElementsOnModifications() throws {
        let writer = try openDatabase()
        try writer.write { writer.add(Person(id: 1, name: "Ana", age: 30)) }
        let countFired = Counter()
        let elementsFired = Counter()
        let people = onQueue {
            let people = observerDatabase.objects(Person.self)
            let count = withObservationTracking { people.count } onChange: { countFired.add() }
            XCTAssertEqual(count, 1)
            let names = withObservationTracking { people.map(\.name) } onChange: { elementsFired.add() }
            XCTAssertEqual(names, ["Ana"])
            return people
        }
        startBarrier()
        let ana = writer.object(ofType: Person.self, forPrimaryKey: 1)!
        try writer.write { ana.age = 31 }
        waitForDelivery(of: writer.version)
        XCTAssertEqual(countFired.value, 0, "a modification fired a tracking of the count")
        XCTAssertEqual(elementsFired.value, 1, "a modification of an element did not fire a tracking of the elements")
        try writer.write { writer.add(Person(id: 2, name: "Bo")) }
        waitForDelivery(of: writer.version)
        XCTAssertEqual(countFired.value, 1)
        onQueue { withExtendedLifetime(people) {} }
    }

    func testSnapshotsInsideTrackingFireOnAModificationOfAnElement() throws {
        let writer = try openDatabase()
        try writer.write { for i in 0..<40 { writer.add(Person(id: i, name: "p\(i)", age: i)) } }
        let fired = Counter()
        let people = onQueue {
            let people = observerDatabase.objects(Person.self)
            let snapshots = withObservationTracking { people.snapshots() } onChange: { fired.add() }
            XCTAssertEqual(snapshots.map(\.age), Array(0..<40))
            return people
        }
        startBarrier()
        try writer.write { writer.object(ofType: Person.self, forPrimaryKey: 3)!.age = 99 }
        waitForDelivery(of: writer.version)
        XCTAssertEqual(fired.value, 1, "a modification of an element did not fire a tracking of the snapshots")
        onQueue { withExtendedLifetime(people) {} }
    }

    func testACommitOfAnotherProcessFiresAndOneOfAnotherPropertyDoesNot() throws {
        var notes = Configuration(schema: Notes.self)
        notes.fileURL = directory.url.appendingPathComponent("notes.strata")
        let queue = DispatchQueue(label: "notes tracking")
        let database = try queue.sync { try Database(configuration: notes, queue: queue) }
        let id = try queue.sync { try database.write { database.create(Note.self, value: ["text": "a"]).id } }
        let textFired = Counter()
        let heard = expectation(description: "the other process's change of the text")
        let writerSeen = expectation(description: "the other process's change of the writer, delivered")
        let (note, token) = queue.sync {
            var found: Note?
            _ = withObservationTracking {
                found = database.object(ofType: Note.self, forPrimaryKey: id)
                return found?.text
            } onChange: {
                textFired.add()
                heard.fulfill()
            }
            let note = found!
            // Registered after the tracking's own observation: one delivery runs them in that order, so when this
            // block runs the tracking has seen the same commit.
            let token = note.observe(keyPaths: ["writer"]) { change in
                if case .change = change { writerSeen.fulfill() }
            }
            return (note, token)
        }
        let helper = try BuiltExecutable(named: "strata-object-helper")
        let other = try helper.run(["edit-note", notes.fileURL.path, "\(id)", "writer", "9"])
        XCTAssertEqual(other.status, 0, other.errorOutput)
        wait(for: [writerSeen], timeout: 20)
        XCTAssertEqual(textFired.value, 0, "another process's change of writer fired a tracking of text")
        let edited = try helper.run(["edit-note", notes.fileURL.path, "\(id)", "text", "b"])
        XCTAssertEqual(edited.status, 0, edited.errorOutput)
        wait(for: [heard], timeout: 20)
        XCTAssertEqual(textFired.value, 1)
        queue.sync { withExtendedLifetime((database, note, token)) {} }
    }

    /// Reads outside tracking set nothing up: no registrar for the object, no observation, no notifier, and the
    /// database's property reads do not even ask whether they are tracked until a tracked read arms them.
    func testReadsOutsideTrackingSetNothingUp() throws {
        let db = try openDatabase()
        try db.write { for i in 0..<20 { db.add(Person(id: i, name: "p\(i)", age: i)) } }
        let people = db.objects(Person.self)
        var total = 0
        for person in people { total += person.age + person.name.count + person.tags.count }
        XCTAssertEqual(total, 190 + 10 * 2 + 10 * 3)
        XCTAssertEqual(people.count, 20)
        XCTAssertNil(db.notifier, "a read outside tracking started an observation")
        XCTAssertNil(people.cache.tracking)
        XCTAssertFalse(db.observationArmed)
        XCTAssertEqual(people.snapshots().count, 20)
        XCTAssertNil(people.cache.tracking, "snapshots outside tracking registered the results")
        XCTAssertNil(db.notifier)
        let first = try XCTUnwrap(people.first)
        _ = first.name
        XCTAssertFalse((first.managedAccessor as? ManagedRow)?.isTracked ?? true)
        let tracked = withObservationTracking { db.object(ofType: Person.self, forPrimaryKey: 3)! } onChange: {}
        XCTAssertTrue(db.observationArmed)
        XCTAssertFalse((first.managedAccessor as? ManagedRow)?.isTracked ?? true)
        _ = withObservationTracking { first.name + tracked.name } onChange: {}
        XCTAssertTrue((first.managedAccessor as? ManagedRow)?.isTracked ?? false)
        XCTAssertTrue((tracked.managedAccessor as? ManagedRow)?.isTracked ?? false)
    }
}

/// A counter shared with `onChange` closures.
private final class Counter: Sendable {
    private let count = Atomic<Int>(0)
    func add() { count.add(1, ordering: .relaxed) }
    var value: Int { count.load(ordering: .relaxed) }
}
