import Foundation
@testable import StrataStorage
import StrataTestSupport
import XCTest

/// The writing side of the two log files (not yet used by `Store`): checkpoints past the threshold, generations
/// alternating between the files only while no reader pins the generation a file holds, a reader pinned across 100
/// checkpoints reading right throughout, and the first opener's replay after a power failure at any sync of the
/// three files (appends, a checkpoint's syncs, a new generation's first append).
final class LogWriterTests: XCTestCase {
    private let pageSize = 4096

    private final class Capture: @unchecked Sendable {
        let lock = NSLock()
        var events: [[String: TwoFileRecording.FileRecord]] = []
        /// Indices into `events` of the syncs that grew a log (zeros written ahead of its appends).
        var growths: Set<Int> = []
    }

    private func openLogs(_ storage: StorageIO, sealByteCount: Int) throws -> [CommitLog] {
        try ["db.log", "db.log2"].map {
            try CommitLog(
                file: storage.openFile(at: $0, create: true, readOnly: false), pageSize: pageSize,
                preallocatedBytes: 64 << 10, sealByteCount: sealByteCount)
        }
    }

    /// Reads every live page of `version` through `view` as `PagedFile` does; returns the problems.
    private func problems(
        reading version: UInt64, meta: MetaSlot, through view: LogView, pagedFile: PagedFile, model: LogCommitModel
    ) -> [String] {
        var problems: [String] = []
        for (page, checksum) in model.states[version]!.sorted(by: { $0.key < $1.key }) {
            do {
                let payload = try pagedFile.payload(
                    of: NodeRef(rawValue: page), kind: .table, pageCount: meta.pageCount, version: version,
                    lease: nil, log: view)
                if (payload.baseAddress! - NodeHeader.byteCount).u64(at: 0) != checksum {
                    problems.append("page \(page) of \(version) holds another node")
                }
            } catch {
                problems.append("page \(page) of \(version): \(error)")
            }
        }
        return problems
    }

    func testGenerationsBeginOnlyWhenNoReaderPinsTheFileTheyReuse() {
        XCTAssertTrue(LogWriter.canBeginGeneration(after: 0, oldestPinned: 0), "generation 1's file held none")
        XCTAssertTrue(LogWriter.canBeginGeneration(after: 5, oldestPinned: nil))
        XCTAssertTrue(LogWriter.canBeginGeneration(after: 5, oldestPinned: 5))
        XCTAssertFalse(LogWriter.canBeginGeneration(after: 5, oldestPinned: 4), "generation 6 would reset 4's file")
    }

    /// A reader pins generation 0 and an early version, and keeps reading it while 100 checkpoints run: the
    /// writer leaves generation 0 once (its successor's file held nothing), then stays in generation 1, whose file
    /// grows, because generation 2 would reuse the pinned generation's file; every version stays readable through
    /// a view taken when it was newest. Once the reader ends, the next checkpoint begins generation 2.
    func testAReaderPinnedAcrossAHundredCheckpoints() throws {
        let storage = MemoryStorage(capacity: 256 << 20)
        var random = SeededGenerator(seed: 31)
        let model = LogCommitModel(pageSize: pageSize)
        try storage.setContents(model.initialDataFile(), ofFile: "db")
        let data = try storage.openFile(at: "db", create: false, readOnly: false)
        let pagedFile = try PagedFile(file: data, pageSize: pageSize, reservedBytes: 256 << 20)
        let writer = try LogWriter.recover(
            logs: try openLogs(storage, sealByteCount: 0), data: data, dataVersion: 1, dataSlot: 0, sealByteCount: 0,
            checkpointThreshold: 64 << 10)
        XCTAssertEqual(writer.generation, 0)
        let reader = try LogReader(
            files: try ["db.log", "db.log2"].map { try storage.openFile(at: $0, create: false, readOnly: true) },
            pageSize: pageSize, mappedBytes: 256 << 20, sealByteCount: 0)
        var metas: [UInt64: MetaSlot] = [:]
        func commit() throws {
            let (meta, sealed, release) = model.commit(nodes: Int.random(in: 1...3, using: &random), using: &random)
            defer { release() }
            try writer.append(meta: meta, nodes: sealed.sortedByPage())
            metas[meta.version] = meta
        }
        for _ in 0..<3 { try commit() }
        let pinnedVersion = model.newestVersion
        let pinned = try reader.view(generation: 0, version: pinnedVersion)
        var checkpoints = 0
        var generations: [UInt64] = []
        while checkpoints < 100 {
            try commit()
            guard writer.needsCheckpoint else { continue }
            if let begun = try writer.checkpoint(oldestPinnedGeneration: 0) { generations.append(begun) }
            checkpoints += 1
            let version = model.newestVersion
            let view = try reader.view(generation: writer.generation, version: version)
            XCTAssertEqual(
                problems(reading: version, meta: metas[version]!, through: view, pagedFile: pagedFile, model: model),
                [], "version \(version) after checkpoint \(checkpoints)")
            XCTAssertEqual(
                problems(
                    reading: pinnedVersion, meta: metas[pinnedVersion]!, through: pinned, pagedFile: pagedFile,
                    model: model),
                [], "the pinned version after checkpoint \(checkpoints)")
        }
        XCTAssertEqual(generations, [1], "generation 2 would have reset the pinned generation's file")
        XCTAssertGreaterThan(writer.log.recordBytes, (64 << 10) * 50, "generation 1 grew while the reader pinned")
        try commit()
        XCTAssertEqual(try writer.checkpoint(oldestPinnedGeneration: nil), 2, "the reader ended")
        XCTAssertThrowsError(try reader.view(generation: 0, version: pinnedVersion), "its file now holds 2")
        let version = model.newestVersion
        let view = try reader.view(generation: 2, version: version)
        XCTAssertEqual(view.index.pageCount, 0, "everything up to the newest version is in the data file")
        XCTAssertEqual(
            problems(reading: version, meta: metas[version]!, through: view, pagedFile: pagedFile, model: model), [])
    }

