import Foundation
import StrataTestSupport
import Synchronization
import XCTest

@testable import Strata

/// `asyncWrite`: waits for the writer lock without blocking a thread of the cooperative pool, runs its block in
/// the database's isolation (a task, an actor) and commits; cancelled before the block runs, it keeps nothing.
final class AsyncWriteTests: DatabaseTestCase {
    /// Two dozen writers (half in tasks with databases of their own, half through an actor's database) wait while
    /// another process holds the writer lock. The pool (two threads on a two-core machine) is never blocked: a
    /// ticker task goes on counting all along. Every write lands once, after the other process lets go.
    func testWritersOfManyTasksAndAnActorWaitForAnotherProcessWithoutBlockingThePool() throws {
        let db = try openDatabase()
        try db.write {}  // creates the file
        let holder = try HeldWriter(path: configuration.fileURL.path, in: directory.url)
        defer { holder.release() }

        let ticks = Counter()
        let ticker = Task {
            while !Task.isCancelled {
                ticks.add()
                try? await Task.sleep(nanoseconds: 1_000_000)
            }
        }
        defer { ticker.cancel() }
        let configuration = self.configuration!
        let actorWriter = AsyncPeople(configuration: configuration)
        let writerCount = 24
        let blocksRun = Counter()
        let writers = Task {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for id in 0..<writerCount {
                    group.addTask {
                        if id.isMultiple(of: 2) {
                            let db = try Database(configuration: configuration)
                            try await db.asyncWrite {
                                blocksRun.add()
                                db.add(Person(id: id, name: "task \(id)"))
                            }
                        } else {
                            try await actorWriter.add(id, counting: blocksRun)
                        }
                    }
                }
                try await group.waitForAll()
            }
        }

        // The writers are all waiting now; the pool must go on running the ticker while they do.
        Thread.sleep(forTimeInterval: 0.3)
        let ticksBefore = ticks.value
        Thread.sleep(forTimeInterval: 1)
        let ticksWhileWaiting = ticks.value - ticksBefore
        XCTAssertGreaterThan(
            ticksWhileWaiting, 50,
            "the ticker advanced \(ticksWhileWaiting) times in a second while writers waited: threads were blocked")
        XCTAssertEqual(blocksRun.value, 0, "a write ran while another process held the writer lock")
        db.refresh()
        XCTAssertEqual(db.objects(Person.self).count, 0)

