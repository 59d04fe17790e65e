import Foundation
@testable import StrataStorage
import StrataTestSupport
import XCTest

/// Power failures over both files of a store with a commit log: at every sync of either file (a log append, a
/// checkpoint's syncs of the log and the data file, a reset), every combination of crash images of the two files
/// (any subset of each file's unsynced writes, torn at sectors or pages) recovers, by the open-time replay, to a
/// version no older than the last acknowledged one, with every page of that version whole in the data file.
final class CommitLogPowerLossTests: XCTestCase {
    private let pageSize = 4096

    private final class Capture: @unchecked Sendable {
        let lock = NSLock()
        var events: [[String: TwoFileRecording.FileRecord]] = []
        /// Indices into `events` of the syncs that grew a log (zeros written ahead of its appends).
        var growths: Set<Int> = []
    }

    /// What opening the store does with the log after a crash: the data file's newest meta slot, then every whole
    /// record after it checkpointed into the data file, then a new generation. Returns the version recovered and
    /// the data file's bytes.
    private func recover(data: [UInt8], log: [UInt8], sealByteCount: Int) throws -> (UInt64, [UInt8]) {
        let storage = MemoryStorage(capacity: 64 << 20)
        try storage.setContents(data, ofFile: "db")
        try storage.setContents(log, ofFile: "db.log")
        let (dataVersion, slot) = data.withUnsafeBytes { buffer in
            FileHeader.slotOffsets.indices.compactMap { slot in
                MetaSlot.decode(from: buffer.baseAddress! + FileHeader.slotOffsets[slot]).map { ($0.version, slot) }
            }.max { $0.0 < $1.0 }!
        }
        let dataFile = try storage.openFile(at: "db", create: false, readOnly: false)
        let commitLog = try CommitLog(
            file: storage.openFile(at: "db.log", create: false, readOnly: false), pageSize: pageSize,
            preallocatedBytes: 64 << 10, sealByteCount: sealByteCount)
        let outcome = try LogCheckpoint.run(
            log: commitLog, into: dataFile, dataVersion: dataVersion, currentSlot: slot, sealByteCount: sealByteCount,
            verifyingNodes: true)
        let version = outcome.meta?.version ?? dataVersion
        try commitLog.reset(checkpointed: version, generation: 0)
        try commitLog.sync()
        return (version, try XCTUnwrap(storage.contents(ofFile: "db")))
    }

    /// Checks every pairing of a few crash images of each file at `event`.
    private func checkEvent(
        _ event: [String: TwoFileRecording.FileRecord], model: LogCommitModel, oldest: UInt64, newest: UInt64,
        using random: inout SeededGenerator
    ) throws -> Int {
        let dataRecord = try XCTUnwrap(event["db"])
        let logRecord = event["db.log"] ?? TwoFileRecording.FileRecord()
        let dataImages = CrashImage.images(
            durable: dataRecord.durable, pending: dataRecord.pending, count: 4, using: &random)
        let logImages = CrashImage.images(
            durable: logRecord.durable, pending: logRecord.pending, count: 4, using: &random)
        var checked = 0
        for dataImage in dataImages {
            for logImage in logImages {
                let (version, recovered) = try recover(
                    data: dataImage, log: logImage, sealByteCount: model.sealByteCount)
                XCTAssertTrue(
                    (oldest...newest).contains(version), "recovered \(version), expected \(oldest)...\(newest)")
                XCTAssertEqual(model.problems(inData: recovered, version: version), [], "version \(version)")
                checked += 1
            }
        }
        return checked
    }

    /// `.full`: each append synced, a checkpoint (and reset) every few commits; a crash at any sync, in the middle
    /// of an append, of a checkpoint or of the first append after a reset.
    func testEveryCrashImageOfFullAppendsAndCheckpointsRecovers() throws {
        try runFull(cipher: nil, seed: 11)
    }