    /// What the first opener does after a crash, over images of the three files: the data file's newest meta
    /// slot, then `LogWriter.recover`. Returns the version recovered and the data file's bytes.
    private func recover(
        images: [String: [UInt8]], sealByteCount: Int
    ) throws -> (version: UInt64, data: [UInt8], generation: UInt64) {
        let storage = MemoryStorage(capacity: 64 << 20)
        for (path, bytes) in images { try storage.setContents(bytes, ofFile: path) }
        let (dataVersion, slot) = images["db"]!.withUnsafeBytes { buffer in
            FileHeader.slotOffsets.indices.compactMap { slot in
                MetaSlot.decode(from: buffer.baseAddress! + FileHeader.slotOffsets[slot]).map { ($0.version, slot) }
            }.max { $0.0 < $1.0 }!
        }
        let data = try storage.openFile(at: "db", create: false, readOnly: false)
        let writer = try LogWriter.recover(
            logs: try openLogs(storage, sealByteCount: sealByteCount), data: data, dataVersion: dataVersion,
            dataSlot: slot, sealByteCount: sealByteCount)
        // Recovered again (a crash right after the first recovery): nothing left to replay.
        let again = try LogWriter.recover(
            logs: try openLogs(storage, sealByteCount: sealByteCount), data: data, dataVersion: writer.dataVersion,
            dataSlot: writer.dataSlot, sealByteCount: sealByteCount)
        XCTAssertEqual(again.dataVersion, writer.dataVersion)
        XCTAssertEqual(again.generation, writer.generation + 1)
        return (writer.dataVersion, try XCTUnwrap(storage.contents(ofFile: "db")), writer.generation)
    }

    /// `.full` commits through the writer with a checkpoint every few, generations alternating between the two
    /// files: at every sync of any file, pairs of crash images of the three files recover to a version no older
    /// than the last acknowledged one, whole, and never to a generation the files already used.
    func testEveryCrashImageAcrossGenerationsRecovers() throws {
        let storage = TwoFileRecording()
        let capture = Capture()
        storage.onSync = { path, files in
            capture.lock.withLock {
                if path != "db", let log = files[path], TwoFileRecording.grows(log) {
                    XCTAssertTrue(TwoFileRecording.writesZerosOnly(log), "a growth syncs zeros alone")
                    capture.growths.insert(capture.events.count)
                }
                capture.events.append(files)
            }
        }
        var random = SeededGenerator(seed: 32)
        let model = LogCommitModel(pageSize: pageSize)
        try storage.inner.setContents(model.initialDataFile(), ofFile: "db")
        let data = try storage.openFile(at: "db", create: false, readOnly: false)
        let writer = try LogWriter.recover(
            logs: try openLogs(storage, sealByteCount: 0), data: data, dataVersion: 1, dataSlot: 0, sealByteCount: 0,
            checkpointThreshold: 24 << 10)
        var acknowledged: UInt64 = 1
        var checked = 0
        var generationsBegun = 0
        for _ in 1...30 {
            capture.lock.withLock {
                capture.events.removeAll()
                capture.growths.removeAll()
            }
            let (meta, sealed, release) = model.commit(nodes: Int.random(in: 1...3, using: &random), using: &random)
            try writer.append(meta: meta, nodes: sealed.sortedByPage())
            release()
            try writer.sync()
            var checkpointed = false
            if writer.needsCheckpoint {
                if try writer.checkpoint(oldestPinnedGeneration: nil) != nil { generationsBegun += 1 }
                checkpointed = true
            }
            let (events, growths) = capture.lock.withLock { (capture.events, capture.growths) }
            XCTAssertEqual(
                events.count - growths.count, checkpointed ? 4 : 1,
                "an append syncs once, a checkpoint three times (besides a growth's zeros)")
            // The append's sync (the first that is not a growth) may lose the append; the checkpoint's syncs come
            // after it returned.
            let appendSync = events.indices.first { !growths.contains($0) } ?? 0
            for (number, event) in events.enumerated() {
                let oldest = number <= appendSync ? acknowledged : meta.version
                checked += try checkEvent(event, model: model, oldest: oldest, newest: meta.version, using: &random)
            }
            acknowledged = meta.version
        }
        XCTAssertGreaterThanOrEqual(generationsBegun, 3, "the run alternated between the files")
        XCTAssertGreaterThan(checked, 30 * 8)
    }

    private func checkEvent(
        _ event: [String: TwoFileRecording.FileRecord], model: LogCommitModel, oldest: UInt64, newest: UInt64,
        using random: inout SeededGenerator
    ) throws -> Int {
        var checked = 0
        let paths = ["db", "db.log", "db.log2"]
        for images in TwoFileRecording.crashImageSets(of: event, paths: paths, count: 3, using: &random) {
            let recovered = try recover(images: images, sealByteCount: model.sealByteCount)
            XCTAssertTrue(
                (oldest...newest).contains(recovered.version),
                "recovered \(recovered.version), expected \(oldest)...\(newest)")
            XCTAssertEqual(model.problems(inData: recovered.data, version: recovered.version), [])
            checked += 1
        }
        return checked
    }
}