        holder.release()
        try wait(for: writers, timeout: 60)
        XCTAssertEqual(blocksRun.value, writerCount)
        db.refresh()
        let ids = db.objects(Person.self).map(\.id).sorted()
        XCTAssertEqual(ids, Array(0..<writerCount), "every write lands once")
    }

    /// A writer cancelled while it waits throws `CancellationError`; its block never runs and nothing is kept.
    func testCancellingAWaitingWriteKeepsNothing() throws {
        let db = try openDatabase()
        try db.write {}
        let holder = try HeldWriter(path: configuration.fileURL.path, in: directory.url)
        defer { holder.release() }
        let configuration = self.configuration!
        let blocksRun = Counter()
        let waiting = Task {
            let db = try Database(configuration: configuration)
            try await db.asyncWrite {
                blocksRun.add()
                db.add(Person(id: 7, name: "never"))
            }
        }
        Thread.sleep(forTimeInterval: 0.2)
        waiting.cancel()
        let outcome = try waitForResult(of: waiting, timeout: 20)
        guard case .failure(let error) = outcome, error is CancellationError else {
            return XCTFail("a cancelled write ended with \(outcome), not CancellationError")
        }
        holder.release()
        try db.write { db.add(Person(id: 8, name: "after")) }  // the lock is free again: nothing is left holding it
        XCTAssertEqual(blocksRun.value, 0)
        XCTAssertNil(db.object(ofType: Person.self, forPrimaryKey: 7))
        XCTAssertEqual(db.objects(Person.self).map(\.id), [8])
    }

    /// The block's value is returned; a block that throws keeps nothing; a write inside another is refused.
    func testAsyncWriteReturnsTheValueAndKeepsNothingWhenTheBlockThrows() async throws {
        let db = try openDatabase()
        let name = try await db.asyncWrite { () -> String in
            let ana = Person(id: 1, name: "Ana")
            db.add(ana)
            return ana.name
        }
        XCTAssertEqual(name, "Ana")
        struct Refused: Error {}
        do {
            try await db.asyncWrite {
                db.add(Person(id: 2, name: "Bo"))
                throw Refused()
            }
            XCTFail("the block's error was not thrown")
        } catch is Refused {}
        XCTAssertEqual(db.objects(Person.self).map(\.id), [1])
        XCTAssertFalse(db.isInWriteTransaction)

        db.beginWrite()
        do {
            try await db.asyncWrite {}
            XCTFail("a write inside a write was not refused")
        } catch StrataError.transactionMisuse {}
        db.cancelWrite()
    }

    /// A database confined to an actor: `asyncWrite` runs its block on the actor, and the actor's other calls
    /// run while a write waits.
    func testAnActorsDatabaseWritesAsynchronously() async throws {
        let people = AsyncPeople(configuration: configuration)
        let blocksRun = Counter()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for id in 0..<50 { group.addTask { try await people.add(id, counting: blocksRun) } }
            try await group.waitForAll()
        }
        let count = try await people.count()
        XCTAssertEqual(count, 50)
        XCTAssertEqual(blocksRun.value, 50)
    }

    // MARK: Helpers

    /// Waits on this (non-pool) thread for `task` to finish, failing after `timeout` seconds.
    private func wait<T: Sendable>(for task: Task<T, Error>, timeout: TimeInterval) throws {
        _ = try waitForResult(of: task, timeout: timeout).get()
    }

    private func waitForResult<T: Sendable>(
        of task: Task<T, Error>, timeout: TimeInterval
    ) throws -> Result<T, Error> {
        let box = Mutex<Result<T, Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            let result = await task.result
            box.withLock { $0 = result }
            done.signal()
        }
        guard done.wait(timeout: .now() + timeout) == .success else {
            throw StrataError.invalidArgument("the writers did not finish within \(timeout) s")
        }
        return try XCTUnwrap(box.withLock { $0 })
    }
}

/// A counter shared by tasks.
private final class Counter: Sendable {
    private let count = Atomic<Int>(0)
    func add() { count.add(1, ordering: .relaxed) }
    var value: Int { count.load(ordering: .relaxed) }
}

/// An actor holding its own database, written with `asyncWrite`.
private actor AsyncPeople {
    private let configuration: Configuration
    private var opened: Database?

    init(configuration: Configuration) { self.configuration = configuration }

    private func database() throws -> Database {
        if let opened { return opened }
        let database = try Database(configuration: configuration, actor: self)
        opened = database
        return database
    }

    func add(_ id: Int, counting blocks: Counter) async throws {
        let db = try database()
        try await db.asyncWrite {
            blocks.add()
            db.add(Person(id: id, name: "actor \(id)"))
        }
    }

    func count() throws -> Int { try database().objects(Person.self).count }
}

/// Another process holding the writer lock of a file (`strata-test-helper hold-writer`) until released.
private final class HeldWriter {
    private let process: Process
    private let releaseFile: URL

    /// Starts the helper and waits until it holds the lock.
    init(path: String, in directory: URL) throws {
        releaseFile = directory.appendingPathComponent("release-\(UUID().uuidString)")
        let helper = try BuiltExecutable(named: "strata-test-helper")
        let (process, stdout, _) = try helper.start(["hold-writer", path, releaseFile.path])
        self.process = process
        var output = ""
        let deadline = Date().addingTimeInterval(20)
        while !output.contains("holding"), Date() < deadline, process.isRunning {
            output += String(decoding: stdout.fileHandleForReading.availableData, as: UTF8.self)
        }
        guard output.contains("holding") else {
            process.terminate()
            throw StrataError.invalidArgument("strata-test-helper hold-writer did not take the lock: \(output)")
        }
    }

    /// Lets the helper roll back and end, and waits for it.
    func release() {
        guard process.isRunning else { return }
        _ = FileManager.default.createFile(atPath: releaseFile.path, contents: Data())
        process.waitUntilExit()
    }
}