    /// The same for an encrypted store (the records hold sealed nodes; the checksums cover the seals).
    func testEveryCrashImageOfEncryptedAppendsAndCheckpointsRecovers() throws {
        try runFull(cipher: NodeCipher(key: (0..<64).map { UInt8(255 - $0) }), seed: 12)
    }

    private func runFull(cipher: NodeCipher?, seed: UInt64) throws {
        let storage = TwoFileRecording()
        let capture = Capture()
        storage.onSync = { path, files in
            capture.lock.withLock {
                if path == "db.log", let log = files[path], TwoFileRecording.grows(log) {
                    XCTAssertTrue(TwoFileRecording.writesZerosOnly(log), "a growth syncs zeros alone")
                    capture.growths.insert(capture.events.count)
                }
                capture.events.append(files)
            }
        }
        var random = SeededGenerator(seed: seed)
        let model = LogCommitModel(pageSize: pageSize, cipher: cipher)
        let (data, log) = try startLog(in: storage, model: model)
        try log.sync()
        var acknowledged: UInt64 = 1
        var dataVersion: UInt64 = 1
        var slot = 0
        var checked = 0
        var growths = 0
        for commit in 1...24 {
            capture.lock.withLock {
                capture.events.removeAll()
                capture.growths.removeAll()
            }
            // Every third commit also writes nodes in place first (a large transaction's spilled nodes, synced
            // before its record), on pages the log may hold older copies of.
            let placed = commit % 3 == 0 ? Int.random(in: 1...2, using: &random) : 0
            let next = model.commit(nodes: Int.random(in: 1...4, using: &random), inPlace: placed, using: &random)
            let meta = next.meta
            try model.writeInPlace(next, into: data)
            try log.append(meta: meta, nodes: next.sealed.sortedByPage(), inPlace: next.inPlaceEntries)
            next.release()
            try log.sync()
            var events = capture.lock.withLock { capture.events }
            let grown = capture.lock.withLock { capture.growths.count }
            growths += grown
            XCTAssertEqual(
                events.count - grown, placed > 0 ? 2 : 1,
                "a .full append syncs once (after the sync of nodes in place and a growth's zeros)")
            for (number, event) in events.enumerated() {
                let newest = number == events.count - 1 ? meta.version : acknowledged
                checked += try checkEvent(event, model: model, oldest: acknowledged, newest: newest, using: &random)
            }
            acknowledged = meta.version
            guard commit % 5 == 0 else { continue }
            capture.lock.withLock { capture.events.removeAll() }
            let outcome = try LogCheckpoint.run(
                log: log, into: data, dataVersion: dataVersion, currentSlot: slot, sealByteCount: model.sealByteCount,
                verifyingNodes: false)
            XCTAssertEqual(outcome.meta?.version, acknowledged)
            dataVersion = acknowledged
            slot = 1 - slot
            try log.reset(checkpointed: dataVersion, generation: 0)
            events = capture.lock.withLock { capture.events }
            XCTAssertEqual(events.count, 3, "a checkpoint syncs the log, the data file's pages, its meta slot")
            for event in events {
                checked += try checkEvent(
                    event, model: model, oldest: acknowledged, newest: acknowledged, using: &random)
            }
        }
        XCTAssertGreaterThan(checked, 24 * 16)
        XCTAssertGreaterThan(growths, 0, "the run grew the log past its preallocation")
    }

