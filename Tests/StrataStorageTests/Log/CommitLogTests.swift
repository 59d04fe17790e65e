import Foundation
@testable import StrataStorage
import StrataTestSupport
import XCTest

/// The commit log on its own (not yet used by `Store`): records round-trip with one write each, a torn or stale
/// record ends the log, a reset starts a generation the old records cannot join, the index answers each version
/// with the copy it reads, and a checkpoint writes the newest copy of every page and the newest meta slot.
final class CommitLogTests: XCTestCase {
    private let pageSize = 4096

    private func makeLog(
        _ storage: StorageIO, sealByteCount: Int = 0, preallocated: UInt64 = 1 << 20
    ) throws -> CommitLog {
        try CommitLog(
            file: storage.openFile(at: "db.log", create: true, readOnly: false), pageSize: pageSize,
            preallocatedBytes: preallocated, sealByteCount: sealByteCount)
    }

    /// The set-up most tests share: memory storage holding a log started at generation 0 after version 1 (and,
    /// `withDataFile`, the model's first data file), the model whose commits fill it.
    private func startedLog(
        capacity: UInt64 = 64 << 20, cipher: NodeCipher? = nil, withDataFile: Bool = false,
        preallocated: UInt64 = 1 << 20
    ) throws -> (storage: MemoryStorage, model: LogCommitModel, log: CommitLog) {
        let storage = MemoryStorage(capacity: capacity)
        let model = LogCommitModel(pageSize: pageSize, cipher: cipher)
        if withDataFile { try storage.setContents(model.initialDataFile(), ofFile: "db") }
        let log = try makeLog(
            storage, sealByteCount: cipher == nil ? 0 : NodeCipher.sealByteCount, preallocated: preallocated)
        try log.reset(checkpointed: 1, generation: 0)
        return (storage, model, log)
    }

    /// Appends `count` commits of the model to `log`; returns what each append returned. With `inlining`, every
    /// other node of a commit goes inline in its record's header pages (`LogRecord.Entry.isInline`), whatever its
    /// size: not for checkpoints, which write only the newest record's inline nodes (a commit's free-list changes,
    /// which the next commit frees), where the model's nodes live on.
    private func append(
        _ count: Int, of model: LogCommitModel, to log: CommitLog, nodes: ClosedRange<Int> = 1...4,
        inlining: Bool = false, using random: inout SeededGenerator
    ) throws -> [CommitLog.Located] {
        try (0..<count).map { _ in
            let (meta, sealed, release) = model.commit(nodes: Int.random(in: nodes, using: &random), using: &random)
            defer { release() }
            let sorted = sealed.sortedByPage()
            let inline = inlining ? Set(sorted.enumerated().filter { $0.offset % 2 == 0 }.map(\.element.page)) : []
            return try log.append(meta: meta, nodes: sorted, inline: inline)
        }
    }

    func testRecordsRoundTripWithOneWriteEach() throws {
        let storage = TwoFileRecording()
        var random = SeededGenerator(seed: 1)
        let model = LogCommitModel(pageSize: pageSize)
        let log = try makeLog(storage)
        XCTAssertNil(log.header, "a new log has no generation until its first reset")
        try log.reset(checkpointed: 1, generation: 0)
        let before = storage.records["db.log"]?.pending.count ?? 0
        let appended = try append(20, of: model, to: log, inlining: true, using: &random)
        let writes = (storage.records["db.log"]?.pending.count ?? 0) - before
        XCTAssertEqual(writes, 20, "one write per record")
        XCTAssertTrue(appended.allSatisfy { $0.record.entries.contains(where: \.isInline) }, "inline nodes in each")
        XCTAssertEqual(log.newestVersion, 21)

        let reopened = try makeLog(storage)
        XCTAssertEqual(reopened.header, log.header)
        XCTAssertEqual(reopened.appendOffset, log.appendOffset)
        XCTAssertEqual(reopened.newestVersion, 21)
        let read = try reopened.records(after: 1, sealByteCount: 0, verifyingNodes: true)
        XCTAssertEqual(read, appended)
        XCTAssertEqual(
            try reopened.records(after: 15, sealByteCount: 0, verifyingNodes: false), Array(appended.suffix(6)))
        XCTAssertEqual(read.map(\.record.meta.version), Array(2...21))
        for located in read {
            XCTAssertEqual(located.offset % UInt64(pageSize), 0, "records start on page boundaries")
        }
    }

