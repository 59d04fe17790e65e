import Foundation
@testable import StrataStorage
import StrataTestSupport
import XCTest

/// A write transaction holding more new nodes than `StoreOptions.spillThreshold` writes its oldest ones to the
/// file early; everything still reads back, commits, rolls back and survives power loss as without spilling.
final class SpillTests: PagerTestCase {
    private let threshold = 64 << 10

    private func options(_ durability: Durability = .full, io: StorageIO? = nil) -> StoreOptions {
        var options = StoreOptions(durability: durability, io: io)
        options.spillThreshold = threshold
        return options
    }

    func testLargeTransactionKeepsAtMostTheThresholdInMemoryAndCommitsEveryNode() throws {
        let path = storePath()
        let state: PatternTree.State
        do {
            let store = try Store.open(path: path, options: options())
            defer { store.close() }
            let writer = try store.beginWrite()
            var building = PatternTree.State(step: 1)
            var random = SeededGenerator(seed: 31)
            var spilledSome = false
            for index in 0..<300 {
                let length = PatternTree.randomLength(&random)
                building.children.append(try PatternTree.writeChild(seed: UInt64(index), length: length, in: writer))
                // The threshold, plus the newest nodes a spill keeps and the one just allocated (3 pages at most).
                let bound = threshold + (WriteTransaction.unspilledNewest + 1) * 3 * 4096
                XCTAssertLessThanOrEqual(writer.unspilledBytes, bound, "memory must stay bounded")
                spilledSome = spilledSome || writer.dirty.values.contains { $0.spilledChecksum != nil }
            }
            XCTAssertTrue(spilledSome, "300 children of up to 12 KB should pass a 64 KiB threshold")
            // Spilled children read back, from the file's pages, before commit.
            for child in building.children { try PatternTree.check(child, in: writer) }
            try PatternTree.writeRoot(building, in: writer)
            try writer.commit()
            state = try checkedState(store).1
            XCTAssertEqual(state, building)
        }
        let store = try Store.open(path: path, options: options())
        defer { store.close() }
        XCTAssertEqual(try checkedState(store).1, state)
    }

    func testBulkInsertIntoATableSpillsAndReadsBackEveryRow() throws {
        let path = storePath()
        let rows = 30_000
        do {
            let store = try Store.open(path: path, options: options(.none))
            defer { store.close() }
            let writer = try store.beginWrite()
            let catalog = try Catalog(writer: writer)
            let table = try catalog.createTable(named: "Row")
            let id = try table.addColumn(named: "id", type: .value(.int))
            let name = try table.addColumn(named: "name", type: .value(.string))
            try table.setPrimaryKey(id)
            for row in 0..<rows {
                try table.insert([(id, .int(Int64(row))), (name, .string("row-\(row)"))])
            }
            try catalog.flush()
            XCTAssertTrue(writer.dirty.values.contains { $0.spilledChecksum != nil }, "the insert should have spilled")
            try writer.commit()
        }
        let store = try Store.open(path: path, options: options(.none))
        defer { store.close() }
        _ = try store.verifyAll()
        let reader = try store.beginRead()
        defer { reader.end() }
        let catalog = try Catalog(reader: reader)
        let table = try XCTUnwrap(catalog.table(named: "Row"))
        XCTAssertEqual(try table.count(), rows)
        let name = try XCTUnwrap(table.column(named: "name")).key
        for row in stride(from: 0, to: rows, by: 997) {
            let key = try XCTUnwrap(try table.find(primaryKey: .int(Int64(row))))
            XCTAssertEqual(try table.string(key, column: name), "row-\(row)")
        }
    }

