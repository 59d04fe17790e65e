import Foundation
@testable import StrataStorage
import StrataTestSupport
import XCTest

/// Reads through the commit log (not yet used by `Store`): a reader's view of its pinned generation sends each
/// page to the log's copy for its version or to the data file, through `PagedFile` with its checks; views are
/// snapshots that later appends and checkpoints do not change; generations alternate between the two files; a
/// reader never indexes a record past the version it pinned.
final class LogReaderTests: XCTestCase {
    private let pageSize = 4096
    private let capacity: UInt64 = 64 << 20

    /// A data file at version 1, the two log files, a writer's log of generation 0 in the first, and the reading
    /// side over both.
    private struct Fixture {
        let storage: MemoryStorage
        let model: LogCommitModel
        let data: StorageFile
        let pagedFile: PagedFile
        let logs: [CommitLog]
        let reader: LogReader
        /// Every version's meta slot.
        var metas: [UInt64: MetaSlot] = [:]
    }

    private func makeFixture(cipher: NodeCipher? = nil) throws -> Fixture {
        let storage = MemoryStorage(capacity: capacity)
        let model = LogCommitModel(pageSize: pageSize, cipher: cipher)
        try storage.setContents(model.initialDataFile(), ofFile: "db")
        let data = try storage.openFile(at: "db", create: false, readOnly: false)
        let pagedFile = try PagedFile(file: data, pageSize: pageSize, reservedBytes: capacity, cipher: cipher)
        let files = try ["db.log", "db.log2"].map { try storage.openFile(at: $0, create: true, readOnly: false) }
        let logs = try files.map {
            try CommitLog(
                file: $0, pageSize: pageSize, preallocatedBytes: 1 << 20, sealByteCount: model.sealByteCount)
        }
        try logs[0].reset(checkpointed: 1, generation: 0)
        let readFiles = try ["db.log", "db.log2"].map { try storage.openFile(at: $0, create: false, readOnly: true) }
        let reader = try LogReader(
            files: readFiles, pageSize: pageSize, mappedBytes: capacity, sealByteCount: model.sealByteCount)
        return Fixture(storage: storage, model: model, data: data, pagedFile: pagedFile, logs: logs, reader: reader)
    }

    /// Appends `count` commits of the model to `log`, recording their meta slots.
    private func append(
        _ count: Int, to log: CommitLog, in fixture: inout Fixture, using random: inout SeededGenerator
    ) throws {
        for _ in 0..<count {
            let nodes = Int.random(in: 1...4, using: &random)
            let (meta, sealed, release) = fixture.model.commit(nodes: nodes, using: &random)
            defer { release() }
            try log.append(meta: meta, nodes: sealed.sortedByPage())
            fixture.metas[meta.version] = meta
        }
    }

    /// Problems reading every live page of `version` through `view` (nil: without the log), each checked by
    /// `PagedFile` (bounds, binding, version, checksum, authentication) and against the model's checksum.
    private func problems(reading version: UInt64, through view: LogView?, in fixture: Fixture) -> [String] {
        guard let meta = fixture.metas[version], let state = fixture.model.states[version] else {
            return ["version \(version) was never written"]
        }
        var problems: [String] = []
        let lease = fixture.pagedFile.makeLease()
        for (page, checksum) in state.sorted(by: { $0.key < $1.key }) {
            let ref = NodeRef(rawValue: page)
            do {
                let payload = try fixture.pagedFile.payload(
                    of: ref, kind: .table, pageCount: meta.pageCount, version: version, lease: lease, log: view)
                if fixture.pagedFile.decrypted == nil {
                    let start = payload.baseAddress! - NodeHeader.byteCount
                    if start.u64(at: 0) != checksum { problems.append("page \(page) of \(version): another node") }
                }
            } catch {
                problems.append("page \(page) of \(version): \(error)")
            }
        }
        return problems
    }

