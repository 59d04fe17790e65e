import Foundation
@testable import StrataStorage
import StrataTestSupport
import XCTest

/// A store whose commits go through the commit log (`StoreOptions.commitLog`): commits append to the log and read
/// back through it, checkpoints bring the data file up to date, a clean close leaves an empty log, a reader pinned
/// across many checkpoints keeps reading its version, every crash image of the three files opens at a whole step,
/// and copies, verification and encryption see the log's versions.
final class StoreCommitLogTests: PagerTestCase {
    private final class Capture: @unchecked Sendable {
        let lock = NSLock()
        var events: [[String: TwoFileRecording.FileRecord]] = []
    }

    private func logOptions(
        durability: Durability = .full, io: StorageIO? = nil, threshold: UInt64 = 64 << 10
    ) -> StoreOptions {
        var options = StoreOptions(durability: durability, io: io)
        options.commitLog = true
        options.logCheckpointThreshold = threshold
        return options
    }

    /// The newest generation's records in the log file holding it (0 when the generation is empty).
    private func recordsInNewestGeneration(_ storage: MemoryStorage, path: String) throws -> Int {
        let logs = try Store.logPaths(for: path).map { logPath in
            try CommitLog(
                file: try storage.openFile(at: logPath, create: false, readOnly: true), pageSize: 4096,
                sealByteCount: 0, verifyingNodes: false)
        }
        let newest = try XCTUnwrap(
            logs.filter { $0.header != nil }.max { $0.header!.generation < $1.header!.generation })
        return Int(newest.newestVersion - newest.header!.checkpointed)
    }

    func testCommitsAppendToTheLogAndACleanCloseLeavesItEmpty() throws {
        let storage = MemoryStorage(capacity: 1 << 28)
        var random = SeededGenerator(seed: 71)
        var state = PatternTree.State()
        do {
            let store = try Store.open(path: "db", options: logOptions(io: storage, threshold: 1 << 30))
            let dataBytes = try XCTUnwrap(storage.contents(ofFile: "db")).count
            for _ in 0..<20 {
                let writer = try store.beginWrite()
                state = try PatternTree.advance(writer, random: &random)
                try writer.commit()
                let reader = try store.beginRead()
                XCTAssertEqual(try PatternTree.read(reader), state, "read back through the log")
                reader.end()
            }
            XCTAssertEqual(
                try XCTUnwrap(storage.contents(ofFile: "db")).count, dataBytes, "no commit wrote the data file")
            XCTAssertEqual(try recordsInNewestGeneration(storage, path: "db"), 20)
            store.close()
        }
        XCTAssertEqual(try recordsInNewestGeneration(storage, path: "db"), 0, "the last close checkpointed")
        let reopened = try Store.open(path: "db", options: logOptions(io: storage))
        defer { reopened.close() }
        XCTAssertNil(reopened.openRecovery)
        let reader = try reopened.beginRead()
        defer { reader.end() }
        XCTAssertEqual(try PatternTree.read(reader), state)
        XCTAssertEqual(reader.log?.index.pageCount ?? 0, 0, "everything is in the data file")
        try reopened.verify { reader, report in try PatternTree.visit(reader, report: report) }
    }

    /// A reader pinned in another thread keeps reading its version while 100 commits each checkpoint; the
    /// generation it pins is never reset under it, and the next one begins once it ends.
    func testAReaderPinnedAcrossAHundredCheckpoints() throws {
        let store = try Store.open(path: storePath(), options: logOptions(threshold: 1))
        defer { store.close() }
        var random = SeededGenerator(seed: 72)
        var pinnedState = PatternTree.State()
        for _ in 0..<3 {
            let writer = try store.beginWrite()
            pinnedState = try PatternTree.advance(writer, random: &random)
            try writer.commit()
        }
        let pinned = try store.beginRead()
        let pinnedGeneration = pinned.pin.generation
        let expected = pinnedState
        let stop = ManagedAtomicFlag()
        let failures = FailureList()
        let thread = Thread {
            while !stop.isSet {
                do {
                    let found = try PatternTree.read(pinned)
                    if found != expected { failures.append("the pinned reader read step \(found.step)") }
                } catch {
                    failures.append("the pinned reader failed: \(error)")
                }
            }
        }
        thread.start()
        var generations: Set<UInt64> = []
        var state = pinnedState
        for _ in 0..<100 {
            let writer = try store.beginWrite()
            state = try PatternTree.advance(writer, random: &random)
            try writer.commit()
            generations.insert(store.lockFile.generation)
            let reader = try store.beginRead()
            XCTAssertEqual(try PatternTree.read(reader), state)
            reader.end()
        }
        stop.set()
        while !thread.isFinished { usleep(1000) }
        XCTAssertEqual(failures.items, [])
        XCTAssertEqual(try PatternTree.read(pinned), pinnedState)
        XCTAssertEqual(
            generations, [pinnedGeneration + 1], "one generation begun: the next would reuse the pinned one's file")
        pinned.end()
        let writer = try store.beginWrite()
        state = try PatternTree.advance(writer, random: &random)
        try writer.commit()
        XCTAssertEqual(store.lockFile.generation, pinnedGeneration + 2, "the reader ended: the next generation began")
        let reader = try store.beginRead()
        defer { reader.end() }
        XCTAssertEqual(try PatternTree.read(reader), state)
        try store.verify { reader, report in try PatternTree.visit(reader, report: report) }
    }