    /// A log written before inline nodes (header format 1, no entry with bit 31 of its pages word) is read as it
    /// was: the same records, nothing inline; so is one written before deltas (format 2, no entry with bit 30); a
    /// format newer than 3 is refused.
    func testAFormatOneLogIsReadAndANewerFormatRefused() throws {
        var random = SeededGenerator(seed: 12)
        let (storage, model, log) = try startedLog()
        let appended = try append(8, of: model, to: log, using: &random)
        func rewriteFormat(_ format: UInt32) throws {
            var bytes = try XCTUnwrap(storage.contents(ofFile: "db.log"))
            bytes.withUnsafeMutableBytes { raw in
                let base = raw.baseAddress!
                base.setU32(format, at: 16)
                let hashed = UnsafeRawPointer(base) + 8
                base.setU64(Checksum.hash(hashed, count: LogHeader.byteCount - 8, seed: LogHeader.checksumSeed), at: 0)
            }
            try storage.setContents(bytes, ofFile: "db.log")
        }
        try rewriteFormat(1)
        let reopened = try makeLog(storage)
        XCTAssertEqual(reopened.newestVersion, 9)
        let read = try reopened.records(after: 1, sealByteCount: 0, verifyingNodes: true)
        XCTAssertEqual(read, appended)
        XCTAssertFalse(read.contains { $0.record.entries.contains(where: \.isInline) })
        try rewriteFormat(2)
        XCTAssertEqual(try makeLog(storage).records(after: 1, sealByteCount: 0, verifyingNodes: true), appended)
        try rewriteFormat(4)
        XCTAssertThrowsError(try makeLog(storage)) { error in
            guard case StrataError.unsupportedFormat = error else { return XCTFail("\(error)") }
        }
    }

    /// The log is preallocated with written zeros, not a sparse `ftruncate`, in a real file: every block of it is
    /// allocated before the first append, and growth past it is written the same way.
    func testPreallocationWritesEveryBlock() throws {
        let directory = try TemporaryDirectory()
        let path = directory.url.appendingPathComponent("db.log").path
        var random = SeededGenerator(seed: 10)
        let model = LogCommitModel(pageSize: pageSize)
        let log = try CommitLog(
            file: POSIXStorage().openFile(at: path, create: true, readOnly: false), pageSize: pageSize,
            preallocatedBytes: 256 << 10, sealByteCount: 0)
        try log.reset(checkpointed: 1, generation: 0)
        func allocated() throws -> (size: Int64, blocks: Int64) {
            var status = stat()
            guard stat(path, &status) == 0 else {
                throw StrataError.io(operation: "stat", path: path, errno: errno, message: "the log cannot be examined")
            }
            return (Int64(status.st_size), Int64(status.st_blocks) * 512)
        }
        var (size, blocks) = try allocated()
        XCTAssertEqual(size, 256 << 10)
        XCTAssertGreaterThanOrEqual(blocks, size, "a sparse log would allocate blocks at every append")
        while log.recordBytes < 600 << 10 { _ = try append(1, of: model, to: log, using: &random) }
        (size, blocks) = try allocated()
        XCTAssertEqual(size % (256 << 10), 0, "grown in steps of the preallocation")
        XCTAssertGreaterThanOrEqual(blocks, size)
    }

