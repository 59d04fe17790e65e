import Foundation
@testable import StrataStorage
import StrataTestSupport
import XCTest

/// Deltas in the commit log (`LogDelta`, log format 3): one-value commits log the nodes they copied from a copy in
/// the same generation as their changed bytes, every reader (a pinned one across checkpoints included) reads the
/// nodes made from them right, every crash image opens at a whole step, and a damaged delta or base is an error.
final class LogDeltaTests: PagerTestCase {
    /// A table of `rows` doubles, one updated per step; the model is what each step leaves.
    private struct Salaries {
        static let rows = 600

        /// Creates the table and its rows (value = row number) in one commit.
        static func create(_ store: Store) throws {
            let writer = try store.beginWrite()
            let catalog = try Catalog(writer: writer)
            let table = try catalog.createTable(named: "People")
            try table.addColumn(named: "salary", type: .value(.double))
            for row in 0..<rows {
                _ = try table.insert([(try column(table), .double(Double(row)))], key: ObjectKey(Int64(row) + 1))
            }
            try catalog.flush()
            try writer.commit()
        }

        static func column(_ table: Table) throws -> ColumnKey {
            try XCTUnwrap(table.column(named: "salary")).key
        }

        /// The row step `step` sets: mostly a few rows (their cluster's copy is then in the log), now and then any.
        static func row(of step: Int) -> Int {
            step % 7 == 0 ? (step * 131) % rows : step % 3
        }

        /// Commits step `step`: the row `row(of:)` gets the value `step`.
        static func advance(_ store: Store, step: Int, model: inout [Double]) throws {
            let writer = try store.beginWrite()
            let catalog = try Catalog(writer: writer)
            let table = try XCTUnwrap(catalog.table(named: "People"))
            let row = row(of: step)
            try table.set(ObjectKey(Int64(row) + 1), column: try column(table), to: .double(Double(1000 + step)))
            try catalog.flush()
            try writer.commit()
            model[row] = Double(1000 + step)
        }

        /// Every row's value as `reader` reads it.
        static func read(_ reader: ReadTransaction) throws -> [Double] {
            let catalog = try Catalog(reader: reader)
            let table = try XCTUnwrap(catalog.table(named: "People"))
            let column = try column(table)
            return try (0..<rows).map { try table.double(ObjectKey(Int64($0) + 1), column: column) ?? -1 }
        }

        static func initial() -> [Double] { (0..<rows).map(Double.init) }
    }

    private func logOptions(io: StorageIO? = nil, threshold: UInt64 = 1 << 30, deltas: Bool = true) -> StoreOptions {
        var options = StoreOptions(durability: .full, io: io)
        options.commitLog = true
        options.logCheckpointThreshold = threshold
        options.logDeltas = deltas
        return options
    }

    /// The records of the newest generation of the store at `path` in `storage`, every node checked.
    private func newestRecords(_ storage: MemoryStorage, path: String = "db") throws -> (CommitLog, [CommitLog.Located]) {
        let logs = try Store.logPaths(for: path).map { logPath in
            try CommitLog(
                file: try storage.openFile(at: logPath, create: false, readOnly: true), pageSize: 4096,
                sealByteCount: 0, verifyingNodes: false)
        }
        let newest = try XCTUnwrap(logs.filter { $0.header != nil }.max { $0.header!.generation < $1.header!.generation })
        let data = try storage.openFile(at: path, create: false, readOnly: true)
        let records = try newest.records(
            after: newest.header!.checkpointed, sealByteCount: 0, verifyingNodes: true, data: data)
        return (newest, records)
    }

