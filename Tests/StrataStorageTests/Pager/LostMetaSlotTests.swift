import Foundation
@testable import StrataStorage
import StrataTestSupport
import XCTest

/// Page 0 losing the write of the newest meta slot after its sync returned (a disk that drops or misdirects a write,
/// or page 0 overwritten with an older copy of itself), while the lock file recorded that version as synced: both
/// of page 0's slots then name older, whole versions, so nothing in the data file says a newer one existed. The
/// first opener writes the slot again when the file holds the version whole, refuses the open as a lost commit
/// when it does not, and opens a file replaced under its lock file (a backup restored) as it is.
/// `EncryptedLostMetaSlotTests` runs the same on an encrypted file.
class LostMetaSlotTests: PagerTestCase {
    /// The key the files are encrypted with (none here).
    var encryptionKey: [UInt8]? { nil }

    private func options(_ storage: StorageIO, readOnly: Bool = false, acceptingLoss: Bool = false) -> StoreOptions {
        var options = StoreOptions(io: storage)
        options.encryptionKey = encryptionKey
        options.readOnly = readOnly
        options.acceptsLostCommits = acceptingLoss
        return options
    }

    /// A store that committed versions 2 to 5 durably and closed, its lock file kept: each version's content, and
    /// the whole file as it was after version 4.
    private func makeStore(in storage: MemoryStorage) throws -> (states: [UInt64: PatternTree.State], atFour: [UInt8]) {
        let store = try Store.open(path: "db", options: options(storage))
        var random = SeededGenerator(seed: 71)
        var states: [UInt64: PatternTree.State] = [:]
        var atFour: [UInt8] = []
        for _ in 0..<4 {
            let writer = try store.beginWrite()
            states[writer.version] = try PatternTree.advance(writer, random: &random)
            try writer.commit()
            if writer.version == 4 { atFour = try XCTUnwrap(storage.contents(ofFile: "db")) }
        }
        XCTAssertEqual(store.latestCommittedVersion, 5)
        store.close()
        return (states, atFour)
    }

    /// The file as the store left it, with page 0 as it was after version 4: version 5's slot lost.
    private func withStalePageZero(_ storage: MemoryStorage, atFour: [UInt8]) throws {
        var image = try XCTUnwrap(storage.contents(ofFile: "db"))
        image.replaceSubrange(0..<4096, with: atFour[0..<4096])
        try storage.setContents(image, ofFile: "db")
    }

    /// The versions page 0's two meta slots name.
    private func slotVersions(_ storage: MemoryStorage) throws -> Set<UInt64> {
        let image = try XCTUnwrap(storage.contents(ofFile: "db"))
        return Set(
            [0, 1].compactMap { index in
                image.withUnsafeBytes { MetaSlot.decode(from: $0.baseAddress! + FileHeader.slotOffsets[index]) }?
                    .version
            })
    }

    func testALostSlotOfAWholeVersionIsWrittenAgain() throws {
        let storage = MemoryStorage(capacity: 1 << 26)
        let (states, atFour) = try makeStore(in: storage)
        try withStalePageZero(storage, atFour: atFour)
        XCTAssertEqual(try slotVersions(storage), [3, 4], "page 0 as it was after version 4")

        let store = try Store.open(path: "db", options: options(storage))
        XCTAssertNil(store.openRecovery, "nothing was lost")
        let (version, state) = try checkedState(store)
        XCTAssertEqual(version, 5)
        XCTAssertEqual(state, states[5])
        XCTAssertEqual(try slotVersions(storage), [4, 5], "version 5's slot written again, over version 3's")
        var random = SeededGenerator(seed: 72)
        let next = try commitSteps(store, 1, random: &random)
        store.close()

        // The page 0 it wrote stands on its own: the file opens at the next version without its lock file.
        let copy = MemoryStorage(capacity: 1 << 26)
        try copy.setContents(try XCTUnwrap(storage.contents(ofFile: "db")), ofFile: "db")
        let reopened = try Store.open(path: "db", options: options(copy))
        XCTAssertNil(reopened.openRecovery)
        XCTAssertEqual(try checkedState(reopened).0, 6)
        XCTAssertEqual(try checkedState(reopened).1, next)
        reopened.close()
    }