    func testEveryVersionReadsItsPagesThroughTheLog() throws {
        var fixture = try makeFixture()
        var random = SeededGenerator(seed: 21)
        var views: [UInt64: LogView] = [:]
        // Views taken as readers take them, between appends: each is a snapshot of the index at its version.
        for _ in 0..<12 {
            try append(Int.random(in: 1...5, using: &random), to: fixture.logs[0], in: &fixture, using: &random)
            let version = fixture.model.newestVersion
            views[version] = try fixture.reader.view(generation: 0, version: version)
        }
        for version in UInt64(2)...fixture.model.newestVersion {
            let view = try fixture.reader.view(generation: 0, version: version)
            XCTAssertEqual(problems(reading: version, through: view, in: fixture), [], "version \(version)")
        }
        for (version, view) in views {
            XCTAssertEqual(view.index.newestVersion, version, "a view covers its version and no more")
            XCTAssertEqual(problems(reading: version, through: view, in: fixture), [], "snapshot of \(version)")
        }
        // Without the log the data file holds none of these nodes.
        let newest = fixture.model.newestVersion
        XCTAssertFalse(problems(reading: newest, through: nil, in: fixture).isEmpty)
    }

    /// The writer's own records handed to the reader (`noteAppended`) extend its index as reading their headers back
    /// would: every version then reads right, and a record that does not follow the index (another generation, a
    /// gap, another offset) changes nothing, so the next view reads the headers from the file.
    func testRecordsNotedByTheWriterExtendTheIndexAsTheFileDoes() throws {
        var fixture = try makeFixture()
        var random = SeededGenerator(seed: 24)
        _ = try fixture.reader.view(generation: 0, version: 1)
        var noted: [CommitLog.Located] = []
        for _ in 0..<8 {
            let nodes = Int.random(in: 1...4, using: &random)
            let (meta, sealed, release) = fixture.model.commit(nodes: nodes, using: &random)
            defer { release() }
            let located = try fixture.logs[0].append(meta: meta, nodes: sealed.sortedByPage())
            fixture.metas[meta.version] = meta
            noted.append(located)
        }
        // Out of order and of another generation: ignored.
        fixture.reader.noteAppended(noted[1], generation: 0, pageSize: pageSize)
        fixture.reader.noteAppended(noted[0], generation: 1, pageSize: pageSize)
        XCTAssertEqual(try fixture.reader.end(generation: 0, version: 1), fixture.logs[0].recordsStart)
        for located in noted.prefix(5) { fixture.reader.noteAppended(located, generation: 0, pageSize: pageSize) }
        let fromNotes = try fixture.reader.view(generation: 0, version: 6)
        XCTAssertEqual(fromNotes.index.newestVersion, 6)
        XCTAssertEqual(try fixture.reader.end(generation: 0, version: 6), noted[5].offset)
        // The rest from the file, after the noted ones.
        let whole = try fixture.reader.view(generation: 0, version: 9)
        XCTAssertEqual(whole.index.newestVersion, 9)
        for version in UInt64(2)...9 {
            XCTAssertEqual(problems(reading: version, through: whole, in: fixture), [], "version \(version)")
        }
        let fresh = try LogReader(
            files: ["db.log", "db.log2"].map { try fixture.storage.openFile(at: $0, create: false, readOnly: true) },
            pageSize: pageSize, mappedBytes: capacity, sealByteCount: 0)
        let fromFile = try fresh.view(generation: 0, version: 9)
        for page in fixture.model.states[9]!.keys {
            for version in UInt64(1)...9 {
                XCTAssertEqual(
                    whole.index.location(of: page, atMost: version), fromFile.index.location(of: page, atMost: version))
            }
        }
    }

    /// A reader indexes nothing past the version it pinned: a record appended but not yet published (or left by a
    /// writer that died in the middle of it) is not in its view, and a published version missing from the log is
    /// an error, not a silent read of the data file.
    func testAViewStopsAtItsVersionAndAMissingVersionIsAnError() throws {
        var fixture = try makeFixture()
        var random = SeededGenerator(seed: 22)
        try append(6, to: fixture.logs[0], in: &fixture, using: &random)
        let view = try fixture.reader.view(generation: 0, version: 4)
        XCTAssertEqual(view.index.newestVersion, 4)
        for page in fixture.model.states[7]!.keys {
            XCTAssertLessThanOrEqual(view.index.location(of: page, atMost: .max)?.version ?? 0, 4)
        }
        XCTAssertEqual(problems(reading: 4, through: view, in: fixture), [])
        XCTAssertThrowsError(try fixture.reader.view(generation: 0, version: 9)) { error in
            XCTAssertTrue("\(error)".contains("ends at version 7, before the published version 9"), "\(error)")
        }
        XCTAssertThrowsError(try fixture.reader.view(generation: 1, version: 7)) { error in
            XCTAssertTrue("\(error)".contains("does not hold log generation 1"), "\(error)")
        }
    }