    func testAppendsRefuseVersionsOutOfOrderAndALogWithoutGeneration() throws {
        var random = SeededGenerator(seed: 2)
        let model = LogCommitModel(pageSize: pageSize)
        let log = try makeLog(MemoryStorage(capacity: 64 << 20))
        let (meta, sealed, release) = model.commit(nodes: 1, using: &random)
        defer { release() }
        XCTAssertThrowsError(try log.append(meta: meta, nodes: sealed.sortedByPage()))
        try log.reset(checkpointed: 5, generation: 0)
        XCTAssertThrowsError(try log.append(meta: meta, nodes: sealed.sortedByPage()), "version 2 does not follow 5")
    }

    /// Every cut of the last record at 512-byte sectors, and any one damaged byte in one of its nodes, ends the log
    /// after the record before it.
    func testATornOrDamagedAppendEndsTheLogThere() throws {
        var random = SeededGenerator(seed: 3)
        let (storage, model, log) = try startedLog()
        let appended = try append(6, of: model, to: log, nodes: 2...4, inlining: true, using: &random)
        let whole = try XCTUnwrap(storage.contents(ofFile: "db.log"))
        let last = appended[5]
        let end = Int(last.offset + last.record.byteCount(pageSize: pageSize))
        let usedEnd = Int(last.offset) + zip(last.record.entries, last.record.nodeOffsets(pageSize: pageSize))
            .map { Int($1) + Int($0.byteCount) }.max()!
        // Cuts that lose a used byte of the record: the sectors after its last node's bytes are padding.
        for cut in stride(from: Int(last.offset), to: usedEnd, by: 512) {
            var torn = whole
            torn.replaceSubrange(cut..<end, with: [UInt8](repeating: 0, count: end - cut))
            try storage.setContents(torn, ofFile: "db.log")
            let reopened = try makeLog(storage)
            XCTAssertEqual(reopened.newestVersion, 6, "a record cut at byte \(cut - Int(last.offset)) is not whole")
            XCTAssertEqual(reopened.appendOffset, last.offset)
        }
        for _ in 0..<40 {
            var damaged = whole
            let entry = Int.random(in: 0..<last.record.entries.count, using: &random)
            let nodeStart = Int(last.offset + last.record.nodeOffsets(pageSize: pageSize)[entry])
            let byte = nodeStart + Int.random(in: 0..<Int(last.record.entries[entry].byteCount), using: &random)
            damaged[byte] ^= UInt8.random(in: 1...255, using: &random)
            try storage.setContents(damaged, ofFile: "db.log")
            XCTAssertEqual(try makeLog(storage).newestVersion, 6, "a damaged node ends the log before its record")
            let joining = try CommitLog(
                file: storage.openFile(at: "db.log", create: false, readOnly: false), pageSize: pageSize,
                sealByteCount: 0, verifyingNodes: false)
            XCTAssertEqual(joining.newestVersion, 7, "a process joining an open store reads the headers only")
            XCTAssertEqual(
                try makeLog(storage).records(after: 1, sealByteCount: 0, verifyingNodes: false).count, 6,
                "reading headers only (records another process published) does not read the nodes")
        }
    }

    /// After a reset, the old generation's records (a new salt) are not read, even where the new generation has
    /// not overwritten them, and the new generation's versions start after the checkpointed one.
    func testAResetEndsTheOldGeneration() throws {
        var random = SeededGenerator(seed: 4)
        let (storage, model, log) = try startedLog()
        _ = try append(10, of: model, to: log, using: &random)
        let oldSalt = try XCTUnwrap(log.header?.salt)
        try log.reset(checkpointed: 11, generation: 0)
        XCTAssertNotEqual(log.header?.salt, oldSalt)
        XCTAssertEqual(log.appendOffset, log.recordsStart)
        XCTAssertEqual(try makeLog(storage).newestVersion, 11, "no record of the old generation is read")
        let appended = try append(1, of: model, to: log, using: &random)
        let reopened = try makeLog(storage)
        XCTAssertEqual(reopened.newestVersion, 12)
        XCTAssertEqual(try reopened.records(after: 0, sealByteCount: 0, verifyingNodes: true), appended)
    }