    /// Every crash image of the data file and both log files, at every sync of any of them (a commit's append,
    /// each of a checkpoint's three syncs), opens at the step before the commit or at its own, every row whole,
    /// and verifies; checkpoints come every few commits and generations alternate between the files.
    func testEveryCrashImageOfLogCommitsOpensAtAWholeStep() throws {
        let storage = TwoFileRecording()
        let capture = Capture()
        storage.onSync = { _, files in capture.lock.withLock { capture.events.append(files) } }
        let store = try Store.open(path: "db", options: logOptions(io: storage, threshold: 96 << 10))
        defer { store.close() }
        var random = SeededGenerator(seed: 73)
        let commits = longTests ? 80 : 16
        var checked = 0
        var checkpoints = 0
        for step in 1...Int64(commits) {
            capture.lock.withLock { capture.events.removeAll() }
            XCTAssertEqual(try StepTable.advance(store), step)
            let events = capture.lock.withLock { capture.events }
            if events.count > 1 { checkpoints += 1 }
            for (number, event) in events.enumerated() {
                // The append's sync may lose the append; a checkpoint's syncs come after it returned.
                let oldest = number == 0 ? step - 1 : step
                checked += try checkImages(of: event, oldest: oldest, newest: step, using: &random)
            }
        }
        XCTAssertGreaterThanOrEqual(checkpoints, 2, "the run checkpointed")
        XCTAssertGreaterThan(checked, commits * 4)
    }

    /// `.batched` commits through the log, flushed every fifth step: a power failure after any step (any subset of
    /// each file's unsynced writes) opens at a whole step no older than the last flushed one.
    func testEveryCrashImageOfBatchedLogCommitsOpensAtOrAfterTheLastFlush() throws {
        let storage = TwoFileRecording()
        var options = logOptions(durability: .batched, io: storage, threshold: 96 << 10)
        options.batchInterval = 3600  // syncs only when the test flushes (or a checkpoint syncs the log)
        let store = try Store.open(path: "db", options: options)
        defer { store.close() }
        var random = SeededGenerator(seed: 76)
        var flushed: Int64 = 0
        var checked = 0
        let steps = longTests ? 60 : 20
        for step in 1...Int64(steps) {
            XCTAssertEqual(try StepTable.advance(store), step)
            checked += try checkImages(of: storage.records, oldest: flushed, newest: step, using: &random)
            if step % 5 == 0 {
                try store.flush()
                flushed = step
            }
        }
        XCTAssertEqual(checked, steps * 4)
    }

    private func checkImages(
        of event: [String: TwoFileRecording.FileRecord], oldest: Int64, newest: Int64,
        using random: inout SeededGenerator
    ) throws -> Int {
        var checked = 0
        let paths = ["db"] + Store.logPaths(for: "db")
        for images in TwoFileRecording.crashImageSets(of: event, paths: paths, count: 2, using: &random) {
            let crashed = MemoryStorage(capacity: 1 << 28)
            for (path, bytes) in images where !bytes.isEmpty {
                try crashed.setContents(bytes, ofFile: path)
            }
            let opened = try Store.open(path: "db", options: logOptions(io: crashed))
            defer { opened.close() }
            let found = try StepTable.read(opened)
            XCTAssertTrue((oldest...newest).contains(found), "opened at step \(found), expected \(oldest)...\(newest)")
            _ = try opened.verifyAll()
            checked += 1
        }
        return checked
    }

