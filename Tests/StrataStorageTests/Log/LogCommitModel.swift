import Foundation
@testable import StrataStorage
import StrataTestSupport

/// Synthetic commits for the commit log tests, shaped as copy-on-write commits are: each version writes a few
/// nodes of random payloads to fresh pages or to pages freed by earlier versions, and frees some live pages. The
/// model remembers, for every version, which node each live page holds (its checksum), which is what the data
/// file must hold after a checkpoint to that version.
final class LogCommitModel {
    let pageSize: Int
    let cipher: NodeCipher?
    /// The data file's pages so far (page 0 is the header).
    private(set) var pageCount: UInt64 = 1
    /// Pages freed by a version before the newest, reusable now (every version is durable in these tests when
    /// the next one is written, as under `.full`).
    private var reusable: [UInt64] = []
    /// Pages freed by the newest version: reusable from the next one on.
    private var freedNow: [UInt64] = []
    /// The live pages of each version, with the checksum of the node each holds.
    private(set) var states: [UInt64: [UInt64: UInt64]] = [1: [:]]
    private(set) var newestVersion: UInt64 = 1

    init(pageSize: Int, cipher: NodeCipher? = nil) {
        self.pageSize = pageSize
        self.cipher = cipher
    }

    /// Bytes an encrypted node carries after its payload.
    var sealByteCount: Int { cipher == nil ? 0 : NodeCipher.sealByteCount }

    /// Page 0 of a new data file at version 1.
    func initialDataFile() -> [UInt8] {
        FileHeader.encode(pageSize: pageSize, initialMeta: meta(version: 1, pageCount: 1))
    }

    /// The next version's nodes (`nodes` of them, up to `maximumPages` pages each) and meta slot. The returned
    /// `SealedNodes` owns the encrypted images; `release` frees the clear memory once the caller is done.
    func commit(
        nodes: Int, maximumPages: Int = 2, using random: inout some RandomNumberGenerator
    ) -> (meta: MetaSlot, sealed: SealedNodes, release: () -> Void) {
        let commit = commit(nodes: nodes, inPlace: 0, maximumPages: maximumPages, using: &random)
        return (commit.meta, commit.sealed, commit.release)
    }

    /// A commit of the model: its meta slot, the nodes for the log, the nodes written in place in the data file
    /// (as a large transaction's spilled nodes are), and what frees their clear memory.
    struct Commit {
        var meta: MetaSlot
        var sealed: SealedNodes
        var inPlace: SealedNodes
        var release: () -> Void

        /// The entries the log lists for the nodes in place.
        var inPlaceEntries: [(page: UInt64, pages: UInt64, checksum: UInt64)] {
            inPlace.sortedByPage().map { ($0.page, $0.pages, $0.bytes.u64(at: 0)) }
        }
    }

    /// The next version: `nodes` nodes for the log and `inPlace` for the data file, the latter on reused pages when
    /// there are (pages the log may hold older copies of).
    func commit(
        nodes: Int, inPlace: Int, maximumPages: Int = 2, using random: inout some RandomNumberGenerator
    ) -> Commit {
        let version = newestVersion + 1
        reusable += freedNow
        freedNow = []
        var state = states[newestVersion] ?? [:]
        for page in state.keys.sorted() where Int.random(in: 0..<4, using: &random) == 0 {
            state[page] = nil
            freedNow.append(page)
        }
        let sealed = SealedNodes(cipher: cipher, bindsNodes: true)
        let placed = SealedNodes(cipher: cipher, bindsNodes: true)
        var memory: [DirtyNode] = []
        for number in 0..<(inPlace + nodes) {
            let isInPlace = number < inPlace
            let length = isInPlace && !reusable.isEmpty
                ? Int.random(in: 8...(pageSize - NodeHeader.byteCount - sealByteCount), using: &random)
                : Int.random(in: 8...(maximumPages * pageSize - NodeHeader.byteCount - sealByteCount), using: &random)
            let pages = NodeHeader.pageSpan(length: length + sealByteCount, pageSize: pageSize)
            let page: UInt64
            if pages == 1, let index = reusable.indices.randomElement(using: &random) {
                page = reusable.remove(at: index)
            } else {
                page = pageCount
                pageCount += pages
            }
            let node = DirtyNode.allocate(
                pages: pages, pageSize: pageSize, usedBytes: NodeHeader.byteCount + length, kind: .table,
                length: length, mapped: false)
            for offset in 0..<length {
                let byte = UInt8.random(in: 0...255, using: &random)
                node.memory.storeBytes(of: byte, toByteOffset: NodeHeader.byteCount + offset, as: UInt8.self)
            }
            memory.append(node)
            state[page] = (isInPlace ? placed : sealed).seal(node, page: page, version: version)
        }
        states[version] = state
        newestVersion = version
        let pageSize = self.pageSize
        return Commit(
            meta: meta(version: version, pageCount: pageCount), sealed: sealed, inPlace: placed,
            release: { for node in memory { node.release(pageSize: pageSize) } })
    }

    /// Writes the nodes of `commit` that go in place into `data`, growing it first, and syncs it: what a large
    /// transaction does before its record is appended.
    func writeInPlace(_ commit: Commit, into data: StorageFile) throws {
        let nodes = commit.inPlace.sortedByPage()
        guard !nodes.isEmpty else { return }
        let needed = commit.meta.pageCount * UInt64(pageSize)
        if try data.size() < needed { try data.truncate(to: needed) }
        for node in nodes {
            let bytes = UnsafeRawBufferPointer(start: node.bytes, count: node.byteCount)
            try data.write(bytes, at: node.page * UInt64(pageSize))
        }
        try data.sync()
    }