    /// A reader of version v reads each page's newest copy up to v; older copies stay answerable while the
    /// generation lasts.
    func testTheIndexAnswersEachVersionWithItsCopy() throws {
        var random = SeededGenerator(seed: 5)
        let (_, model, log) = try startedLog()
        _ = try append(60, of: model, to: log, inlining: true, using: &random)
        var index = LogIndex()
        index.reset(salt: log.header!.salt, checkpointed: 1)
        // Extended in steps, as readers extend it when they begin.
        for step in stride(from: 1, to: 61, by: 7) {
            index.extend(with: try log.records(after: index.newestVersion, sealByteCount: 0, verifyingNodes: false)
                .filter { $0.record.version <= UInt64(step + 1) }, pageSize: pageSize)
        }
        let rest = try log.records(after: index.newestVersion, sealByteCount: 0, verifyingNodes: false)
        index.extend(with: rest, pageSize: pageSize)
        XCTAssertEqual(index.newestVersion, 61)
        var buffer = [UInt8](repeating: 0, count: 2 * pageSize)
        for version in UInt64(2)...61 {
            for (page, checksum) in model.states[version]! {
                let location = try XCTUnwrap(index.location(of: page, atMost: version), "page \(page) at \(version)")
                XCTAssertLessThanOrEqual(location.version, version)
                try buffer.withUnsafeMutableBytes { try log.read(at: location.offset, into: $0) }
                XCTAssertEqual(buffer.withUnsafeBytes { $0.baseAddress!.u64(at: 0) }, checksum)
            }
        }
        XCTAssertNil(index.location(of: 1, atMost: 1), "version 1 has no copy in the log")
    }

    /// Another process's view of the log: it extends its own index from the headers appended since it last
    /// looked, and when the writer begins a new generation it notices the new salt and starts its index over.
    func testAnotherProcessExtendsItsIndexFromNewHeadersAndNoticesANewGeneration() throws {
        let storage = MemoryStorage(capacity: 64 << 20)
        var random = SeededGenerator(seed: 11)
        let model = LogCommitModel(pageSize: pageSize)
        let writer = try makeLog(storage)
        try writer.reset(checkpointed: 1, generation: 0)
        let reader = try makeLog(storage)
        var index = LogIndex()
        index.reset(salt: try XCTUnwrap(reader.header?.salt), checkpointed: try XCTUnwrap(reader.header?.checkpointed))
        for _ in 0..<10 {
            let appended = try append(Int.random(in: 1...3, using: &random), of: model, to: writer, using: &random)
            XCTAssertFalse(try reader.refreshHeader())
            let new = try reader.records(after: index.newestVersion, sealByteCount: 0, verifyingNodes: false)
            XCTAssertEqual(new, appended, "exactly the records appended since the reader last looked")
            index.extend(with: new, pageSize: pageSize)
        }
        XCTAssertEqual(index.newestVersion, writer.newestVersion)
        try writer.reset(checkpointed: writer.newestVersion, generation: 0)
        let appended = try append(2, of: model, to: writer, using: &random)
        XCTAssertTrue(try reader.refreshHeader(), "the reader sees the new generation")
        let header = try XCTUnwrap(reader.header)
        XCTAssertEqual(header, writer.header)
        index.reset(salt: header.salt, checkpointed: header.checkpointed)
        let new = try reader.records(after: index.newestVersion, sealByteCount: 0, verifyingNodes: false)
        XCTAssertEqual(new, appended)
        index.extend(with: new, pageSize: pageSize)
        var found = 0
        for (page, checksum) in model.states[model.newestVersion]! {
            guard let location = index.location(of: page, atMost: model.newestVersion) else { continue }
            var bytes = [UInt8](repeating: 0, count: Int(location.byteCount))
            try bytes.withUnsafeMutableBytes { try reader.read(at: location.offset, into: $0) }
            XCTAssertEqual(bytes.withUnsafeBytes { $0.baseAddress!.u64(at: 0) }, checksum)
            found += 1
        }
        XCTAssertGreaterThan(found, 0)
    }

