import Foundation
@testable import StrataStorage
import StrataTestSupport
import XCTest

/// `.batched` commits are synced by a deferred flush and on close; `.full` commits are durable on return.
final class DurabilityTests: PagerTestCase {
    func testFullCommitIsDurableWhenCommitReturns() throws {
        let recording = RecordingStorage(path: "db")
        let store = try Store.open(path: "db", options: StoreOptions(durability: .full, io: recording))
        var random = SeededGenerator(seed: 91)
        try commitSteps(store, 3, random: &random)
        XCTAssertTrue(unsyncedOperations(recording).isEmpty, "nothing may be left unsynced")
        XCTAssertEqual(try openDurableImage(recording), 4)
        store.close()
    }

    func testBatchedCommitsAreSyncedOnClose() throws {
        let recording = RecordingStorage(path: "db")
        let store = try openBatched(recording)
        var random = SeededGenerator(seed: 92)
        try commitSteps(store, 5, random: &random)
        XCTAssertFalse(unsyncedOperations(recording).isEmpty, "batched commits wait for the next sync")
        XCTAssertLessThan(try openDurableImage(recording), 6)
        store.close()
        XCTAssertEqual(try openDurableImage(recording), 6, "close syncs what is pending")
    }

    func testBatchedCommitIsSyncedWithinTheIntervalWithoutFurtherCommits() throws {
        let recording = RecordingStorage(path: "db")
        let store = try openBatched(recording, flushingAfter: 0.02)
        defer { store.close() }
        var random = SeededGenerator(seed: 93)
        try commitSteps(store, 2, random: &random)
        // Wait (boundedly) for the deferred flush; no assertion on how long it took.
        for _ in 0..<1000 where !unsyncedOperations(recording).isEmpty { usleep(10_000) }
        XCTAssertTrue(unsyncedOperations(recording).isEmpty, "the deferred flush never ran")
        XCTAssertEqual(try openDurableImage(recording), 3)
    }

    func testFlushMakesBatchedCommitsDurable() throws {
        let recording = RecordingStorage(path: "db")
        let store = try openBatched(recording)
        defer { store.close() }
        var random = SeededGenerator(seed: 94)
        try commitSteps(store, 4, random: &random)
        try store.flush()
        XCTAssertEqual(try openDurableImage(recording), 5)
    }

    /// The version a power failure right now would leave.
    /// A process closing a `.batched` store reads the current version, syncs, and marks that version durable in
    /// the lock file, without the writer lock. Meanwhile another process may commit and flush newer versions; the
    /// late mark must not take the durable version back, or the next commits overwrite the flushed version's meta
    /// slot and recycle its pages, and a power loss loses it. Here the late mark names version 1 (slot 0) after
    /// version 3 was flushed into slot 1; every power-loss image of two more commits must still hold version 3.
    func testALateDurableMarkNeverTakesTheDurableVersionBack() throws {
        let recording = RecordingStorage(path: "db")
        let store = try openBatched(recording)
        defer { store.close() }
        var random = SeededGenerator(seed: 93)
        let late = store.lockFile.current
        var states: [UInt64: PatternTree.State] = [:]
        try commit(2, to: store, recordingIn: &states, random: &random)
        try store.flush()
        let flushed = store.lockFile.durable
        XCTAssertEqual(flushed.version, 3)

        store.lockFile.markDurable(version: try XCTUnwrap(late.meta).version, slot: late.slot)
        XCTAssertEqual(store.lockFile.durable.version, flushed.version, "the durable version went back")
        XCTAssertEqual(store.lockFile.durable.slot, flushed.slot)

        try commit(2, to: store, recordingIn: &states, random: &random)
        try checkPowerLossImages(of: recording, oldest: flushed.version, newest: store.latestCommittedVersion, states: states, random: &random)
    }

