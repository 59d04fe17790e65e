import Foundation
@testable import StrataStorage
import StrataTestSupport
import XCTest

/// What a commit through the commit log writes besides its table nodes: no commit record (the log's record lists
/// every node with its checksum, and the data file gets a meta slot only from a checkpoint), and its free-list
/// changes inline in the record's header pages, not in a page of their own. The data file such commits leave is
/// whole for `Recovery` and opens without the log too.
final class LogCommitBookkeepingTests: PagerTestCase {
    private func options(log: Bool, io: StorageIO, threshold: UInt64 = 1 << 30) -> StoreOptions {
        var options = StoreOptions(durability: .full, io: io)
        options.commitLog = log
        options.logCheckpointThreshold = threshold
        return options
    }

    /// The records of the newest generation, every node hashed.
    private func newestRecords(_ storage: MemoryStorage, path: String) throws -> (CommitLog, [CommitLog.Located]) {
        let logs = try Store.logPaths(for: path).map { logPath in
            try CommitLog(
                file: try storage.openFile(at: logPath, create: false, readOnly: true), pageSize: 4096,
                sealByteCount: 0, verifyingNodes: true)
        }
        let newest = try XCTUnwrap(
            logs.filter { $0.header != nil }.max { $0.header!.generation < $1.header!.generation })
        return (newest, try newest.records(after: 0, sealByteCount: 0, verifyingNodes: true))
    }

    /// The kind of the node of `entry` at `offset` in `log`.
    private func kind(in log: CommitLog, at offset: UInt64) throws -> NodeKind {
        var bytes = [UInt8](repeating: 0, count: NodeHeader.byteCount)
        try bytes.withUnsafeMutableBytes { try log.read(at: offset, into: $0) }
        return try XCTUnwrap(bytes.withUnsafeBytes { NodeHeader.decode(from: $0.baseAddress!) }).kind
    }

    func testALogCommitWritesNoCommitRecordAndItsFreeListChangesInline() throws {
        let storage = MemoryStorage(capacity: 1 << 28)
        var random = SeededGenerator(seed: 91)
        var state = PatternTree.State()
        do {
            let store = try Store.open(path: "db", options: options(log: true, io: storage))
            for _ in 0..<40 {
                let writer = try store.beginWrite()
                state = try PatternTree.advance(writer, random: &random)
                try writer.commit()
            }
            let (log, records) = try newestRecords(storage, path: "db")
            XCTAssertEqual(records.count, 40)
            var inlineChanges = 0
            for located in records {
                let record = located.record
                XCTAssertTrue(record.meta.isLogCommit, "version \(record.version) names no commit record")
                let offsets = record.nodeOffsets(pageSize: 4096)
                var pagesOfTheirOwn: UInt64 = 0
                for (entry, offset) in zip(record.entries, offsets) where !entry.isInPlace {
                    let kind = try kind(in: log, at: located.offset + offset)
                    XCTAssertNotEqual(kind, .commitRecord, "version \(record.version) logged a commit record")
                    XCTAssertEqual(entry.isInline, kind == .freeListChanges, "only free-list changes go inline")
                    if entry.isInline {
                        inlineChanges += 1
                        XCTAssertEqual(entry.page, record.meta.freeList.page, "the version's own changes")
                        XCTAssertLessThan(offset, 4096, "inside the header page")
                    } else {
                        pagesOfTheirOwn += UInt64(entry.pages)
                    }
                }
                XCTAssertEqual(
                    record.byteCount(pageSize: 4096), (1 + pagesOfTheirOwn) * 4096,
                    "one header page, then the table nodes' pages")
            }
            // A small free list is written whole (a page of its own, kept as the next commits' base) as often as
            // changes against it: the pattern tree's commits write both.
            XCTAssertGreaterThan(inlineChanges, 0, "commits that write free-list changes write them inline")
            let reader = try store.beginRead()
            XCTAssertEqual(try PatternTree.read(reader), state, "read back through the log, changes inline")
            reader.end()
            store.close()
        }
        // The last close's checkpoint wrote the newest version's changes to their page and its meta slot.
        let closed = try Store.open(path: "db", options: options(log: false, io: storage))
        XCTAssertNil(closed.openRecovery)
        try closed.verify { reader, report in try PatternTree.visit(reader, report: report) }
        var reader = try closed.beginRead()
        XCTAssertEqual(try PatternTree.read(reader), state)
        XCTAssertTrue(reader.meta.isLogCommit, "the data file's newest slot is the checkpoint's")
        reader.end()
        // A commit without the log builds on it (its free list read from the checkpointed changes). (Taking the
        // log up again after a commit without it is not supported yet: docs/ARCHITECTURE.md, "What remains".)
        let writer = try closed.beginWrite()
        state = try PatternTree.advance(writer, random: &random)
        try writer.commit()
        closed.close()
        let again = try Store.open(path: "db", options: options(log: false, io: storage))
        defer { again.close() }
        reader = try again.beginRead()
        defer { reader.end() }
        XCTAssertEqual(try PatternTree.read(reader), state)
        XCTAssertFalse(reader.meta.isLogCommit, "a commit without the log writes its commit record")
        try again.verify { reader, report in try PatternTree.visit(reader, report: report) }
    }

