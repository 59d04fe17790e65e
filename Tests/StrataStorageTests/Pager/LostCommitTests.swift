import Foundation
@testable import StrataStorage
import StrataTestSupport
import XCTest

/// A newest commit found damaged at open: refused when the lock file says it had been acknowledged (a lost
/// commit, `StrataError.lostCommit`), opened at the previous version and reported when the app accepts the loss,
/// and passed over with a report, never an error, when it never completed (a crash during it). Without the lock
/// file, the data file's record of the last version synced (`AcknowledgedSlot`) decides.
/// `EncryptedLostCommitTests` runs the same on an encrypted file.
class LostCommitTests: PagerTestCase {
    /// The key the files are encrypted with (none here).
    var encryptionKey: [UInt8]? { nil }

    /// Ways of damaging the newest commit after it was acknowledged.
    enum Damage: CaseIterable {
        case flippedByteInNewestRoot
        case zeroedPageOfNewestRoot
        case flippedByteInNewestMetaSlot
    }

    private func options(_ storage: StorageIO, acceptingLoss: Bool = false) -> StoreOptions {
        var options = StoreOptions(io: storage)
        options.encryptionKey = encryptionKey
        options.acceptsLostCommits = acceptingLoss
        return options
    }

    /// Commits versions 2, 3 and 4 to `db` in `storage` and closes the store as an app does: the lock file stays,
    /// recording version 4 as durable. Returns each version's content.
    private func makeStore(in storage: MemoryStorage) throws -> [UInt64: PatternTree.State] {
        let store = try Store.open(path: "db", options: options(storage))
        var random = SeededGenerator(seed: 61)
        var states: [UInt64: PatternTree.State] = [1: PatternTree.State()]
        for _ in 0..<3 {
            let writer = try store.beginWrite()
            states[writer.version] = try PatternTree.advance(writer, random: &random)
            try writer.commit()
        }
        XCTAssertEqual(store.latestCommittedVersion, 4)
        store.close()
        return states
    }

    /// The newest meta slot in `image` and its index.
    private func newestSlot(in image: [UInt8]) throws -> (meta: MetaSlot, index: Int) {
        let slots = [0, 1].compactMap { index in
            image.withUnsafeBytes { MetaSlot.decode(from: $0.baseAddress! + FileHeader.slotOffsets[index]) }
                .map { ($0, index) }
        }
        let newest = try XCTUnwrap(slots.max { $0.0.version < $1.0.version })
        return (newest.0, newest.1)
    }

    private func damage(_ image: inout [UInt8], _ damage: Damage) throws {
        let (meta, index) = try newestSlot(in: image)
        // The root is rewritten by every commit: it is one of the nodes the newest commit record lists.
        let root = Int(meta.root.page) * 4096
        switch damage {
        case .flippedByteInNewestRoot:
            image[root + NodeHeader.byteCount] ^= 0x10
        case .zeroedPageOfNewestRoot:
            image.replaceSubrange(root..<(root + 4096), with: repeatElement(0, count: 4096))
        case .flippedByteInNewestMetaSlot:
            image[FileHeader.slotOffsets[index] + 20] ^= 0x01
        }
    }

