import Foundation
@testable import StrataStorage
import StrataTestSupport
import XCTest

/// An encrypted store: its file holds no clear payload, it opens only with its key, a node changed without the
/// key is refused, and everything the clear store promises (reopen, crash images, spills, readers on many
/// threads, copies, compaction) still holds.
final class EncryptionTests: PagerTestCase {
    static let key: [UInt8] = (0..<64).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
    static let otherKey: [UInt8] = (0..<64).map { UInt8(truncatingIfNeeded: $0 &* 53 &+ 5) }
    /// What the marker nodes hold, repeated.
    static let marker = Array("Strata secret payload; nobody without the key reads this. ".utf8)

    private func options(key: [UInt8]? = EncryptionTests.key, io: StorageIO? = nil) -> StoreOptions {
        var options = StoreOptions(io: io)
        options.encryptionKey = key
        return options
    }

    /// Commits one node full of `marker` as the root.
    private func commitMarker(_ store: Store, byteCount: Int = 6000) throws {
        let writer = try store.beginWrite()
        if !writer.root.isNone { writer.free(writer.root) }
        let (ref, payload) = try writer.allocate(byteCount: byteCount)
        for index in 0..<byteCount { payload[index] = Self.marker[index % Self.marker.count] }
        writer.root = ref
        try writer.commit()
    }

    private func markerIsRoot(of store: Store, byteCount: Int = 6000) throws -> Bool {
        let reader = try store.beginRead()
        defer { reader.end() }
        let payload = try reader.read(reader.root)
        return payload.count == byteCount && payload.indices.allSatisfy { payload[$0] == Self.marker[$0 % Self.marker.count] }
    }

    private static func contains(_ haystack: [UInt8], _ needle: ArraySlice<UInt8>) -> Bool {
        Data(haystack).range(of: Data(needle)) != nil
    }

    func testEncryptedFileHoldsNoClearPayloadButAClearFileDoesBothFormat3() throws {
        let needle = Self.marker[0..<24]
        for key in [Self.key, nil] as [[UInt8]?] {
            let path = storePath(key == nil ? "clear" : "encrypted")
            let store = try Store.open(path: path, options: options(key: key))
            try commitMarker(store)
            XCTAssertTrue(try markerIsRoot(of: store))
            store.close()
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            XCTAssertEqual(Self.contains(bytes, needle), key == nil, key == nil ? "clear file" : "encrypted file")
            XCTAssertEqual(bytes[8], 3, "every new file is format 3 (nodes bound to their places); the encryption block says which is encrypted")
        }
    }

    func testEncryptedStoreReopensWithItsKeyAndVerifies() throws {
        var random = SeededGenerator(seed: 71)
        let path = storePath()
        var store = try Store.open(path: path, options: options())
        let written = try commitSteps(store, 60, random: &random)
        let (version, state) = try checkedState(store)
        XCTAssertEqual(state, written)
        store.close()
        store = try Store.open(path: path, options: options())
        defer { store.close() }
        let (reopenedVersion, reopened) = try checkedState(store)
        XCTAssertEqual(reopenedVersion, version)
        XCTAssertEqual(reopened, written)
    }

    func testOpeningWithAWrongKeyNoKeyOrAKeyForAClearFileIsRefusedAtOpen() throws {
        let encrypted = storePath("encrypted")
        try Store.open(path: encrypted, options: options()).close()
        let clear = storePath("clear")
        try Store.open(path: clear, options: options(key: nil)).close()

        let cases: [(path: String, key: [UInt8]?, expected: String)] = [
            (encrypted, Self.otherKey, "not the key the file was encrypted with"),
            (encrypted, nil, "the file is encrypted"),
            (clear, Self.key, "the file is not encrypted"),
        ]
        for (path, key, expected) in cases {
            XCTAssertThrowsError(try Store.open(path: path, options: options(key: key))) { error in
                guard case let .wrongEncryptionKey(errorPath, detail) = error as? StrataError else {
                    return XCTFail("expected wrongEncryptionKey, got \(error)")
                }
                XCTAssertEqual(errorPath, path)
                XCTAssertTrue(detail.contains(expected), detail)
            }
        }
        // Only the second half of the key differs: still refused (the check covers the whole key).
        var halfWrong = Self.key
        halfWrong[63] ^= 1
        XCTAssertThrowsError(try Store.open(path: encrypted, options: options(key: halfWrong)))
        XCTAssertThrowsError(try Store.open(path: storePath("short"), options: options(key: Array(Self.key.prefix(32))))) {
            guard case let .invalidArgument(message) = $0 as? StrataError else { return XCTFail("\($0)") }
            XCTAssertTrue(message.contains("64 bytes"), message)
        }
        // After all those refusals the file still opens with its key.
        try Store.open(path: encrypted, options: options()).close()
    }

