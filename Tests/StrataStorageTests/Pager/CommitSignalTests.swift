import Foundation
import StrataStorage
import StrataTestSupport
import XCTest

/// `Store.waitForCommit`: woken by commits of this process and of others, by close; returns on timeout.
final class CommitSignalTests: PagerTestCase {
    /// Commits one small change (the pattern tree the pager tests use).
    private func commitOnce(_ store: Store) throws -> UInt64 {
        var random = SeededGenerator(seed: 7)
        let writer = try store.beginWrite()
        _ = try PatternTree.advance(writer, random: &random)
        try writer.commit()
        return writer.version
    }

    /// Runs `waitForCommit` on another thread; the returned box holds its result once `done` is fulfilled.
    private func waitInBackground(_ store: Store, after version: UInt64, timeout: Double) -> (XCTestExpectation, ResultBox) {
        let done = expectation(description: "waiter returned")
        let box = ResultBox()
        Thread.detachNewThread {
            box.set(store.waitForCommit(after: version, timeout: timeout))
            done.fulfill()
        }
        return (done, box)
    }

    func testACommitOnAnotherThreadWakesAWaiter() throws {
        let store = try Store.open(path: storePath())
        defer { store.close() }
        let before = store.latestCommittedVersion
        let waiters = (0..<3).map { _ in waitInBackground(store, after: before, timeout: 600) }
        usleep(50_000)  // let the waiters fall asleep (they also return correctly if they had not)
        let committed = try commitOnce(store)
        wait(for: waiters.map(\.0), timeout: 60)
        for (_, box) in waiters { XCTAssertEqual(box.value, committed) }
    }

    func testAnInMemoryStoreWakesItsWaiters() throws {
        let store = try Store.inMemory()
        defer { store.close() }
        let before = store.latestCommittedVersion
        let (done, box) = waitInBackground(store, after: before, timeout: 600)
        usleep(20_000)
        let committed = try commitOnce(store)
        wait(for: [done], timeout: 60)
        XCTAssertEqual(box.value, committed)
    }

    func testACommitByAChildProcessWakesAWaiter() throws {
        let path = storePath()
        let store = try Store.open(path: path)
        defer { store.close() }
        let before = store.latestCommittedVersion
        let child = try HelperProcess(executable: try helperExecutable(), arguments: ["commit-after", path, "0.2"])
        XCTAssertNotNil(child.waitForLines(startingWith: "open"))
        let woke = store.waitForCommit(after: before, timeout: 600)
        let result = child.wait()
        XCTAssertEqual(result.status, 0, result.errors)
        XCTAssertTrue(result.output.contains("committed \(woke)\n"), "woke at \(woke); the child printed: \(result.output)")
        XCTAssertGreaterThan(woke, before)
    }

    func testACommitHereWakesAWaiterInAChildProcess() throws {
        let path = storePath()
        let store = try Store.open(path: path)
        defer { store.close() }
        let before = store.latestCommittedVersion
        let child = try HelperProcess(executable: try helperExecutable(), arguments: ["wait-commit", path, "\(before)", "600"])
        XCTAssertNotNil(child.waitForLines(startingWith: "waiting"))
        usleep(100_000)
        let committed = try commitOnce(store)
        let result = child.wait()
        XCTAssertEqual(result.status, 0, result.errors)
        XCTAssertTrue(result.output.contains("woke \(committed)\n"), result.output)
    }

    func testATimeoutReturnsTheVersionWaitedAfter() throws {
        let store = try Store.inMemory()
        defer { store.close() }
        let current = store.latestCommittedVersion
        XCTAssertEqual(store.waitForCommit(after: current, timeout: 0.05), current)
        XCTAssertEqual(store.waitForCommit(after: current, timeout: 0), current)
    }

    func testAnAlreadyNewerVersionReturnsAtOnce() throws {
        let store = try Store.inMemory()
        defer { store.close() }
        let committed = try commitOnce(store)
        XCTAssertEqual(store.waitForCommit(after: committed - 1, timeout: 600), committed)
    }

    func testWaitersFollowManyCommitsAndEndAtClose() throws {
        let store = try Store.open(path: storePath())
        let seen = (0..<4).map { _ in ResultBox() }
        let finished = seen.map { box in
            let done = expectation(description: "waiter loop ended")
            let start = store.latestCommittedVersion
            Thread.detachNewThread {
                var version = start
                // Each wait returns a newer version or, once the store is closed, the same one: then stop.
                while true {
                    let next = store.waitForCommit(after: version, timeout: 600)
                    if next <= version { break }
                    version = next
                    box.set(version)
                }
                done.fulfill()
            }
            return done
        }
        var last: UInt64 = 0
        for _ in 0..<40 { last = try commitOnce(store) }
        // Every waiter sees the last commit (each wait returns the newest version, so none is left behind)...
        let deadline = Date().addingTimeInterval(60)
        while seen.contains(where: { $0.value != last }), Date() < deadline { usleep(1000) }
        // ...and is asleep again, or about to be, when the store closes.
        store.close()
        wait(for: finished, timeout: 60)
        for box in seen { XCTAssertEqual(box.value, last) }
    }

    func testClosingTheStoreWakesItsWaiters() throws {
        let store = try Store.open(path: storePath())
        let before = store.latestCommittedVersion
        let waiters = (0..<2).map { _ in waitInBackground(store, after: before, timeout: 600) }
        usleep(50_000)
        store.close()
        wait(for: waiters.map(\.0), timeout: 60)
        for (_, box) in waiters { XCTAssertEqual(box.value, before) }
        // Closed: waiting returns at once, and the file can be opened again.
        XCTAssertEqual(store.waitForCommit(after: before, timeout: 600), before)
        let reopened = try Store.open(path: storePath())
        reopened.close()
    }
}

/// A value set by one thread and read by another.
final class ResultBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: UInt64?

    /// The value, once set.
    var value: UInt64? { lock.withLock { stored } }

    /// Sets the value.
    func set(_ value: UInt64) { lock.withLock { stored = value } }
}