    /// The first process to open a store recovers it and tells the processes after it, through the lock file,
    /// which version is durable. A process killed with `.batched` commits not yet synced leaves them in the
    /// system's cache, where that first opener reads them as the newest version. If it only marked them durable, a
    /// writer opening next would write over the last synced version's meta slot and recycle its pages, and a power
    /// loss would leave no whole version. So a read-only first opener syncs too. (Here the writer stays open, as
    /// in-memory locks never conflict: the read-only store opens as the first opener would after the writer died.)
    func testAReadOnlyFirstOpenerSyncsTheVersionItMarksDurable() throws {
        let recording = RecordingStorage(path: "db")
        let writer = try openBatched(recording)
        defer { writer.close() }
        var random = SeededGenerator(seed: 94)
        var states: [UInt64: PatternTree.State] = [:]
        try commit(2, to: writer, recordingIn: &states, random: &random)
        XCTAssertFalse(unsyncedOperations(recording).isEmpty)

        let reader = try Store.open(path: "db", options: StoreOptions(readOnly: true, io: recording))
        defer { reader.close() }
        XCTAssertEqual(reader.lockFile.durable.version, 3)
        XCTAssertTrue(unsyncedOperations(recording).isEmpty, "the read-only first opener marked version 3 durable unsynced")

        // The writer builds on version 3 as durable; every power-loss image of its next commits must hold it.
        try commit(2, to: writer, recordingIn: &states, random: &random)
        try checkPowerLossImages(of: recording, oldest: 3, newest: writer.latestCommittedVersion, states: states, random: &random)
    }

    /// Where the system refuses a read-only opener's sync, it leaves the durable version unknown (0), and the first
    /// write transaction syncs before it builds on the version.
    func testAFirstWriteSyncsWhenTheReadOnlyFirstOpenerCouldNot() throws {
        let recording = RecordingStorage(path: "db")
        let writer = try openBatched(recording)
        defer { writer.close() }
        var random = SeededGenerator(seed: 95)
        try commitSteps(writer, 2, random: &random)

        let refusing = FailingStorage(inner: recording, failing: .sync, at: 1, persistent: true)
        let reader = try Store.open(path: "db", options: StoreOptions(readOnly: true, io: refusing))
        defer { reader.close() }
        XCTAssertEqual(reader.lockFile.durable.version, 0)
        XCTAssertFalse(unsyncedOperations(recording).isEmpty)

        let transaction = try writer.beginWrite()
        XCTAssertTrue(unsyncedOperations(recording).isEmpty, "the first write built on an unsynced version")
        XCTAssertEqual(writer.lockFile.durable.version, 3)
        transaction.rollback()
        XCTAssertEqual(try openDurableImage(recording), 3)
    }

    /// A `.batched` store over `recording` whose deferred flush runs `interval` seconds after a commit.
    private func openBatched(_ recording: RecordingStorage, flushingAfter interval: Double = 3600) throws -> Store {
        var options = StoreOptions(durability: .batched, io: recording)
        options.batchInterval = interval
        return try Store.open(path: "db", options: options)
    }

    /// Commits `count` pattern-tree transactions to `store`, recording each version's state.
    private func commit(
        _ count: Int, to store: Store, recordingIn states: inout [UInt64: PatternTree.State], random: inout SeededGenerator
    ) throws {
        for _ in 0..<count { states[store.latestCommittedVersion + 1] = try commitSteps(store, 1, random: &random) }
    }

    /// Checks that every power-loss image of `recording` (synced writes plus any of the pending ones, torn or
    /// not) opens at a version from `oldest` to `newest` with its state.
    private func checkPowerLossImages(
        of recording: RecordingStorage, oldest: UInt64, newest: UInt64, states: [UInt64: PatternTree.State],
        random: inout SeededGenerator
    ) throws {
        let images = CrashImage.images(
            durable: recording.durableContents, pending: recording.pendingOperations, count: 40, using: &random)
        for image in images { try checkImage(image, oldest: oldest, newest: newest, states: states) }
    }

    private func openDurableImage(_ recording: RecordingStorage) throws -> UInt64 {
        let storage = MemoryStorage(capacity: 1 << 28)
        try storage.setContents(recording.durableContents, ofFile: "db")
        let store = try Store.open(path: "db", options: StoreOptions(io: storage))
        defer { store.close() }
        return try checkedState(store).0
    }
}