    func testADamagedAcknowledgedCommitIsRefusedUnlessTheLossIsAccepted() throws {
        for damage in Damage.allCases {
            let storage = MemoryStorage(capacity: 1 << 26)
            let states = try makeStore(in: storage)
            var image = try XCTUnwrap(storage.contents(ofFile: "db"))
            try self.damage(&image, damage)
            try storage.setContents(image, ofFile: "db")

            // Refused, and refused again: the refusal keeps the lock file's record of version 4.
            for attempt in 1...2 {
                let label = "\(damage), attempt \(attempt)"
                XCTAssertThrowsError(try Store.open(path: "db", options: options(storage)), label) {
                    guard case let .lostCommit(path, lostVersion, openableVersion, detail) = $0 as? StrataError else {
                        return XCTFail("\(damage): expected lostCommit, got \($0)")
                    }
                    XCTAssertEqual(path, "db")
                    XCTAssertEqual(lostVersion, 4, "\(damage)")
                    XCTAssertEqual(openableVersion, 3, "\(damage)")
                    XCTAssertFalse(detail.isEmpty)
                    let message = ($0 as? StrataError)?.description ?? ""
                    XCTAssertTrue(message.contains("backup") && message.contains("acceptsLostCommits"), message)
                }
            }

            // Accepting the loss opens version 3, whole, and says what was lost.
            let store = try Store.open(path: "db", options: options(storage, acceptingLoss: true))
            let recovery = try XCTUnwrap(store.openRecovery, "\(damage)")
            XCTAssertEqual(recovery.openedVersion, 3)
            XCTAssertEqual(recovery.rejectedVersion, damage == .flippedByteInNewestMetaSlot ? nil : 4, "\(damage)")
            XCTAssertEqual(recovery.acknowledgedVersion, 4)
            XCTAssertTrue(recovery.lostAcknowledgedCommit)
            XCTAssertTrue(recovery.description.contains("acknowledged commit was lost"), recovery.description)
            XCTAssertEqual(try store.status.openRecovery, recovery)
            let (version, state) = try checkedState(store)
            XCTAssertEqual(version, 3)
            XCTAssertEqual(state, states[3])
            store.close()

            // Once accepted, the loss is no longer an error; the damaged slot is still reported until a commit
            // replaces it.
            let reopened = try Store.open(path: "db", options: options(storage))
            XCTAssertEqual(reopened.openRecovery?.openedVersion, 3, "\(damage)")
            XCTAssertEqual(reopened.openRecovery?.lostAcknowledgedCommit, false)
            var random = SeededGenerator(seed: 62)
            try commitSteps(reopened, 1, random: &random)
            reopened.close()
            let healed = try Store.open(path: "db", options: options(storage))
            XCTAssertNil(healed.openRecovery, "\(damage): the next commit replaced the damaged slot")
            XCTAssertEqual(healed.latestCommittedVersion, 4)
            healed.close()
        }
    }

    /// The same damage without a lock file (a file copied, backed up or moved without it): the data file's own
    /// record of the last version synced (`AcknowledgedSlot`) says the commit was acknowledged, so the open is
    /// refused the same way, and accepting the loss opens version 3 and clears the record.
    func testADamagedCommitWithoutALockFileIsRefusedAfterACleanClose() throws {
        for damage in Damage.allCases {
            let storage = MemoryStorage(capacity: 1 << 26)
            let states = try makeStore(in: storage)
            var image = try XCTUnwrap(storage.contents(ofFile: "db"))
            XCTAssertEqual(
                image.withUnsafeBytes { AcknowledgedSlot.decode(page0: $0.baseAddress!)?.version }, 4,
                "the last sync recorded version 4 in the data file")
            try self.damage(&image, damage)
            let fresh = MemoryStorage(capacity: 1 << 26)
            try fresh.setContents(image, ofFile: "db")
            XCTAssertThrowsError(try Store.open(path: "db", options: options(fresh)), "\(damage)") {
                guard case let .lostCommit(_, lostVersion, openableVersion, _) = $0 as? StrataError else {
                    return XCTFail("\(damage): expected lostCommit, got \($0)")
                }
                XCTAssertEqual(lostVersion, 4, "\(damage)")
                XCTAssertEqual(openableVersion, 3, "\(damage)")
            }
            let store = try Store.open(path: "db", options: options(fresh, acceptingLoss: true))
            let recovery = try XCTUnwrap(store.openRecovery, "\(damage)")
            XCTAssertEqual(recovery.openedVersion, 3)
            XCTAssertEqual(recovery.acknowledgedVersion, 4, "\(damage)")
            XCTAssertTrue(recovery.lostAcknowledgedCommit)
            XCTAssertEqual(try checkedState(store).1, states[3])
            let cleared = try XCTUnwrap(fresh.contents(ofFile: "db"))
            XCTAssertNil(
                cleared.withUnsafeBytes { AcknowledgedSlot.decode(page0: $0.baseAddress!) },
                "\(damage): accepting the loss clears the record of version 4")
            var random = SeededGenerator(seed: 64)
            try commitSteps(store, 1, random: &random)
            store.close()
            // The version committed after the loss is recorded at the close, and opens without a report.
            let healed = try XCTUnwrap(fresh.contents(ofFile: "db"))
            let reopenedStorage = MemoryStorage(capacity: 1 << 26)
            try reopenedStorage.setContents(healed, ofFile: "db")
            let reopened = try Store.open(path: "db", options: options(reopenedStorage))
            XCTAssertEqual(reopened.latestCommittedVersion, 4, "\(damage)")
            XCTAssertNil(reopened.openRecovery, "\(damage)")
            reopened.close()
        }
    }

