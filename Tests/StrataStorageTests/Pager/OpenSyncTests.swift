import Foundation
@testable import StrataStorage
import StrataTestSupport
import XCTest

/// A first opener syncs the file before building on it, unless the lock file says the last session left exactly
/// the version it opens current and synced (`LockFile.markSynced`): reopening a file closed cleanly costs no disk
/// flush, and a file whose newest version may still be only in the system's cache is synced as before.
final class OpenSyncTests: PagerTestCase {
    /// Counts the syncs of a `RecordingStorage`.
    private final class SyncCounter: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0
        var count: Int { lock.withLock { value } }
        func add() { lock.withLock { value += 1 } }
    }

    private func counting(_ recording: RecordingStorage) -> SyncCounter {
        let counter = SyncCounter()
        recording.onSync = { _, _ in counter.add() }
        return counter
    }

    /// Unsynced writes (a close's trim of the file's unused tail is a truncate, left to the next sync: whether it
    /// reaches the disk or not, the file opens the same).
    private func pendingWrites(_ recording: RecordingStorage) -> Int {
        unsyncedOperations(recording).filter { if case .write = $0 { true } else { false } }.count
    }

    func testReopeningAFileLeftSyncedDoesNotSync() throws {
        for durability in [Durability.full, .batched] {
            let recording = RecordingStorage(path: "db")
            var options = StoreOptions(durability: durability, io: recording)
            options.batchInterval = 3600
            var random = SeededGenerator(seed: 301)
            var store = try Store.open(path: "db", options: options)
            let state = try commitSteps(store, 3, random: &random)
            store.close()
            XCTAssertEqual(pendingWrites(recording), 0, "\(durability): the session left every write synced")

            let syncs = counting(recording)
            store = try Store.open(path: "db", options: options)
            XCTAssertEqual(syncs.count, 0, "\(durability): the open synced a file the last session left synced")
            let (version, reopened) = try checkedState(store)
            XCTAssertEqual(version, 4, "\(durability)")
            XCTAssertEqual(reopened, state, "\(durability)")
            // The open marked the version synced again: a commit now, and a power loss, keep it.
            let next = try commitSteps(store, 1, random: &random)
            store.close()
            XCTAssertEqual(pendingWrites(recording), 0, "\(durability)")
            store = try Store.open(path: "db", options: options)
            XCTAssertEqual(try checkedState(store).1, next, "\(durability)")
            store.close()
        }
    }

    /// `.none` counts its commits as durable without syncing them: the next first opener must sync, and from then
    /// on every power-loss image holds the version it opened.
    func testAnOpenAfterUnsyncedCommitsSyncs() throws {
        let recording = RecordingStorage(path: "db")
        var random = SeededGenerator(seed: 302)
        var store = try Store.open(path: "db", options: StoreOptions(durability: .none, io: recording))
        let state = try commitSteps(store, 4, random: &random)
        store.close()
        XCTAssertGreaterThan(pendingWrites(recording), 0, ".none leaves its commits unsynced")

        let syncs = counting(recording)
        store = try Store.open(path: "db", options: StoreOptions(durability: .full, io: recording))
        defer { store.close() }
        XCTAssertEqual(syncs.count, 1, "the open must sync commits nobody synced")
        XCTAssertTrue(unsyncedOperations(recording).isEmpty)
        let image = MemoryStorage(capacity: 1 << 28)
        try image.setContents(recording.durableContents, ofFile: "db")
        let durable = try Store.open(path: "db", options: StoreOptions(io: image))
        defer { durable.close() }
        XCTAssertEqual(try checkedState(durable).1, state)
    }

    /// A data file replaced under a lock file that marked another file's version synced (a restored copy whose
    /// newest version has the same number) is synced at open: the whole meta slot must match, not the version.
    func testAReplacedFileIsSyncedAtOpen() throws {
        let memory = MemoryStorage(capacity: 1 << 30)
        let recording = RecordingStorage(inner: memory, path: "db")
        var random = SeededGenerator(seed: 303)
        var store = try Store.open(path: "db", options: StoreOptions(io: recording))
        try commitSteps(store, 2, random: &random)
        store.close()

        // Another file, reaching the same version with other contents, written where the lock file stays.
        let other = MemoryStorage(capacity: 1 << 28)
        var otherRandom = SeededGenerator(seed: 304)
        let otherStore = try Store.open(path: "db", options: StoreOptions(io: other))
        let otherState = try commitSteps(otherStore, 2, random: &otherRandom)
        otherStore.close()
        try memory.setContents(try XCTUnwrap(other.contents(ofFile: "db")), ofFile: "db")

        let syncs = counting(recording)
        store = try Store.open(path: "db", options: StoreOptions(io: recording))
        defer { store.close() }
        XCTAssertEqual(syncs.count, 1, "a file the lock file does not describe must be synced at open")
        let (version, state) = try checkedState(store)
        XCTAssertEqual(version, 3)
        XCTAssertEqual(state, otherState)
    }
}