    func testOneValueCommitsLogDeltasReadBackAndReopen() throws {
        var logged: [Bool: UInt64] = [:]
        for deltas in [true, false] {
            let storage = MemoryStorage(capacity: 1 << 28)
            var model = Salaries.initial()
            do {
                let store = try Store.open(path: "db", options: logOptions(io: storage, deltas: deltas))
                try Salaries.create(store)
                let created = try XCTUnwrap(store.logWriter).log.recordBytes
                for step in 1...40 {
                    try Salaries.advance(store, step: step, model: &model)
                    let reader = try store.beginRead()
                    XCTAssertEqual(try Salaries.read(reader), model, "step \(step) read back")
                    reader.end()
                }
                logged[deltas] = try XCTUnwrap(store.logWriter).log.recordBytes - created
                let (_, records) = try newestRecords(storage)
                XCTAssertEqual(records.count, 41, "every record is whole, its deltas made and checked")
                let deltaEntries = records.reduce(0) { $0 + $1.record.entries.count { $0.isDelta } }
                if deltas {
                    XCTAssertGreaterThan(deltaEntries, 80, "the catalog and the branch at every commit, and clusters")
                } else {
                    XCTAssertEqual(deltaEntries, 0)
                }
                _ = try store.verifyAll()
                store.close()
            }
            let reopened = try Store.open(path: "db", options: logOptions(io: storage))
            defer { reopened.close() }
            let reader = try reopened.beginRead()
            defer { reader.end() }
            XCTAssertEqual(try Salaries.read(reader), model)
        }
        let withDeltas = try XCTUnwrap(logged[true])
        let whole = try XCTUnwrap(logged[false])
        XCTAssertLessThan(withDeltas * 3, whole * 2, "deltas log less than two thirds of the whole nodes' bytes")
    }

    /// Readers pinned across 150 commits that each checkpoint, while those commits reuse the pages a dropped table
    /// freed before the pins: one reads in another thread all along, the other first reads after the 150 commits
    /// (it makes its version's deltas from their bases then, so a base reused and written over by a checkpoint
    /// would show). Both read their version, and the newest reads and verifies.
    func testReadersPinnedAcrossCheckpointsWhileFreedPagesAreReused() throws {
        let store = try Store.open(path: storePath(), options: logOptions(threshold: 1))
        defer { store.close() }
        var model = Salaries.initial()
        try Salaries.create(store)
        do {
            let writer = try store.beginWrite()
            let catalog = try Catalog(writer: writer)
            let scratch = try catalog.createTable(named: "Scratch")
            try scratch.addColumn(named: "text", type: .value(.string))
            let column = try XCTUnwrap(scratch.column(named: "text")).key
            for row in 0..<2000 { _ = try scratch.insert([(column, .string(String(repeating: "s\(row % 10)", count: 400)))]) }
            try catalog.flush()
            try writer.commit()
        }
        let dropper = try store.beginWrite()
        let catalog = try Catalog(writer: dropper)
        try catalog.removeTable(named: "Scratch")
        try catalog.flush()
        try dropper.commit()
        for step in 1...5 { try Salaries.advance(store, step: step, model: &model) }
        let pinned = try store.beginRead()
        let late = try store.beginRead()
        let expected = model
        let stop = ManagedFlag()
        let failures = Failures()
        let thread = Thread {
            while !stop.isSet {
                do {
                    if try Salaries.read(pinned) != expected { failures.append("the pinned reader read other values") }
                } catch {
                    failures.append("the pinned reader failed: \(error)")
                }
            }
        }
        thread.start()
        var pageCounts: [UInt64] = []
        for step in 6...155 {
            try Salaries.advance(store, step: step, model: &model)
            let reader = try store.beginRead()
            XCTAssertEqual(try Salaries.read(reader), model, "step \(step)")
            pageCounts.append(reader.meta.pageCount)
            reader.end()
        }
        stop.set()
        while !thread.isFinished { usleep(1000) }
        XCTAssertEqual(failures.items, [])
        XCTAssertEqual(try Salaries.read(pinned), expected)
        XCTAssertEqual(try Salaries.read(late), expected, "read first after the reuse")
        XCTAssertEqual(pageCounts[49], late.meta.pageCount, "the first 50 commits took the dropped table's pages")
        XCTAssertGreaterThan(store.lockFile.generation, late.pin.generation, "the commits checkpointed")
        pinned.end()
        late.end()
        try Salaries.advance(store, step: 156, model: &model)
        let reader = try store.beginRead()
        defer { reader.end() }
        XCTAssertEqual(try Salaries.read(reader), model)
        _ = try store.verifyAll()
    }