    private func meta(version: UInt64, pageCount: UInt64) -> MetaSlot {
        MetaSlot(
            version: version, root: .none, freeList: .none, commitRecord: .none, commitRecordChecksum: 0,
            pageCount: pageCount, durableBase: version - 1)
    }

    /// Problems with `data` as the image of version `version`: a meta slot of that version must be the newest, and
    /// every live page must hold its node, whole.
    func problems(inData data: [UInt8], version: UInt64) -> [String] {
        guard let state = states[version] else { return ["version \(version) was never written"] }
        return data.withUnsafeBytes { buffer -> [String] in
            let base = buffer.baseAddress!
            let newest = FileHeader.slotOffsets.compactMap { MetaSlot.decode(from: base + $0) }.map(\.version).max()
            var problems: [String] = []
            if newest != version { problems.append("the newest meta slot is of version \(String(describing: newest))") }
            for (page, checksum) in state.sorted(by: { $0.key < $1.key }) {
                let start = Int(page) * pageSize
                guard start + NodeHeader.byteCount <= data.count, let header = NodeHeader.decode(from: base + start),
                    base.u64(at: start) == checksum,
                    start + NodeHeader.byteCount + Int(header.length) + sealByteCount <= data.count,
                    Checksum.hash(
                        base + start + 8, count: NodeHeader.byteCount - 8 + Int(header.length) + sealByteCount)
                        == checksum
                else {
                    problems.append("page \(page) does not hold its node of version \(version)")
                    continue
                }
            }
            return problems
        }
    }
}

/// A `StorageIO` over `MemoryStorage` that records, for every file, its bytes at its last sync and the writes and
/// size changes since, and calls `onSync` before each sync of any file with all files' records: the two files of
/// a store with a commit log crash together, each keeping any subset of its unsynced writes.
final class TwoFileRecording: StorageIO, FileChangeRecorder, @unchecked Sendable {
    /// One file's record.
    struct FileRecord: Sendable {
        var durable: [UInt8] = []
        var pending: [RecordingStorage.PendingOperation] = []
    }

    let inner = MemoryStorage(capacity: 1 << 30)
    /// Called before each sync with the path being synced and every file's record.
    var onSync: (@Sendable (_ path: String, _ files: [String: FileRecord]) -> Void)?
    private let lock = NSLock()
    private var files: [String: FileRecord] = [:]

    /// Every file's record now.
    var records: [String: FileRecord] { lock.withLock { files } }

    func openFile(at path: String, create: Bool, readOnly: Bool) throws -> StorageFile {
        let file = try inner.openFile(at: path, create: create, readOnly: readOnly)
        lock.withLock {
            if files[path] == nil { files[path] = FileRecord(durable: inner.contents(ofFile: path) ?? []) }
        }
        return RecordingFile(inner: file, recorder: self)
    }

    func fileExists(at path: String) -> Bool { inner.fileExists(at: path) }
    func rename(from source: String, to destination: String) throws { try inner.rename(from: source, to: destination) }
    func remove(at path: String) throws { try inner.remove(at: path) }
    func syncDirectory(containing path: String) throws { try inner.syncDirectory(containing: path) }
    func openLockFile(at path: String, byteCount: Int) throws -> LockFileHandle {
        try inner.openLockFile(at: path, byteCount: byteCount)
    }

    func record(_ operation: RecordingStorage.PendingOperation, path: String) {
        lock.withLock { files[path, default: FileRecord()].pending.append(operation) }
    }

    func willSync(path: String) {
        onSync?(path, records)
    }

    func didSync(path: String) {
        lock.withLock { files[path] = FileRecord(durable: inner.contents(ofFile: path) ?? []) }
    }

    /// Whether a sync of a file with `record` grows it: writes past its synced size, which the log makes only
    /// when it grows ahead of its appends (`CommitLog.preallocatedBytes` of zeros, synced once), never in an
    /// append's own sync.
    static func grows(_ record: FileRecord) -> Bool {
        record.pending.contains { operation in
            guard case .write(let offset, let bytes) = operation else { return false }
            return offset + UInt64(bytes.count) > UInt64(record.durable.count)
        }
    }

    /// Whether every write pending in `record` writes zeros only (what the log's growth writes).
    static func writesZerosOnly(_ record: FileRecord) -> Bool {
        record.pending.allSatisfy { operation in
            guard case .write(_, let bytes) = operation else { return false }
            return bytes.allSatisfy { $0 == 0 }
        }
    }

    /// What a power loss at one recorded event could leave of a store's data file and its two log files (`paths`, in
    /// that order): `count` images of each file, every data-file image with each pair of log images (the second
    /// log's shuffled), each set keyed by path; an image of a file never written is empty.
    static func crashImageSets(
        of event: [String: FileRecord], paths: [String], count: Int, using random: inout SeededGenerator
    ) -> [[String: [UInt8]]] {
        let images = paths.map { path in
            let record = event[path] ?? FileRecord()
            return CrashImage.images(durable: record.durable, pending: record.pending, count: count, using: &random)
        }
        var sets: [[String: [UInt8]]] = []
        for dataImage in images[0] {
            for (first, second) in zip(images[1], images[2].shuffled(using: &random)) {
                sets.append([paths[0]: dataImage, paths[1]: first, paths[2]: second])
            }
        }
        return sets
    }
}