    /// Damage to a newest commit that was never synced (a `.batched` commit before its flush; the file copied
    /// while the store was open), without the lock file: the data file's record names the version synced before it
    /// (version 4), so nothing says version 5 was acknowledged, and the file opens at version 4 as after a crash
    /// during the commit, and says so.
    func testADamagedUnsyncedCommitOpensThePreviousVersionAndSaysSo() throws {
        let storage = MemoryStorage(capacity: 1 << 26)
        let states = try makeStore(in: storage)
        var batched = options(storage)
        batched.durability = .batched
        batched.batchInterval = 3600
        let store = try Store.open(path: "db", options: batched)
        var random = SeededGenerator(seed: 65)
        let writer = try store.beginWrite()
        _ = try PatternTree.advance(writer, random: &random)
        try writer.commit()
        XCTAssertEqual(store.latestCommittedVersion, 5)
        var image = try XCTUnwrap(storage.contents(ofFile: "db"))
        store.close()
        XCTAssertEqual(image.withUnsafeBytes { AcknowledgedSlot.decode(page0: $0.baseAddress!)?.version }, 4)
        try damage(&image, .flippedByteInNewestRoot)
        let fresh = MemoryStorage(capacity: 1 << 26)
        try fresh.setContents(image, ofFile: "db")
        let opened = try Store.open(path: "db", options: options(fresh))
        defer { opened.close() }
        let recovery = try XCTUnwrap(opened.openRecovery)
        XCTAssertEqual(recovery.openedVersion, 4)
        XCTAssertEqual(recovery.rejectedVersion, 5)
        XCTAssertNil(recovery.acknowledgedVersion)
        XCTAssertFalse(recovery.lostAcknowledgedCommit)
        XCTAssertEqual(try checkedState(opened).1, states[4])
    }

    /// The record is written only after a sync that made a new version durable: a session that committed nothing
    /// leaves the data file's bytes as they were, and a store that never syncs (`.none`) records none of its
    /// versions.
    func testTheRecordIsWrittenOnlyForANewDurableVersion() throws {
        let storage = MemoryStorage(capacity: 1 << 26)
        _ = try makeStore(in: storage)
        let closed = try XCTUnwrap(storage.contents(ofFile: "db"))
        let reader = try Store.open(path: "db", options: options(storage))
        XCTAssertEqual(try checkedState(reader).0, 4)
        reader.close()
        XCTAssertEqual(storage.contents(ofFile: "db"), closed, "a session without commits writes nothing")

        var unsynced = options(storage)
        unsynced.durability = .none
        let writer = try Store.open(path: "db", options: unsynced)
        var random = SeededGenerator(seed: 66)
        try commitSteps(writer, 1, random: &random)
        writer.close()
        let after = try XCTUnwrap(storage.contents(ofFile: "db"))
        XCTAssertEqual(
            after.withUnsafeBytes { AcknowledgedSlot.decode(page0: $0.baseAddress!)?.version }, 4,
            "a .none session's version 5 is never recorded as acknowledged")
    }

    private final class Capture: @unchecked Sendable {
        let lock = NSLock()
        var events: [(durable: [UInt8], pending: [RecordingStorage.PendingOperation], lockFile: [UInt8])] = []
    }