    /// Checkpoints every few commits write only the newest version's inline changes: the data file verifies
    /// after each, in another process's view too (a store opened without the log on a copy of the data file).
    func testCheckpointsWriteTheNewestChangesAndTheDataFileVerifies() throws {
        let storage = MemoryStorage(capacity: 1 << 28)
        var random = SeededGenerator(seed: 92)
        let store = try Store.open(path: "db", options: options(log: true, io: storage, threshold: 48 << 10))
        defer { store.close() }
        var state = PatternTree.State()
        for step in 0..<60 {
            let writer = try store.beginWrite()
            state = try PatternTree.advance(writer, random: &random)
            try writer.commit()
            guard step % 15 == 14 else { continue }
            try store.verify { reader, report in try PatternTree.visit(reader, report: report) }
            let image = try XCTUnwrap(storage.contents(ofFile: "db"))
            let copy = MemoryStorage(capacity: 1 << 28)
            try copy.setContents(image, ofFile: "db")
            let alone = try Store.open(path: "db", options: options(log: false, io: copy))
            defer { alone.close() }
            let reader = try alone.beginRead()
            defer { reader.end() }
            XCTAssertEqual(try PatternTree.read(reader), state, "the data file alone after checkpoint \(step)")
            XCTAssertTrue(reader.meta.isLogCommit)
            try alone.verify { reader, report in try PatternTree.visit(reader, report: report) }
        }
    }

    /// `Recovery` takes a slot without a commit record only for version 1 or a log commit (`logCommitMark`, which
    /// only a checkpoint writes into the data file): any other such slot is not whole.
    func testRecoveryTakesNoCommitRecordOnlyFromALogCommit() throws {
        let storage = MemoryStorage(capacity: 1 << 28)
        var random = SeededGenerator(seed: 93)
        do {
            let store = try Store.open(path: "db", options: options(log: true, io: storage))
            _ = try commitSteps(store, 5, random: &random)
            store.close()
        }
        let pagedFile = try PagedFile(
            file: storage.openFile(at: "db", create: false, readOnly: true), pageSize: 4096, reservedBytes: 1 << 28)
        let newest = try XCTUnwrap(pagedFile.decodedMetaSlots().first)
        XCTAssertTrue(newest.meta.isLogCommit)
        let fileSize = try pagedFile.file.size()
        XCTAssertNil(Recovery.problem(with: newest.meta, in: pagedFile, fileSize: fileSize))
        var unmarked = newest.meta
        unmarked.commitRecordChecksum = 0
        XCTAssertEqual(
            Recovery.problem(with: unmarked, in: pagedFile, fileSize: fileSize), "it has no commit record")
        unmarked.commitRecordChecksum = MetaSlot.logCommitMark ^ 1
        XCTAssertNotNil(Recovery.problem(with: unmarked, in: pagedFile, fileSize: fileSize))
    }
}