    /// Generations alternate between the two files: after a checkpoint of generation 0, generation 1 begins in
    /// the second file while a reader of generation 0 still reads through its view; versions checkpointed read
    /// from the data file in a view of generation 1, and later ones from its log.
    func testGenerationsAlternateAndOldViewsStayValid() throws {
        var fixture = try makeFixture()
        var random = SeededGenerator(seed: 23)
        var dataVersion: UInt64 = 1
        var slot = 0
        var pinned: [(version: UInt64, view: LogView)] = []
        for generation in UInt64(0)..<4 {
            let log = fixture.logs[Int(generation % 2)]
            if generation > 0 {
                // The file of generation − 2 is reset: readers of it have ended.
                pinned.removeAll { $0.view.generation + 2 <= generation }
                try log.reset(checkpointed: dataVersion, generation: generation)
                let checkpointed = try fixture.reader.view(generation: generation, version: dataVersion)
                XCTAssertEqual(checkpointed.index.pageCount, 0)
                XCTAssertEqual(problems(reading: dataVersion, through: checkpointed, in: fixture), [])
            }
            try append(15, to: log, in: &fixture, using: &random)
            let version = fixture.model.newestVersion
            pinned.append((version, try fixture.reader.view(generation: generation, version: version)))
            let outcome = try LogCheckpoint.run(
                log: log, into: fixture.data, dataVersion: dataVersion, currentSlot: slot, sealByteCount: 0,
                verifyingNodes: false)
            XCTAssertEqual(outcome.meta?.version, version)
            dataVersion = version
            slot = 1 - slot
            for (version, view) in pinned {
                XCTAssertEqual(problems(reading: version, through: view, in: fixture), [], "pinned \(version)")
            }
            XCTAssertEqual(problems(reading: version, through: nil, in: fixture), [], "checkpointed \(version)")
        }
        XCTAssertThrowsError(try fixture.reader.view(generation: 0, version: 2), "generation 2 replaced it")
    }

    /// An encrypted store reads its log's copies as it reads the data file: authenticated and decrypted into the
    /// cache, which a checkpointed twin of the same version then serves.
    func testEncryptedCopiesDecryptFromTheLog() throws {
        var fixture = try makeFixture(cipher: try NodeCipher(key: (0..<64).map { UInt8(truncatingIfNeeded: $0 &* 7) }))
        var random = SeededGenerator(seed: 24)
        try append(10, to: fixture.logs[0], in: &fixture, using: &random)
        for version in UInt64(2)...11 {
            let view = try fixture.reader.view(generation: 0, version: version)
            XCTAssertEqual(problems(reading: version, through: view, in: fixture), [], "version \(version)")
        }
        // A copy damaged in the log fails its checks like a node in the data file.
        let view = try fixture.reader.view(generation: 0, version: 11)
        let (page, _) = try XCTUnwrap(fixture.model.states[11]!.first { view.copy(of: $0.key, atMost: 11) != nil })
        let location = try XCTUnwrap(view.copy(of: page, atMost: 11))
        let damaged = Int(location.offset) + NodeHeader.byteCount + 3
        let byte = try XCTUnwrap(fixture.storage.contents(ofFile: "db.log"))[damaged] ^ 0x40
        try [byte].withUnsafeBytes { try fixture.logs[0].file.write($0, at: UInt64(damaged)) }
        let fresh = try PagedFile(
            file: fixture.data, pageSize: pageSize, reservedBytes: capacity,
            cipher: fixture.pagedFile.decrypted?.cipher)
        XCTAssertThrowsError(try fresh.payload(
            of: NodeRef(rawValue: page), kind: .table, pageCount: fixture.metas[11]!.pageCount, version: 11,
            lease: fresh.makeLease(), log: view))
    }
}