    /// A checkpoint writes the newest copy of each page and the newest meta slot into the other slot; the data
    /// file then holds the newest version by itself.
    func testACheckpointBringsTheDataFileToTheNewestVersion() throws {
        var random = SeededGenerator(seed: 6)
        let (storage, model, log) = try startedLog(withDataFile: true)
        let data = try storage.openFile(at: "db", create: false, readOnly: false)
        var dataVersion: UInt64 = 1
        var slot = 0
        for round in 0..<5 {
            _ = try append(25, of: model, to: log, using: &random)
            let outcome = try LogCheckpoint.run(
                log: log, into: data, dataVersion: dataVersion, currentSlot: slot, sealByteCount: 0,
                verifyingNodes: round % 2 == 0)
            XCTAssertEqual(outcome.meta?.version, model.newestVersion)
            let image = try XCTUnwrap(storage.contents(ofFile: "db"))
            XCTAssertEqual(model.problems(inData: image, version: model.newestVersion), [])
            dataVersion = model.newestVersion
            slot = 1 - slot
            if round % 2 == 1 { try log.reset(checkpointed: dataVersion, generation: 0) }
        }
        let nothing = try LogCheckpoint.run(
            log: log, into: data, dataVersion: dataVersion, currentSlot: slot, sealByteCount: 0, verifyingNodes: true)
        XCTAssertNil(nothing.meta, "nothing after the data file's version: nothing written")
    }

    /// Nodes a version wrote in place in the data file are listed without bytes: the index sends their version's
    /// readers to the data file, and a checkpoint leaves them there instead of writing an older copy of the page.
    func testNodesInPlaceShadowOlderCopiesOfTheirPages() throws {
        var random = SeededGenerator(seed: 9)
        let (storage, model, log) = try startedLog(withDataFile: true)
        let data = try storage.openFile(at: "db", create: false, readOnly: false)
        var inPlacePages: [(page: UInt64, version: UInt64)] = []
        for number in 0..<40 {
            let commit = model.commit(nodes: 2, inPlace: number % 4 == 3 ? 2 : 0, using: &random)
            defer { commit.release() }
            try model.writeInPlace(commit, into: data)
            let located = try log.append(
                meta: commit.meta, nodes: commit.sealed.sortedByPage(), inPlace: commit.inPlaceEntries)
            XCTAssertEqual(
                located.record.byteCount(pageSize: pageSize),
                UInt64(LogRecord.headerPages(entries: located.record.entries, pageSize: pageSize) * pageSize)
                    + commit.sealed.sortedByPage().reduce(0) { $0 + $1.pages } * UInt64(pageSize),
                "nodes in place take no pages in the record")
            inPlacePages += commit.inPlaceEntries.map { ($0.page, commit.meta.version) }
        }
        let reopened = try makeLog(storage)
        XCTAssertEqual(reopened.newestVersion, 41)
        var index = LogIndex()
        index.reset(salt: reopened.header!.salt, checkpointed: 1)
        index.extend(with: try reopened.records(after: 1, sealByteCount: 0, verifyingNodes: true), pageSize: pageSize)
        var shadowed = 0
        for (page, version) in inPlacePages {
            XCTAssertEqual(index.location(of: page, atMost: version)?.isInPlace, true, "page \(page) at \(version)")
            if let older = index.location(of: page, atMost: version - 1), !older.isInPlace { shadowed += 1 }
        }
        XCTAssertGreaterThan(shadowed, 0, "some nodes in place reuse a page with an older copy in the log")
        _ = try LogCheckpoint.run(
            log: reopened, into: data, dataVersion: 1, currentSlot: 0, sealByteCount: 0, verifyingNodes: true)
        XCTAssertEqual(model.problems(inData: try XCTUnwrap(storage.contents(ofFile: "db")), version: 41), [])
    }

