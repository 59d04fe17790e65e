import Foundation
import Synchronization
import XCTest

@testable import Strata

final class ThreadingTests: DatabaseTestCase {
    /// A database opened inside a Swift task belongs to the task: after each `await` the task may resume on
    /// another thread of the pool, and the database, its results and its objects go on working there. (Realm
    /// stops the program at the first such `await`; so did Strata when it confined such a database to a thread.)
    func testADatabaseOpenedInATaskFollowsItAcrossAwaits() async throws {
        let db = try openDatabase()
        let first = try db.write { db.create(Person.self, value: ["id": -1, "name": "first"]) }
        var threads = Set<String>()
        for i in 0..<200 {
            try db.write { db.add(Person(id: i, name: "p\(i)")) }
            try await _Concurrency.Task.sleep(nanoseconds: 100_000)
            threads.insert("\(pthread_self())")
            XCTAssertEqual(db.objects(Person.self).count, i + 2)
            XCTAssertEqual(first.name, "first")
        }
        XCTAssertGreaterThan(threads.count, 1, "the task never changed threads: nothing was shown")
    }

    /// A data layer that is an actor holding its database: calls from a hundred tasks run on the actor, on
    /// whatever threads, and the database is its own (`Database(configuration:actor:)`, as Realm's `Realm(actor:)`).
    func testADatabaseConfinedToAnActorServesCallsFromManyTasks() async throws {
        let people = People(configuration: configuration)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for id in 0..<100 { group.addTask { try await people.add(id) } }
            try await group.waitForAll()
        }
        let count = try await people.count()
        XCTAssertEqual(count, 100)
    }

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
        let shared = try FrozenResults(frozen)
        try db.write { db.delete(db.objects(Person.self)) }
        XCTAssertEqual(db.objects(Person.self).count, 0)
        let names = try runOnNewThread { shared.map(\.name) }
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
        let frozen = try FrozenResults(db.objects(Person.self))
        let sums = try (0..<4).map { _ in
            try runOnNewThread { frozen.reduce(0) { $0 + $1.age } }
        }
        XCTAssertEqual(Set(sums), [199 * 200 / 2])
    }

    /// What makes `FrozenResults` `Sendable`: eight threads read one at the same time (iterating, counting,
    /// subscripting, filtering), while the live database goes on changing, and all see the frozen version.
    func testFrozenResultsAreReadByManyThreadsAtOnce() throws {
        let db = try openDatabase()
        try db.write { for i in 0..<300 { db.add(Person(id: i, name: "p\(i)", age: i)) } }
        let shared = try FrozenResults(db.objects(Person.self))
        XCTAssertTrue(shared.results.isFrozen)
        let sums = Mutex<[Int]>([])
        let writer = Thread { [configuration] in
            guard let other = try? Database(configuration: configuration!) else { return }
            for i in 300..<400 { try? other.write { other.add(Person(id: i, name: "late", age: 1)) } }
        }
        writer.start()
        DispatchQueue.concurrentPerform(iterations: 8) { round in
            var sum = 0
            for _ in 0..<5 {
                sum = shared.reduce(0) { $0 + $1.age }
                XCTAssertEqual(shared.count, 300)
                XCTAssertEqual(shared[round].age, round)
                XCTAssertEqual(try? shared.results.filter("age < 10").count, 10)
            }
            sums.withLock { $0.append(sum) }
        }
        XCTAssertEqual(sums.withLock { $0 }, Array(repeating: 299 * 300 / 2, count: 8))
    }

    /// Live results are frozen when wrapped: commits after the wrap do not show.
    func testFrozenResultsOfLiveResultsAreFrozen() throws {
        let db = try openDatabase()
        try db.write { db.add(Person(id: 1, name: "Ana")) }
        let shared = try FrozenResults(db.objects(Person.self))
        try db.write { db.add(Person(id: 2, name: "Bo")) }
        XCTAssertEqual(shared.map(\.id), [1])
        db.beginWrite()
        XCTAssertThrowsError(try FrozenResults(db.objects(Person.self)))
        db.cancelWrite()
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

/// An actor that keeps its database, opened confined to itself on first use.
private actor People {
    private let configuration: Configuration
    private var opened: Database?

    init(configuration: Configuration) { self.configuration = configuration }

    private func database() throws -> Database {
        if let opened { return opened }
        let database = try Database(configuration: configuration, actor: self)
        opened = database
        return database
    }

    func add(_ id: Int) throws {
        let db = try database()
        try db.write { db.add(Person(id: id, name: "p\(id)")) }
    }

    func count() throws -> Int { try database().objects(Person.self).count }
}