    /// Every crash image of the data file and both logs at every sync (each append of a record of deltas, each of
    /// the three syncs of checkpoints that make deltas whole) opens at the step before the commit or at its own,
    /// every value that step's, and verifies. Images cut appends at every sector, so torn delta records are among
    /// them.
    func testEveryCrashImageOfDeltaCommitsOpensAtAWholeStep() throws {
        let storage = TwoFileRecording()
        let events = EventList()
        storage.onSync = { _, files in events.append(files) }
        let store = try Store.open(path: "db", options: logOptions(io: storage, threshold: 48 << 10))
        defer { store.close() }
        try Salaries.create(store)
        var models = [Salaries.initial()]
        var random = SeededGenerator(seed: 91)
        var checked = 0
        var checkpoints = 0
        var deltas = 0
        let steps = longTests ? 60 : 24
        for step in 1...steps {
            events.removeAll()
            var model = models[step - 1]
            try Salaries.advance(store, step: step, model: &model)
            models.append(model)
            let synced = events.items
            if synced.count > 1 { checkpoints += 1 }
            deltas += try newestRecords(storage.inner).1.last { $0.record.version == (try? store.currentMeta().version) }?
                .record.entries.count { $0.isDelta } ?? 0
            for (number, event) in synced.enumerated() {
                let oldest = number == 0 ? step - 1 : step
                for images in TwoFileRecording.crashImageSets(
                    of: event, paths: ["db"] + Store.logPaths(for: "db"), count: 2, using: &random)
                {
                    let crashed = MemoryStorage(capacity: 1 << 28)
                    for (path, bytes) in images where !bytes.isEmpty { try crashed.setContents(bytes, ofFile: path) }
                    let opened = try Store.open(path: "db", options: logOptions(io: crashed))
                    defer { opened.close() }
                    let reader = try opened.beginRead()
                    let values = try Salaries.read(reader)
                    reader.end()
                    let found = (oldest...step).first { models[$0] == values }
                    XCTAssertNotNil(found, "step \(step), sync \(number): the image opened at no step from \(oldest)")
                    _ = try opened.verifyAll()
                    checked += 1
                }
            }
        }
        XCTAssertGreaterThan(deltas, steps / 2, "commits logged deltas")
        XCTAssertGreaterThanOrEqual(checkpoints, 2, "the run checkpointed")
        XCTAssertGreaterThan(checked, steps * 4)
    }