    func testALostSlotOfADamagedVersionIsALostCommit() throws {
        let storage = MemoryStorage(capacity: 1 << 26)
        let (states, atFour) = try makeStore(in: storage)
        // Damage version 5's root, a node version 4 does not reach (every commit rewrites the root).
        var image = try XCTUnwrap(storage.contents(ofFile: "db"))
        let root = try XCTUnwrap(
            [0, 1].compactMap { index in
                image.withUnsafeBytes { MetaSlot.decode(from: $0.baseAddress! + FileHeader.slotOffsets[index]) }
            }.first { $0.version == 5 }
        ).root
        image.replaceSubrange(0..<4096, with: atFour[0..<4096])
        image[Int(root.page) * 4096 + NodeHeader.byteCount] ^= 0x20
        try storage.setContents(image, ofFile: "db")

        XCTAssertThrowsError(try Store.open(path: "db", options: options(storage))) {
            guard case let .lostCommit(_, lostVersion, openableVersion, detail) = $0 as? StrataError else {
                return XCTFail("expected lostCommit, got \($0)")
            }
            XCTAssertEqual(lostVersion, 5)
            XCTAssertEqual(openableVersion, 4)
            XCTAssertTrue(detail.contains("neither meta slot of page 0"), detail)
        }
        let accepted = try Store.open(path: "db", options: options(storage, acceptingLoss: true))
        XCTAssertEqual(accepted.openRecovery?.rejectedVersion, 5)
        XCTAssertEqual(accepted.openRecovery?.lostAcknowledgedCommit, true)
        XCTAssertEqual(try checkedState(accepted).0, 4)
        XCTAssertEqual(try checkedState(accepted).1, states[4])
        accepted.close()
    }

    /// A backup restored over the data file while its lock file stays: the lock file names version 5, which this
    /// file never held (its commit record is not there), so the file opens at its own newest version.
    func testAFileReplacedUnderItsLockFileOpensAsItIs() throws {
        let storage = MemoryStorage(capacity: 1 << 26)
        let (states, atFour) = try makeStore(in: storage)
        try storage.setContents(atFour, ofFile: "db")
        let store = try Store.open(path: "db", options: options(storage))
        XCTAssertNil(store.openRecovery)
        XCTAssertEqual(try checkedState(store).0, 4)
        XCTAssertEqual(try checkedState(store).1, states[4])
        store.close()
    }

    /// A read-only first opener cannot write the slot: it refuses with the page and what to do, and changes
    /// nothing; a read-write open then restores it.
    func testAReadOnlyOpenRefusesAndLeavesTheFileForAWritableOne() throws {
        let storage = MemoryStorage(capacity: 1 << 26)
        let (states, atFour) = try makeStore(in: storage)
        try withStalePageZero(storage, atFour: atFour)
        let before = try XCTUnwrap(storage.contents(ofFile: "db"))
        XCTAssertThrowsError(try Store.open(path: "db", options: options(storage, readOnly: true))) {
            guard case let .corruptFile(_, location, detail) = $0 as? StrataError else {
                return XCTFail("expected corruptFile, got \($0)")
            }
            XCTAssertTrue(location.contains("page 0"), location)
            XCTAssertTrue(detail.contains("read-write") && detail.contains("version 5"), detail)
        }
        XCTAssertEqual(storage.contents(ofFile: "db"), before, "a read-only open writes nothing")
        let store = try Store.open(path: "db", options: options(storage))
        XCTAssertEqual(try checkedState(store).0, 5)
        XCTAssertEqual(try checkedState(store).1, states[5])
        store.close()
    }
}

/// `LostMetaSlotTests` on an encrypted file. (The overrides name the inherited tests so that test discovery on
/// Linux finds them in this class.)
final class EncryptedLostMetaSlotTests: LostMetaSlotTests {
    override var encryptionKey: [UInt8]? { EncryptionTests.key }

    override func testALostSlotOfAWholeVersionIsWrittenAgain() throws {
        try super.testALostSlotOfAWholeVersionIsWrittenAgain()
    }
    override func testALostSlotOfADamagedVersionIsALostCommit() throws {
        try super.testALostSlotOfADamagedVersionIsALostCommit()
    }
    override func testAFileReplacedUnderItsLockFileOpensAsItIs() throws {
        try super.testAFileReplacedUnderItsLockFileOpensAsItIs()
    }
    override func testAReadOnlyOpenRefusesAndLeavesTheFileForAWritableOne() throws {
        try super.testAReadOnlyOpenRefusesAndLeavesTheFileForAWritableOne()
    }
}