    func testSpilledNodeIsNoLongerWritableButStillReadable() throws {
        let store = try Store.open(path: storePath(), options: options(.none))
        defer { store.close() }
        let writer = try store.beginWrite()
        let first = try PatternTree.writeChild(seed: 1, length: 3000, in: writer)
        XCTAssertNotNil(writer.writableIfDirty(first.ref))
        var children = [first]
        while writer.dirty[first.ref.page]?.spilledChecksum == nil, children.count < 200 {
            children.append(try PatternTree.writeChild(seed: UInt64(children.count + 1), length: 3000, in: writer))
        }
        XCTAssertNil(writer.writableIfDirty(first.ref), "a spilled node must be copied, not changed in place")
        try PatternTree.check(first, in: writer)
        // Freeing a spilled node gives its pages back: the version verifies with them free.
        writer.free(children.removeFirst().ref)
        try PatternTree.writeRoot(PatternTree.State(step: 1, children: children), in: writer)
        try writer.commit()
        XCTAssertEqual(try checkedState(store).1.children, children)
    }

    func testRolledBackSpillingTransactionLeavesTheStoreAsItWas() throws {
        let store = try Store.open(path: storePath(), options: options(.none))
        defer { store.close() }
        var random = SeededGenerator(seed: 32)
        let before = try commitSteps(store, 5, random: &random)
        let writer = try store.beginWrite()
        for index in 0..<100 { _ = try PatternTree.writeChild(seed: UInt64(index), length: 5000, in: writer) }
        XCTAssertTrue(writer.dirty.values.contains { $0.spilledChecksum != nil })
        writer.rollback()
        XCTAssertEqual(try checkedState(store).1, before)
        let after = try store.beginWrite()
        let state = try PatternTree.advance(after, random: &random)
        try after.commit()
        XCTAssertEqual(try checkedState(store).1, state)
    }

    func testEveryCrashImageOfASpillingCommitOpensAtTheVersionBeforeOrAfterIt() throws {
        let recording = RecordingStorage(path: "db")
        let captured = SyncCapture()
        recording.onSync = { durable, pending in captured.add(durable, pending) }
        let store = try Store.open(path: "db", options: options(.full, io: recording))
        defer { store.close() }
        var random = SeededGenerator(seed: 33)
        var states: [UInt64: PatternTree.State] = [1: PatternTree.State()]
        for round in 0..<(longTests ? 20 : 4) {
            let before = store.latestCommittedVersion
            states[before] = try checkedState(store).1
            let writer = try store.beginWrite()
            states[writer.version] = try Self.spillingStep(writer, round: round, random: &random)
            // Crash images of the spill writes and the commit's, before its sync.
            let images = CrashImage.images(
                durable: recording.durableContents, pending: recording.pendingOperations, count: 4, using: &random)
            for image in images { try checkImage(image, oldest: before, newest: before, states: states) }
            captured.clear()
            let spilled = Set(writer.dirty.filter { $0.value.spilledChecksum != nil }.keys)
            try writer.commit()
            // Crash images of the commit's two syncs: the spilled nodes' (before the commit writes anything else),
            // then the commit's own nodes and meta slot, each in any subset and order.
            for (durable, pending) in captured.events {
                for image in CrashImage.images(durable: durable, pending: pending, count: 6, using: &random) {
                    try checkImage(image, oldest: before, newest: before + 1, states: states)
                }
            }
            XCTAssertEqual(captured.events.count, 2, "a spilling .full commit syncs its spilled nodes, then itself")
            // Synced before the meta slot was written, the spilled nodes are not in the commit record: opening
            // checks only the nodes written after that sync.
            let listed = try Self.commitRecordPages(of: store)
            XCTAssertFalse(listed.isEmpty)
            XCTAssertTrue(listed.isDisjoint(with: spilled), "the commit record lists spilled nodes")
        }
    }