    /// A log of tens of megabytes, with records past the staging buffer (written in several writes), is read a
    /// header and a node at a time, and checkpointed page by page.
    func testALogLongerThanTheStagingBufferAndManyMegabytes() throws {
        var random = SeededGenerator(seed: 7)
        let (storage, model, log) = try startedLog(capacity: 256 << 20, withDataFile: true, preallocated: 4 << 20)
        // Large records: 300 nodes of up to 2 pages, about 1.8 MiB each, past the 1 MiB staging limit.
        let large = try append(6, of: model, to: log, nodes: 300...300, using: &random)
        XCTAssertGreaterThan(
            large.map { $0.record.byteCount(pageSize: pageSize) }.max()!, UInt64(CommitLog.stagingLimit))
        _ = try append(1500, of: model, to: log, nodes: 1...6, using: &random)
        XCTAssertGreaterThan(log.recordBytes, 20 << 20)
        let reopened = try makeLog(storage, preallocated: 4 << 20)
        XCTAssertEqual(reopened.newestVersion, model.newestVersion)
        let data = try storage.openFile(at: "db", create: false, readOnly: false)
        let outcome = try LogCheckpoint.run(
            log: reopened, into: data, dataVersion: 1, currentSlot: 0, sealByteCount: 0, verifyingNodes: true)
        XCTAssertEqual(outcome.meta?.version, model.newestVersion)
        let image = try XCTUnwrap(storage.contents(ofFile: "db"))
        XCTAssertEqual(model.problems(inData: image, version: model.newestVersion), [])
    }

    /// An encrypted store's log holds the nodes as the data file would (ciphertext and seal, covered by the
    /// checksum), never the clear payload; the copies a checkpoint writes decrypt on their pages.
    func testEncryptedRecordsHoldNoClearBytesAndDecryptAfterACheckpoint() throws {
        var random = SeededGenerator(seed: 8)
        let cipher = try NodeCipher(key: (0..<64).map { UInt8($0) })
        let (storage, model, log) = try startedLog(cipher: cipher, withDataFile: true)
        var clearPayloads: [[UInt8]] = []
        for _ in 0..<12 {
            let (meta, sealed, release) = model.commit(nodes: 3, using: &random)
            defer { release() }
            for (_, memory, length) in sealed.encryptedTableNodes {
                let payload = UnsafeRawBufferPointer(start: memory + NodeHeader.byteCount, count: min(length, 64))
                clearPayloads.append([UInt8](payload))
            }
            try log.append(meta: meta, nodes: sealed.sortedByPage())
        }
        let bytes = try XCTUnwrap(storage.contents(ofFile: "db.log"))
        for clear in clearPayloads where clear.count >= 32 {
            XCTAssertNil(bytes.firstRange(of: clear), "a clear payload is in the log")
        }
        XCTAssertEqual(try makeLog(storage, sealByteCount: 0).newestVersion, 1, "without the seal the checksums fail")
        let reopened = try makeLog(storage, sealByteCount: NodeCipher.sealByteCount)
        XCTAssertEqual(reopened.newestVersion, 13)
        let data = try storage.openFile(at: "db", create: false, readOnly: false)
        _ = try LogCheckpoint.run(
            log: reopened, into: data, dataVersion: 1, currentSlot: 0, sealByteCount: NodeCipher.sealByteCount,
            verifyingNodes: true)
        let image = try XCTUnwrap(storage.contents(ofFile: "db"))
        XCTAssertEqual(model.problems(inData: image, version: 13), [])
        try image.withUnsafeBytes { buffer in
            for page in model.states[13]!.keys {
                let start = buffer.baseAddress! + Int(page) * pageSize
                let header = try XCTUnwrap(NodeHeader.decode(from: start))
                let clear = UnsafeMutableRawPointer.allocate(byteCount: Int(header.length), alignment: 16)
                defer { clear.deallocate() }
                XCTAssertTrue(
                    cipher.open(node: start, length: Int(header.length), page: page, into: clear), "page \(page)")
            }
        }
    }
}