    /// A power failure during a `.full` commit, with the lock file as the crashed process left it (recording the
    /// version before as durable): every image opens without error, at the new version or the one before, and an
    /// image whose new commit is torn says it opened the version before.
    func testATornCommitOpensThePreviousVersionAndSaysSo() throws {
        let recording = RecordingStorage(path: "db")
        let capture = Capture()
        recording.onSync = { durable, pending in
            // The lock file's bytes at the moment of the sync: what a crash now leaves beside the data file.
            guard let handle = try? recording.inner.openLockFile(at: "db.lock", byteCount: LockFile.byteCount)
            else { return }
            let lockBytes = [UInt8](UnsafeRawBufferPointer(start: handle.memory, count: LockFile.byteCount))
            capture.lock.withLock { capture.events.append((durable, pending, lockBytes)) }
        }
        let store = try Store.open(path: "db", options: options(recording))
        defer { store.close() }
        var random = SeededGenerator(seed: 63)
        var states: [UInt64: PatternTree.State] = [1: PatternTree.State()]
        var reported = 0
        for _ in 0..<12 {
            let before = store.latestCommittedVersion
            capture.lock.withLock { capture.events.removeAll() }
            let writer = try store.beginWrite()
            states[writer.version] = try PatternTree.advance(writer, random: &random)
            try writer.commit()
            let event = try XCTUnwrap(capture.lock.withLock { capture.events.first })
            var images = CrashImage.images(durable: event.durable, pending: event.pending, count: 10, using: &random)
            // And one with everything but the meta slot's second half on disk.
            var operations = event.pending
            if case let .write(offset, bytes) = operations.removeLast() {
                operations.append(.write(offset: offset, bytes: Array(bytes.prefix(20))))
                let torn = CrashImage.images(durable: event.durable, pending: operations, count: 2, using: &random)
                images.append(torn[1])
            }
            for image in images {
                let storage = MemoryStorage(capacity: 1 << 26)
                try storage.setContents(image, ofFile: "db")
                let handle = try storage.openLockFile(at: "db.lock", byteCount: LockFile.byteCount)
                event.lockFile.withUnsafeBytes {
                    handle.memory.copyMemory(from: $0.baseAddress!, byteCount: LockFile.byteCount)
                }
                let opened = try Store.open(path: "db", options: options(storage))
                defer { opened.close() }
                let (version, state) = try checkedState(opened)
                XCTAssertTrue(version == before || version == before + 1, "opened version \(version) after \(before)")
                XCTAssertEqual(state, states[version])
                // No report: the newest slot was whole (the new version, or the old one when nothing reached it).
                guard let recovery = opened.openRecovery else { continue }
                reported += 1
                XCTAssertEqual(recovery.openedVersion, before, "only a torn newest commit is passed over")
                XCTAssertEqual(recovery.acknowledgedVersion, before)
                XCTAssertFalse(recovery.lostAcknowledgedCommit)
                XCTAssertEqual(try opened.status.openRecovery, recovery)
            }
        }
        XCTAssertGreaterThan(reported, 0, "some images tear the new commit, and say so")
    }
}

/// `LostCommitTests` on an encrypted file. (The overrides name the inherited tests so that test discovery on
/// Linux, which reads each class's own methods, runs them here too.)
final class EncryptedLostCommitTests: LostCommitTests {
    override var encryptionKey: [UInt8]? { EncryptionTests.key }

    override func testADamagedAcknowledgedCommitIsRefusedUnlessTheLossIsAccepted() throws {
        try super.testADamagedAcknowledgedCommitIsRefusedUnlessTheLossIsAccepted()
    }
    override func testADamagedCommitWithoutALockFileIsRefusedAfterACleanClose() throws {
        try super.testADamagedCommitWithoutALockFileIsRefusedAfterACleanClose()
    }
    override func testADamagedUnsyncedCommitOpensThePreviousVersionAndSaysSo() throws {
        try super.testADamagedUnsyncedCommitOpensThePreviousVersionAndSaysSo()
    }
    override func testTheRecordIsWrittenOnlyForANewDurableVersion() throws {
        try super.testTheRecordIsWrittenOnlyForANewDurableVersion()
    }
    override func testATornCommitOpensThePreviousVersionAndSaysSo() throws {
        try super.testATornCommitOpensThePreviousVersionAndSaysSo()
    }
}