    func testEveryCrashImageOfASpillingBatchedCommitOpensAtOrAfterTheLastFlushedVersion() throws {
        let recording = RecordingStorage(path: "db")
        var options = options(.batched, io: recording)
        options.batchInterval = 3600  // syncs only when the test flushes, a commit spills, or bookkeeping grows
        let store = try Store.open(path: "db", options: options)
        defer { store.close() }
        var random = SeededGenerator(seed: 34)
        var states: [UInt64: PatternTree.State] = [1: PatternTree.State()]
        for round in 0..<(longTests ? 12 : 3) {
            try store.flush()
            let flushed = store.latestCommittedVersion
            // An unsynced small commit, then a spilling one, whose first sync also reaches the small one's writes.
            let small = try store.beginWrite()
            states[small.version] = try PatternTree.advance(small, random: &random)
            try small.commit()
            let writer = try store.beginWrite()
            states[writer.version] = try Self.spillingStep(writer, round: round, random: &random)
            try writer.commit()
            // A power failure now: the spilled nodes and everything before them synced, the commit's own not.
            let images = CrashImage.images(
                durable: recording.durableContents, pending: recording.pendingOperations, count: 6, using: &random)
            for image in images {
                try checkImage(image, oldest: flushed, newest: store.latestCommittedVersion, states: states)
            }
        }
    }

    func testSpillingCommitUnderNoneDurabilityListsSpilledNodesAndNeverSyncs() throws {
        let recording = RecordingStorage(path: "db")
        let captured = SyncCapture()
        let store = try Store.open(path: "db", options: options(.none, io: recording))
        defer { store.close() }
        recording.onSync = { durable, pending in captured.add(durable, pending) }
        let writer = try store.beginWrite()
        var state = PatternTree.State(step: 1)
        for index in 0..<40 {
            state.children.append(try PatternTree.writeChild(seed: UInt64(index), length: 4000, in: writer))
        }
        let spilled = Set(writer.dirty.filter { $0.value.spilledChecksum != nil }.keys)
        XCTAssertFalse(spilled.isEmpty, "40 children of 4,000 bytes should pass a 64 KiB threshold")
        try PatternTree.writeRoot(state, in: writer)
        try writer.commit()
        XCTAssertEqual(captured.events.count, 0, "a .none commit never syncs")
        XCTAssertTrue(spilled.isSubset(of: try Self.commitRecordPages(of: store)))
        XCTAssertEqual(try checkedState(store).1, state)
    }

    /// Replaces half the children of the tree `writer` read (which half by `round`) and adds 40 of 4,000 bytes,
    /// enough that the transaction spills; writes the root and returns the new state.
    private static func spillingStep(
        _ writer: WriteTransaction, round: Int, random: inout SeededGenerator
    ) throws -> PatternTree.State {
        var state = try PatternTree.read(writer)
        state.step += 1
        for index in state.children.indices where index % 2 == round % 2 {
            writer.free(state.children[index].ref)
            state.children[index] = try PatternTree.writeChild(
                seed: state.step << 16 | UInt64(index), length: PatternTree.randomLength(&random), in: writer)
        }
        for index in 0..<40 {
            state.children.append(
                try PatternTree.writeChild(seed: state.step << 16 | 0x8000 | UInt64(index), length: 4000, in: writer))
        }
        XCTAssertTrue(writer.dirty.values.contains { $0.spilledChecksum != nil })
        try PatternTree.writeRoot(state, in: writer)
        return state
    }

    /// The pages the commit record of `store`'s current version lists.
    private static func commitRecordPages(of store: Store) throws -> Set<UInt64> {
        let meta = try store.currentMeta()
        let lease = store.pagedFile.makeLease()
        let payload = try store.pagedFile.payload(
            of: meta.commitRecord, kind: .commitRecord, pageCount: meta.pageCount, version: meta.version, lease: lease)
        let record = try withExtendedLifetime(lease) {
            try CommitRecord.decode(payload, path: store.path, node: meta.commitRecord)
        }
        return Set(record.entries.map(\.page))
    }
}

/// The writes a recording storage saw at each sync.
private final class SyncCapture: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [(durable: [UInt8], pending: [RecordingStorage.PendingOperation])] = []

    var events: [(durable: [UInt8], pending: [RecordingStorage.PendingOperation])] { lock.withLock { stored } }

    func add(_ durable: [UInt8], _ pending: [RecordingStorage.PendingOperation]) {
        lock.withLock { stored.append((durable, pending)) }
    }

    func clear() { lock.withLock { stored.removeAll() } }
}
