import Foundation
import StrataStorage
import StrataTestSupport
import XCTest

/// Every state a power failure could leave (synced writes kept, any subset and order of the unsynced ones, torn
/// sectors and pages) opens as a committed version no older than the last durable one, and verifies.
final class PowerLossTests: PagerTestCase {
    private final class Capture: @unchecked Sendable {
        let lock = NSLock()
        var events: [(durable: [UInt8], pending: [RecordingStorage.PendingOperation])] = []
    }

    func testEveryCrashImageOfFullCommitsOpensAtOrAfterLastDurableVersion() throws {
        let recording = RecordingStorage(path: "db")
        let capture = Capture()
        recording.onSync = { durable, pending in capture.lock.withLock { capture.events.append((durable, pending)) } }
        let store = try Store.open(path: "db", options: StoreOptions(durability: .full, io: recording))
        defer { store.close() }
        var random = SeededGenerator(seed: 21)
        var states: [UInt64: PatternTree.State] = [1: PatternTree.State()]
        let commits = longTests ? 200 : 30
        var images = 0
        for _ in 0..<commits {
            let before = store.latestCommittedVersion
            capture.lock.withLock { capture.events.removeAll() }
            let writer = try store.beginWrite()
            states[writer.version] = try PatternTree.advance(writer, random: &random)
            try writer.commit()
            let events = capture.lock.withLock { capture.events }
            XCTAssertEqual(events.count, 1, "a .full commit syncs exactly once")
            for event in events {
                for image in CrashImage.images(durable: event.durable, pending: event.pending, count: 12, using: &random) {
                    try checkImage(image, oldest: before, newest: before + 1, states: states)
                    images += 1
                }
            }
        }
        XCTAssertEqual(images, commits * 12)
    }

    func testEveryCrashImageOfBatchedCommitsOpensAtOrAfterLastDurableVersion() throws {
        let recording = RecordingStorage(path: "db")
        var options = StoreOptions(durability: .batched, io: recording)
        options.batchInterval = 3600  // syncs only when the test flushes
        let store = try Store.open(path: "db", options: options)
        defer { store.close() }
        var random = SeededGenerator(seed: 22)
        var states: [UInt64: PatternTree.State] = [1: PatternTree.State()]
        var durable: UInt64 = 1
        for round in 0..<(longTests ? 200 : 40) {
            let writer = try store.beginWrite()
            states[writer.version] = try PatternTree.advance(writer, random: &random)
            try writer.commit()
            // A power failure now, with several commits unsynced.
            let images = CrashImage.images(
                durable: recording.durableContents, pending: recording.pendingOperations, count: 6, using: &random)
            for image in images {
                try checkImage(image, oldest: durable, newest: store.latestCommittedVersion, states: states)
            }
            if round % 5 == 4 {
                try store.flush()
                durable = store.latestCommittedVersion
            }
        }
    }

    /// The same through the table layer (`StepTable`: decimals, ObjectIds, a mixed value, a `set<any>`, a
    /// `map<any>` with links that are unlinked as rows go, and embedded rows deleted with their owners): every crash
    /// image of every commit opens at the step before it or at its own, with every row whole, and verifies.
    func testEveryCrashImageOfTableCommitsOpensAtAWholeStep() throws {
        let recording = RecordingStorage(path: "db")
        let capture = Capture()
        recording.onSync = { durable, pending in capture.lock.withLock { capture.events.append((durable, pending)) } }
        let store = try Store.open(path: "db", options: StoreOptions(durability: .full, io: recording))
        defer { store.close() }
        var random = SeededGenerator(seed: 24)
        let commits = longTests ? 120 : 24
        var checked = 0
        for step in 1...Int64(commits) {
            capture.lock.withLock { capture.events.removeAll() }
            XCTAssertEqual(try StepTable.advance(store), step)
            let events = capture.lock.withLock { capture.events }
            XCTAssertEqual(events.count, 1, "a .full commit syncs exactly once")
            for event in events {
                let images = CrashImage.images(durable: event.durable, pending: event.pending, count: 8, using: &random)
                for image in images {
                    let storage = MemoryStorage(capacity: 1 << 28)
                    try storage.setContents(image, ofFile: "db")
                    let opened = try Store.open(path: "db", options: StoreOptions(io: storage))
                    defer { opened.close() }
                    let found = try StepTable.read(opened)
                    XCTAssertTrue(found == step - 1 || found == step, "step \(step): the image opened at step \(found)")
                    _ = try opened.verifyAll()
                    checked += 1
                }
            }
        }
        XCTAssertEqual(checked, commits * 8)
    }

    func testTornMetaSlotFallsBackToPreviousVersion() throws {
        let recording = RecordingStorage(path: "db")
        let capture = Capture()
        recording.onSync = { durable, pending in capture.lock.withLock { capture.events.append((durable, pending)) } }
        let store = try Store.open(path: "db", options: StoreOptions(io: recording))
        var random = SeededGenerator(seed: 23)
        var states: [UInt64: PatternTree.State] = [1: PatternTree.State()]
        states[2] = try commitSteps(store, 1, random: &random)
        capture.lock.withLock { capture.events.removeAll() }
        states[3] = try commitSteps(store, 1, random: &random)
        store.close()
        let event = try XCTUnwrap(capture.lock.withLock { capture.events.first })
        // Everything but the last write (the meta slot) reached the disk, and the meta slot half of it.
        var operations = event.pending
        guard case let .write(offset, bytes) = operations.removeLast() else { return XCTFail("the last write is the meta slot") }
        operations.append(.write(offset: offset, bytes: Array(bytes.prefix(20))))
        let image = CrashImage.images(durable: event.durable, pending: operations, count: 2, using: &random)[1]
        let version = try checkImage(image, oldest: 2, newest: 3, states: states)
        XCTAssertEqual(version, 2)
    }
}