    /// A byte of a delta, or of the copy it stands on (in the log or the data file), damaged: making the node fails
    /// as `corruptFile`, and the first opener's replay ends the log before the damaged record (an older whole step)
    /// or, for a base in the data file that an older step still reaches, fails as `corruptFile`: never other values.
    func testADamagedDeltaOrBaseIsAnErrorNeverWrongData() throws {
        let storage = MemoryStorage(capacity: 1 << 28)
        var models = [Salaries.initial()]
        // Created, then checkpointed by the close: the first update of each node stands on the data file's page.
        let creator = try Store.open(path: "db", options: logOptions(io: storage))
        try Salaries.create(creator)
        creator.close()
        let store = try Store.open(path: "db", options: logOptions(io: storage))
        defer { store.close() }
        for step in 1...12 {
            var model = models[step - 1]
            try Salaries.advance(store, step: step, model: &model)
            models.append(model)
        }
        let paths = ["db"] + Store.logPaths(for: "db")
        let files = try paths.map { try XCTUnwrap(storage.contents(ofFile: $0)) }
        let (log, records) = try newestRecords(storage)
        let logPath = log.file.path
        var index = LogIndex()
        index.reset(salt: try XCTUnwrap(log.header).salt, checkpointed: try XCTUnwrap(log.header).checkpointed)
        index.extend(with: records, pageSize: 4096)
        var damages: [(what: String, path: String, offset: Int)] = []
        var targets: [(page: UInt64, location: LogIndex.Location)] = []
        var baseKinds: Set<Bool> = []
        for located in records.reversed() {
            for entry in located.record.entries where entry.isDelta {
                let location = try XCTUnwrap(index.location(of: entry.page, atMost: located.record.version))
                let delta = try files[paths.firstIndex(of: logPath)!].withUnsafeBytes { bytes in
                    try XCTUnwrap(LogDelta.decode(
                        from: bytes.baseAddress! + Int(location.offset), byteCount: Int(location.byteCount),
                        maximumNodeBytes: Int(location.pages) * 4096))
                }
                let base = index.location(of: delta.basePage, atMost: delta.baseVersion)
                let inLog = base.map { $0.version == delta.baseVersion && !$0.isInPlace } ?? false
                guard baseKinds.insert(inLog).inserted else { continue }
                let last = try XCTUnwrap(delta.ranges.last)
                damages.append(("a changed byte of a delta", logPath, Int(location.offset) + last.source + last.length - 1))
                damages.append(("the base page number of a delta", logPath, Int(location.offset) + 1))
                if inLog, let base {
                    damages.append(("its base in the log", logPath, Int(base.offset) + Int(base.byteCount) - 1))
                } else {
                    damages.append(("its base in the data file", "db", Int(delta.basePage) * 4096 + 100))
                }
                targets += Array(repeating: (entry.page, location), count: 3)
            }
        }
        XCTAssertEqual(baseKinds, [true, false], "deltas on copies in the log and on the data file's pages")
        for (damage, target) in zip(damages, targets) {
            let damaged = MemoryStorage(capacity: 1 << 28)
            for (path, original) in zip(paths, files) {
                var bytes = original
                if path == damage.path { bytes[damage.offset] ^= 0x5A }
                try damaged.setContents(bytes, ofFile: path)
            }
            let damagedLog = try CommitLog(
                file: try damaged.openFile(at: logPath, create: false, readOnly: true), pageSize: 4096,
                sealByteCount: 0, verifyingNodes: false)
            let materializer = LogMaterializer(
                source: .file(damagedLog), data: try damaged.openFile(at: "db", create: false, readOnly: true),
                pageSize: 4096, path: logPath)
            XCTAssertThrowsError(
                try materializer.node(page: target.page, location: target.location, index: index), damage.what
            ) {
                guard case StrataError.corruptFile = $0 else { return XCTFail("\(damage.what): \($0)") }
            }
            do {
                let opened = try Store.open(path: "db", options: logOptions(io: damaged))
                defer { opened.close() }
                let reader = try opened.beginRead()
                defer { reader.end() }
                let step = models.firstIndex(of: try Salaries.read(reader))
                XCTAssertNotNil(step, "\(damage.what): the damaged files opened at values of no step")
                XCTAssertLessThan(step ?? .max, 12, "\(damage.what): the damaged record was replayed")
            } catch StrataError.corruptFile {
                XCTAssertEqual(damage.path, "db", "\(damage.what): only a damaged data file page fails the open")
            }
        }
    }
}

/// A flag one thread sets and another polls.
private final class ManagedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}

/// Failures a background thread reports to the test.
private final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [String] = []
    var items: [String] { lock.withLock { list } }
    func append(_ item: String) { lock.withLock { list.append(item) } }
}

/// The sync events a recording storage reports.
private final class EventList: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [[String: TwoFileRecording.FileRecord]] = []
    var items: [[String: TwoFileRecording.FileRecord]] { lock.withLock { list } }
    func append(_ item: [String: TwoFileRecording.FileRecord]) { lock.withLock { list.append(item) } }
    func removeAll() { lock.withLock { list.removeAll() } }
}