    /// A generation reuses its file from the start without truncating it, so an older round's records lie after
    /// the newest record. Here they are as dangerous as they can be: whole, on the very offsets the new round's next
    /// records take, of the very versions it expects next (both rounds follow version 1), nodes and all. Only the
    /// salt in each record header tells them apart; at every crash image of the new round's `.full` appends the log
    /// still ends at an appended record of the new round, and the data file holds that version, whole.
    func testAnOlderRoundsWholeRecordsAfterTheNewestAreNeverRead() throws {
        let storage = TwoFileRecording()
        let capture = Capture()
        storage.onSync = { _, files in capture.lock.withLock { capture.events.append(files) } }
        var random = SeededGenerator(seed: 14)
        let older = LogCommitModel(pageSize: pageSize)
        let newer = LogCommitModel(pageSize: pageSize)
        // Records of one header page and one node page each: the two rounds' records start on the same offsets.
        let log = try startLog(in: storage, model: newer).log
        var olderOffsets: [UInt64: UInt64] = [:]
        for _ in 1...6 {
            let (meta, sealed, release) = older.commit(nodes: 1, maximumPages: 1, using: &random)
            olderOffsets[meta.version] = try log.append(meta: meta, nodes: sealed.sortedByPage()).offset
            release()
        }
        try log.sync()
        let olderSalt = try XCTUnwrap(log.header?.salt)
        // The new round's header is durable before its appends (else an image holding the older header would
        // rightly read the older round).
        try log.reset(checkpointed: 1, generation: 2)
        try log.sync()
        var acknowledged: UInt64 = 1
        var checked = 0
        for _ in 1...4 {
            capture.lock.withLock { capture.events.removeAll() }
            let (meta, sealed, release) = newer.commit(nodes: 1, maximumPages: 1, using: &random)
            let located = try log.append(meta: meta, nodes: sealed.sortedByPage())
            release()
            XCTAssertEqual(located.offset, olderOffsets[meta.version], "the rounds' records share their offsets")
            try log.sync()
            // What follows the newest record on disk is the older round's record of the next version, whole.
            let durable = try XCTUnwrap(storage.records["db.log"]?.durable)
            let next = Int(located.offset + located.record.byteCount(pageSize: pageSize))
            let stale = durable.withUnsafeBytes {
                LogRecord.decodeHeader(from: $0.baseAddress! + next, salt: olderSalt, pageSize: pageSize)
            }
            XCTAssertEqual(stale?.version, meta.version + 1, "an older round's whole record follows the newest")
            let events = capture.lock.withLock { capture.events }
            XCTAssertEqual(events.count, 1)
            for event in events {
                checked += try checkEvent(
                    event, model: newer, oldest: acknowledged, newest: meta.version, using: &random)
            }
            XCTAssertEqual(
                try CommitLog(
                    file: storage.openFile(at: "db.log", create: false, readOnly: false), pageSize: pageSize,
                    sealByteCount: 0
                ).newestVersion, meta.version, "the log ends at the newer round's newest record")
            acknowledged = meta.version
        }
        XCTAssertEqual(checked, 4 * 16)
    }

    /// `.batched`: appends not synced, the log synced every few commits; a crash at any moment recovers to a
    /// version between the last synced one and the newest appended, whole.
    func testEveryCrashImageOfUnsyncedAppendsRecovers() throws {
        let storage = TwoFileRecording()
        var random = SeededGenerator(seed: 13)
        let model = LogCommitModel(pageSize: pageSize)
        let log = try startLog(in: storage, model: model).log
        try log.sync()
        var synced: UInt64 = 1
        for commit in 1...30 {
            let (meta, sealed, release) = model.commit(nodes: Int.random(in: 1...3, using: &random), using: &random)
            try log.append(meta: meta, nodes: sealed.sortedByPage())
            release()
            _ = try checkEvent(storage.records, model: model, oldest: synced, newest: meta.version, using: &random)
            if commit % 6 == 0 {
                try log.sync()
                synced = meta.version
            }
        }
    }

    /// `model`'s first data file in `storage` beside a new log of generation 0 (64 KiB written ahead), both open.
    private func startLog(
        in storage: TwoFileRecording, model: LogCommitModel
    ) throws -> (data: StorageFile, log: CommitLog) {
        try storage.inner.setContents(model.initialDataFile(), ofFile: "db")
        let data = try storage.openFile(at: "db", create: false, readOnly: false)
        let log = try CommitLog(
            file: storage.openFile(at: "db.log", create: true, readOnly: false), pageSize: pageSize,
            preallocatedBytes: 64 << 10, sealByteCount: model.sealByteCount)
        try log.reset(checkpointed: 1, generation: 0)
        return (data, log)
    }
}