    func testASecondOpenInTheProcessMustGiveTheSameKey() throws {
        let path = storePath()
        let store = try Store.open(path: path, options: options())
        defer { store.close() }
        XCTAssertThrowsError(try Store.open(path: path, options: options(key: Self.otherKey))) {
            guard case .wrongEncryptionKey = $0 as? StrataError else { return XCTFail("\($0)") }
        }
        XCTAssertThrowsError(try Store.open(path: path, options: options(key: nil)))
        XCTAssertTrue(try Store.open(path: path, options: options()) === store)
    }

    /// Someone without the key changes a node of the newest commit and fixes its checksum (which needs no key):
    /// the commit record, itself authenticated, still lists the old checksum, so the newest commit is not whole.
    /// The lock file recorded it as acknowledged, so the open is refused (`lostCommit`); accepting the loss opens
    /// the version before, never with the forged node.
    func testAForgedNodeOfTheNewestCommitIsNeverRead() throws {
        let path = storePath()
        var store = try Store.open(path: path, options: options())
        try commitMarker(store)
        store.close()
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let slot = try XCTUnwrap([0, 1].compactMap { index in
            bytes.withUnsafeBytes { MetaSlot.decode(from: $0.baseAddress! + FileHeader.slotOffsets[index]) }
        }.max { $0.version < $1.version })
        try forge(&bytes, nodeAt: Int(slot.root.page), length: 6000)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try Store.open(path: path, options: options())) {
            guard case .lostCommit(path, slot.version, slot.version - 1, _) = $0 as? StrataError else {
                return XCTFail("expected lostCommit of version \(slot.version), got \($0)")
            }
        }
        var accepting = options()
        accepting.acceptsLostCommits = true
        store = try Store.open(path: path, options: accepting)
        defer { store.close() }
        XCTAssertEqual(store.openRecovery?.rejectedVersion, slot.version)
        let reader = try store.beginRead()
        defer { reader.end() }
        XCTAssertEqual(reader.version, slot.version - 1)
        XCTAssertTrue(reader.root.isNone)
    }

    /// Flips a bit of the ciphertext of the node on `page` and sets the checksum it then needs.
    private func forge(_ bytes: inout [UInt8], nodeAt page: Int, length: Int) throws {
        let start = page * 4096
        XCTAssertEqual(bytes.withUnsafeBytes { Int($0.baseAddress!.u32(at: start + 12)) }, length)
        bytes[start + NodeHeader.byteCount + length / 2] ^= 0x20
        bytes.withUnsafeMutableBytes { buffer in
            let node = buffer.baseAddress! + start
            let count = NodeHeader.byteCount - 8 + length + NodeCipher.sealByteCount
            node.setU64(Checksum.hash(UnsafeRawPointer(node) + 8, count: count), at: 0)
        }
    }

    /// The same forgery on a node that the newest commit record no longer lists (written two durable commits
    /// ago): recovery cannot notice it, so only the code stands between the forger and the reader.
    func testAForgedOldNodeIsRefusedByItsCodeAlone() throws {
        let path = storePath()
        var store = try Store.open(path: path, options: options())
        var random = SeededGenerator(seed: 72)
        try commitSteps(store, 3, random: &random)
        let (_, state) = try checkedState(store)
        let child = try XCTUnwrap(state.children.first)
        // Two more commits that keep this child: they only add children (each .full commit is durable).
        for _ in 0..<2 {
            let writer = try store.beginWrite()
            var next = try PatternTree.read(writer)
            next.step += 1
            next.children.append(try PatternTree.writeChild(seed: next.step, length: 100, in: writer))
            try PatternTree.writeRoot(next, in: writer)
            try writer.commit()
        }
        store.close()
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        try forge(&bytes, nodeAt: Int(child.ref.page), length: child.length)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        store = try Store.open(path: path, options: options())
        defer { store.close() }
        let reader = try store.beginRead()
        defer { reader.end() }
        XCTAssertThrowsError(try PatternTree.read(reader)) { error in
            guard case let .corruptFile(_, location, detail) = error as? StrataError else { return XCTFail("\(error)") }
            XCTAssertTrue(location.contains("\(child.ref.page)"), location)
            XCTAssertTrue(detail.contains("authentication code"), detail)
        }
    }

    func testEveryCrashImageOfEncryptedCommitsOpensWithTheKey() throws {
        let recording = RecordingStorage(path: "db")
        let store = try Store.open(path: "db", options: options(io: recording))
        defer { store.close() }
        var random = SeededGenerator(seed: 73)
        var states: [UInt64: PatternTree.State] = [1: PatternTree.State()]
        for _ in 0..<(longTests ? 100 : 15) {
            let before = store.latestCommittedVersion
            let writer = try store.beginWrite()
            states[writer.version] = try PatternTree.advance(writer, random: &random)
            try writer.commit()
            let images = CrashImage.images(
                durable: recording.durableContents, pending: recording.pendingOperations, count: 4, using: &random)
            for image in images {
                try checkImage(image, oldest: before, newest: before + 1, states: states, encryptionKey: Self.key)
            }
        }
    }

    func testALargeEncryptedTransactionSpillsAndReadsItsNodesBack() throws {
        var options = options()
        options.spillThreshold = 64 << 10
        let path = storePath()
        var store = try Store.open(path: path, options: options)
        let writer = try store.beginWrite()
        var state = PatternTree.State(step: 1)
        for index in 0..<200 {
            state.children.append(try PatternTree.writeChild(seed: UInt64(index), length: 3000 + index, in: writer))
        }
        // Spilled children read back from the transaction (from memory: an encrypted file's spilled nodes keep it).
        XCTAssertEqual(writer.dirty.values.filter(\.isReleased).count, 0)
        for child in state.children { try PatternTree.check(child, in: writer) }
        try PatternTree.writeRoot(state, in: writer)
        try writer.commit()
        XCTAssertEqual(try checkedState(store).1, state)
        store.close()
        store = try Store.open(path: path, options: options)
        defer { store.close() }
        XCTAssertEqual(try checkedState(store).1, state)
    }

    /// Runs `body` on an encrypted store and on a clear one, each with a write transaction that spills past 64 KiB.
    private func withSpillingWriter(_ body: (Store, WriteTransaction) throws -> Void) throws {
        for key in [Self.key, nil] as [[UInt8]?] {
            var options = options(key: key)
            options.spillThreshold = 64 << 10
            let store = try Store.open(path: storePath(key == nil ? "clear" : "encrypted"), options: options)
            defer { store.close() }
            try body(store, try store.beginWrite())
        }
    }

    /// A node the transaction read before it was spilled keeps its memory (the buffer `read` gave stays valid until
    /// the transaction ends); in a clear file, one it never read gives its memory back. An encrypted file's spilled
    /// nodes all keep theirs (see `testASpilledPageFreedAndSpilledAgainReadsItsNewNode`).
    func testASpilledNodeKeepsItsMemoryOnlyWhenItWasRead() throws {
        try withSpillingWriter { store, writer in
            let kept = try PatternTree.writeChild(seed: 1, length: 3000, in: writer)
            let given = try PatternTree.writeChild(seed: 2, length: 3000, in: writer)
            let buffer = try writer.read(kept.ref)
            let before = Array(buffer)
            for index in 0..<100 { _ = try PatternTree.writeChild(seed: UInt64(index + 3), length: 3000, in: writer) }
            let keptNode = try XCTUnwrap(writer.dirty[kept.ref.page])
            let givenNode = try XCTUnwrap(writer.dirty[given.ref.page])
            XCTAssertNotNil(keptNode.spilledChecksum)
            XCTAssertNotNil(givenNode.spilledChecksum)
            XCTAssertFalse(keptNode.isReleased, "a node handed out by read keeps its memory")
            XCTAssertEqual(givenNode.isReleased, !store.isEncrypted, "a clear heap node never read gives its memory back")
            XCTAssertEqual(Array(buffer), before, "the buffer read before the spill is intact")
            try PatternTree.check(kept, in: writer)
            try PatternTree.check(given, in: writer)
            writer.rollback()
        }
    }

    /// A page freed and allocated again in one transaction is queued for spilling twice; its node is spilled (and
    /// its memory given back) once. Found as a double free in an encrypted bulk load.
    func testANodeOnAReusedPageIsSpilledOnce() throws {
        try withSpillingWriter { store, writer in
            let first = try PatternTree.writeChild(seed: 1, length: 3000, in: writer)
            writer.free(first.ref)
            let second = try PatternTree.writeChild(seed: 2, length: 3000, in: writer)
            XCTAssertEqual(second.ref, first.ref, "the freed page is taken again")
            var children = [second]
            for index in 0..<100 { children.append(try PatternTree.writeChild(seed: UInt64(index + 3), length: 3000, in: writer)) }
            XCTAssertNotNil(writer.dirty[second.ref.page]?.spilledChecksum)
            for child in children { try PatternTree.check(child, in: writer) }
            try PatternTree.writeRoot(PatternTree.State(step: 1, children: children), in: writer)
            try writer.commit()
            XCTAssertEqual(try checkedState(store).1.children, children)
        }
    }

    /// A node spilled and read, then freed, its page taken by a new node that is spilled in turn, all in one
    /// transaction and so under one version: reading the page again gives the new node. Found by the benchmark as
    /// "not an index leaf" when an encrypted file's spilled nodes were read back through the cache, which is keyed
    /// by page and version.
    func testASpilledPageFreedAndSpilledAgainReadsItsNewNode() throws {
        try withSpillingWriter { store, writer in
            let first = try PatternTree.writeChild(seed: 1, length: 3000, in: writer)
            var filler: [PatternTree.Child] = []
            for index in 0..<40 { filler.append(try PatternTree.writeChild(seed: UInt64(index + 10), length: 3000, in: writer)) }
            XCTAssertNotNil(writer.dirty[first.ref.page]?.spilledChecksum)
            try PatternTree.check(first, in: writer)
            writer.free(first.ref)
            let second = try PatternTree.writeChild(seed: 2, length: 3000, in: writer)
            XCTAssertEqual(second.ref, first.ref, "the freed page is taken again")
            for index in 0..<40 { filler.append(try PatternTree.writeChild(seed: UInt64(index + 100), length: 3000, in: writer)) }
            XCTAssertNotNil(writer.dirty[second.ref.page]?.spilledChecksum)
            try PatternTree.check(second, in: writer)
            try PatternTree.writeRoot(PatternTree.State(step: 1, children: [second] + filler), in: writer)
            try writer.commit()
            XCTAssertEqual(try checkedState(store).1.children, [second] + filler)
        }
    }

    /// Readers on several threads while a writer churns, with a cache far smaller than what they read: every
    /// reader sees whole versions and every buffer it was handed stays intact until its transaction ends.
    func testReadersOnManyThreadsSeeWholeVersionsThroughASmallCache() throws {
        var options = options()
        options.decryptedCacheBytes = 16 << 10
        let store = try Store.open(path: storePath(), options: options)
        defer { store.close() }
        var random = SeededGenerator(seed: 74)
        try commitSteps(store, 10, random: &random)
        let failures = FailureLog()
        let stop = StopSignal()
        let group = DispatchGroup()
        for _ in 0..<3 {
            DispatchQueue.global().async(group: group) {
                while !stop.isRaised {
                    do {
                        let reader = try store.beginRead()
                        let first = try PatternTree.read(reader)
                        // Read again within the same transaction: the buffers of the first read stayed valid.
                        if try PatternTree.read(reader) != first { failures.add("version \(reader.version) changed") }
                        reader.end()
                        failures.count()
                    } catch {
                        failures.add("\(error)")
                    }
                }
            }
        }
        for _ in 0..<(longTests ? 400 : 60) {
            let writer = try store.beginWrite()
            _ = try PatternTree.advance(writer, random: &random)
            try writer.commit()
        }
        stop.raise()
        group.wait()
        XCTAssertGreaterThan(failures.checks, 0)
        XCTAssertEqual(failures.messages, [])
        _ = try checkedState(store)
    }

    /// A transaction never decrypts a node twice, however small the cache; a node this process committed is never
    /// decrypted at all (its clear bytes go to the cache at commit).
    func testNodesAreDecryptedOncePerTransactionAndNotAfterTheirOwnCommit() throws {
        var random = SeededGenerator(seed: 77)
        var tiny = options()
        tiny.decryptedCacheBytes = 1
        let path = storePath()
        var store = try Store.open(path: path, options: tiny)
        let written = try commitSteps(store, 10, random: &random)
        store.close()
        store = try Store.open(path: path, options: tiny)
        let cache = try XCTUnwrap(store.pagedFile.decrypted)
        let atOpen = cache.decryptionCount  // recovery read the commit record
        let reader = try store.beginRead()
        XCTAssertEqual(try PatternTree.read(reader), written)
        let firstRead = cache.decryptionCount
        XCTAssertEqual(firstRead - atOpen, written.children.count + 1, "the root and each child, once")
        for _ in 0..<3 { XCTAssertEqual(try PatternTree.read(reader), written) }
        XCTAssertEqual(cache.decryptionCount, firstRead, "read again from the transaction's own copies")
        reader.end()
        store.close()

        store = try Store.open(path: path, options: options())
        defer { store.close() }
        let writer = try store.beginWrite()
        var next = try PatternTree.read(writer)
        next.step += 1
        next.children.append(try PatternTree.writeChild(seed: 99, length: 5000, in: writer))
        try PatternTree.writeRoot(next, in: writer)
        try writer.commit()
        let beforeReading = try XCTUnwrap(store.pagedFile.decrypted).decryptionCount
        let after = try store.beginRead()
        defer { after.end() }
        XCTAssertEqual(try PatternTree.read(after), next)
        XCTAssertEqual(try XCTUnwrap(store.pagedFile.decrypted).decryptionCount, beforeReading, "the new root and child came from the commit")
    }

    func testReadersInAnotherProcessSeeWholeEncryptedVersionsWhileOneWrites() throws {
        let path = storePath()
        var options = options()
        options.durability = .batched
        let store = try Store.open(path: path, options: options)
        defer { store.close() }
        var random = SeededGenerator(seed: 78)
        try commitSteps(store, 5, random: &random)
        let hexKey = Self.key.map { String(format: "%02x", $0) }.joined()
        let reader = try HelperProcess(executable: try helperExecutable(), arguments: ["read-check", path, "1.5", hexKey])
        let deadline = Date().addingTimeInterval(1.5)
        var written = PatternTree.State()
        while Date() < deadline { written = try commitSteps(store, 1, random: &random) }
        let result = reader.wait()
        XCTAssertEqual(result.status, 0, result.errors)
        XCTAssertTrue(result.output.hasPrefix("checked "), result.output)
        XCTAssertEqual(try checkedState(store).1, written)
    }

    func testACopyOfAnEncryptedStoreOpensWithTheSameKey() throws {
        var random = SeededGenerator(seed: 75)
        let store = try Store.open(path: storePath(), options: options())
        let written = try commitSteps(store, 20, random: &random)
        let copyPath = storePath("copy")
        try store.writeCopy(to: copyPath)
        store.close()
        XCTAssertThrowsError(try Store.open(path: copyPath, options: options(key: nil)))
        let copy = try Store.open(path: copyPath, options: options())
        defer { copy.close() }
        XCTAssertEqual(try checkedState(copy).1, written)
    }

    func testInMemoryEncryptedStoreBehavesLikeAFile() throws {
        let store = try Store.inMemory(options: options())
        defer { store.close() }
        var random = SeededGenerator(seed: 76)
        let written = try commitSteps(store, 20, random: &random)
        XCTAssertEqual(try checkedState(store).1, written)
    }
}

/// The damage suite on an encrypted file: flipped bytes, zeroed pages and truncation give an error or the
/// committed content, never a crash.
/// (The overrides name the inherited tests so that test discovery on Linux, which reads each class's own
/// methods, runs them here too.)
final class EncryptedDamageTests: DamageTests {
    override var encryptionKey: [UInt8]? { EncryptionTests.key }

    override func testFlippedBytesNeverCrashOrReturnWrongData() throws { try super.testFlippedBytesNeverCrashOrReturnWrongData() }
    override func testZeroedPagesNeverCrashOrReturnWrongData() throws { try super.testZeroedPagesNeverCrashOrReturnWrongData() }
    override func testTruncatedFilesOnDiskNeverCrash() throws { try super.testTruncatedFilesOnDiskNeverCrash() }
}

/// Tells reader threads to stop.
private final class StopSignal: @unchecked Sendable {
    private let lock = NSLock()
    private var raised = false

    var isRaised: Bool { lock.withLock { raised } }
    func raise() { lock.withLock { raised = true } }
}