    /// An encrypted store with a small decrypted cache and a log of many MB (a reader pins the first generation
    /// so the next one grows past 8 MiB of records): the newest and the pinned version read back, and it reopens.
    func testAnEncryptedLogOfManyMegabytes() throws {
        let storage = MemoryStorage(capacity: 1 << 29)
        var options = logOptions(io: storage, threshold: 256 << 10)
        options.encryptionKey = (0..<64).map { UInt8($0) }
        options.decryptedCacheBytes = 64 << 10
        var random = SeededGenerator(seed: 74)
        var state = PatternTree.State()
        do {
            let store = try Store.open(path: "db", options: options)
            for _ in 0..<3 {
                let writer = try store.beginWrite()
                state = try PatternTree.advance(writer, random: &random)
                try writer.commit()
            }
            let pinnedState = state
            let pinned = try store.beginRead()
            while try XCTUnwrap(store.logWriter).log.recordBytes < 8 << 20 {
                let writer = try store.beginWrite()
                state = try PatternTree.advance(writer, random: &random)
                try writer.commit()
            }
            let reader = try store.beginRead()
            XCTAssertEqual(try PatternTree.read(reader), state)
            reader.end()
            XCTAssertEqual(try PatternTree.read(pinned), pinnedState)
            XCTAssertEqual(store.lockFile.generation, 1, "the pinned generation kept the next one going")
            pinned.end()
            store.close()
        }
        let reopened = try Store.open(path: "db", options: options)
        defer { reopened.close() }
        let reader = try reopened.beginRead()
        defer { reader.end() }
        XCTAssertEqual(try PatternTree.read(reader), state)
        try reopened.verify { reader, report in try PatternTree.visit(reader, report: report) }
    }

    /// A copy and a verification of a store whose log holds versions not yet checkpointed see the newest version.
    func testCopyAndVerifyWithAnUncheckpointedLog() throws {
        let path = storePath()
        let store = try Store.open(path: path, options: logOptions(threshold: 1 << 30))
        defer { store.close() }
        var random = SeededGenerator(seed: 75)
        var state = PatternTree.State()
        for _ in 0..<10 {
            let writer = try store.beginWrite()
            state = try PatternTree.advance(writer, random: &random)
            try writer.commit()
        }
        try store.verify { reader, report in try PatternTree.visit(reader, report: report) }
        let copyPath = storePath("copy")
        try store.writeCopy(to: copyPath)
        let copy = try Store.open(path: copyPath)
        defer { copy.close() }
        let reader = try copy.beginRead()
        defer { reader.end() }
        XCTAssertEqual(try PatternTree.read(reader), state)
        let writer = try store.beginWrite()
        state = try PatternTree.advance(writer, random: &random)
        try writer.commit()
        let after = try store.beginRead()
        defer { after.end() }
        XCTAssertEqual(try PatternTree.read(after), state, "commits go on after the checkpoint")
    }
}

/// What a checkpoint writes when nodes of different sizes reuse each other's pages.
final class LogIndexOverlapTests: XCTestCase {
    private func record(_ version: UInt64, _ entries: [(page: UInt64, pages: UInt32, inPlace: Bool)])
        -> CommitLog.Located
    {
        let meta = MetaSlot(
            version: version, root: .none, freeList: .none, commitRecord: .none, commitRecordChecksum: 0,
            pageCount: 64, durableBase: version - 1)
        let list = entries.map {
            LogRecord.Entry(page: $0.page, pages: $0.pages, byteCount: $0.inPlace ? 0 : 100, checksum: 0)
        }
        return CommitLog.Located(
            offset: version << 20, record: LogRecord(salt: 9, version: version, meta: meta, entries: list))
    }

    /// A copy overlapped by a later node (one spanning its page from an earlier page, or one written in place) is
    /// not written: its bytes would land in the later node's pages.
    func testACheckpointSkipsCopiesALaterNodeOverlaps() {
        var index = LogIndex()
        index.reset(salt: 9, checkpointed: 1)
        index.extend(with: [
            record(2, [(page: 8, pages: 1, inPlace: false), (page: 20, pages: 2, inPlace: false),
                (page: 30, pages: 1, inPlace: false)]),
            // Page 7's node spans 7-8 (8 was freed), page 20's node is now a one-page one, page 30 is covered by a
            // node written in place from 29.
            record(3, [(page: 7, pages: 2, inPlace: false), (page: 20, pages: 1, inPlace: false),
                (page: 29, pages: 2, inPlace: true)]),
        ], pageSize: 4096)
        let written = index.newestCopies(atMost: 3).map { [$0.page, $0.location.version] }
        XCTAssertEqual(written, [[7, 3], [20, 3]])
        XCTAssertEqual(index.newestCopies(atMost: 2).map { [$0.page, $0.location.version] }, [[8, 2], [20, 2], [30, 2]])
    }
}

/// A flag one thread sets and another polls.
private final class ManagedAtomicFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}

/// Failures a background thread reports to the test.
private final class FailureList: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [String] = []
    var items: [String] { lock.withLock { list } }
    func append(_ item: String) { lock.withLock { list.append(item) } }
}
