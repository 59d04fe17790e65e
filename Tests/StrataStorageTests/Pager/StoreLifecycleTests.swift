import Foundation
@testable import StrataStorage
import StrataTestSupport
import XCTest

final class StoreLifecycleTests: PagerTestCase {
    /// A first opener that dies before it has recovered the file leaves the lock file as an earlier session wrote
    /// it, and a process waiting to open the store gets in next. It must recover the file itself rather than take
    /// that state for the file's. Here the data file was restored from a copy taken at version 3 after a session
    /// that ended at version 5: the old state names a version, and nodes, the file does not have.
    func testAFirstOpenerThatDiesWhileRecoveringLeavesNoStaleStateBehind() throws {
        var random = SeededGenerator(seed: 12)
        let path = storePath()
        let copy = storePath("copy")
        let store = try Store.open(path: path)
        try commitSteps(store, 2, random: &random)
        try store.writeCopy(to: copy)
        try commitSteps(store, 2, random: &random)
        XCTAssertEqual(store.latestCommittedVersion, 5)
        store.close()
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.moveItem(atPath: copy, toPath: path)

        let first = try HelperProcess(executable: helperExecutable(), arguments: ["stall-recovery", path])
        XCTAssertEqual(first.waitForLines(startingWith: "recovering"), "recovering")
        let next = try HelperProcess(executable: helperExecutable(), arguments: ["commit-after", path, "0"])
        usleep(1_000_000)  // the next opener starts and waits for the first one's lifetime lock
        _ = first.kill()
        let (status, output, errors) = next.wait()
        XCTAssertEqual(status, 0, errors)
        XCTAssertEqual(output, "open 3\ncommitted 4\n", "the next opener took the old session's state")

        let reopened = try Store.open(path: path)
        defer { reopened.close() }
        XCTAssertEqual(try checkedState(reopened).0, 4)
    }

    /// A process maps the file once, reserving `maximumFileSize` of address space (or twice the file's size then).
    /// Another process that reserved more may grow the file past that: reading the versions it writes must then
    /// throw, naming the option to raise, and never touch memory past the mapping.
    func testAFileGrownPastThisProcessMappingIsAnErrorNotACrash() throws {
        let path = storePath()
        var options = StoreOptions()
        options.maximumFileSize = 64 << 10
        let store = try Store.open(path: path, options: options)
        defer { store.close() }
        // The helper's steps have random sizes: write until the file has outgrown this process's mapping.
        var fileBytes = 0
        for _ in 0..<10 where fileBytes <= 256 << 10 {
            let writer = try HelperProcess(executable: helperExecutable(), arguments: ["write-steps", path, "300"])
            let (status, _, errors) = writer.wait()
            XCTAssertEqual(status, 0, errors)
            fileBytes = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        }
        XCTAssertGreaterThan(fileBytes, 256 << 10, "the helper did not grow the file far enough to test anything")

        let reader = try store.beginRead()
        defer { reader.end() }
        XCTAssertThrowsError(try PatternTree.read(reader)) { error in
            XCTAssertTrue("\(error)".contains("maximumFileSize"), "\(error)")
        }
        XCTAssertThrowsError(try store.verify(tableNodes: PatternTree.visit))
        XCTAssertThrowsError(try store.writeCopy(to: storePath("copy"))) { error in
            XCTAssertTrue("\(error)".contains("maximumFileSize"), "\(error)")
        }
    }

    func testNewStoreIsEmptyVersionOne() throws {
        let store = try Store.open(path: storePath())
        defer { store.close() }
        let reader = try store.beginRead()
        XCTAssertEqual(reader.version, 1)
        XCTAssertEqual(reader.root, .none)
        XCTAssertEqual(store.latestCommittedVersion, 1)
        reader.end()
        try store.verify(tableNodes: PatternTree.visit)
    }

    func testCommittedNodesSurviveReopen() throws {
        var random = SeededGenerator(seed: 1)
        let path = storePath()
        var store = try Store.open(path: path)
        let written = try commitSteps(store, 20, random: &random)
        store.close()
        store = try Store.open(path: path)
        defer { store.close() }
        let (version, state) = try checkedState(store)
        XCTAssertEqual(version, 21)
        XCTAssertEqual(state, written)
    }

    func testRollbackLeavesNewestVersionUnchanged() throws {
        var random = SeededGenerator(seed: 2)
        let store = try Store.open(path: storePath())
        defer { store.close() }
        let before = try commitSteps(store, 3, random: &random)
        let writer = try store.beginWrite()
        _ = try PatternTree.advance(writer, random: &random)
        writer.rollback()
        let (version, state) = try checkedState(store)
        XCTAssertEqual(version, 4)
        XCTAssertEqual(state, before)
    }

    func testReleasedWriteTransactionRollsBack() throws {
        var random = SeededGenerator(seed: 3)
        let store = try Store.open(path: storePath())
        defer { store.close() }
        do {
            let writer = try store.beginWrite()
            _ = try PatternTree.advance(writer, random: &random)
        }
        let writer = try store.beginWrite()
        XCTAssertEqual(writer.version, 2)
        writer.rollback()
    }

    func testReaderKeepsItsSnapshotWhileWriterCommits() throws {
        var random = SeededGenerator(seed: 4)
        let store = try Store.open(path: storePath())
        defer { store.close() }
        let first = try commitSteps(store, 5, random: &random)
        let reader = try store.beginRead()
        try commitSteps(store, 30, random: &random)
        XCTAssertEqual(try PatternTree.read(reader), first)
        XCTAssertEqual(reader.version, 6)
        reader.end()
        XCTAssertEqual(try checkedState(store).0, 36)
    }

    func testRootOutsideTheVersionIsRefusedAtCommit() throws {
        let store = try Store.open(path: storePath())
        defer { store.close() }
        let writer = try store.beginWrite()
        _ = try writer.allocate(byteCount: 8)
        writer.root = NodeRef(rawValue: 999)
        XCTAssertThrowsError(try writer.commit()) {
            guard case .invalidArgument = $0 as? StrataError else { return XCTFail("\($0)") }
        }
        XCTAssertEqual(store.latestCommittedVersion, 1)
        try store.verify(tableNodes: PatternTree.visit)
    }

    func testEmptyTransactionCommitsNothing() throws {
        let store = try Store.open(path: storePath())
        defer { store.close() }
        try store.beginWrite().commit()
        XCTAssertEqual(store.latestCommittedVersion, 1)
    }

    func testDirtyNodeIsWritableAndCommittedNodeIsNot() throws {
        let store = try Store.open(path: storePath())
        defer { store.close() }
        let writer = try store.beginWrite()
        let (ref, payload) = try writer.allocate(byteCount: 10)
        payload[0] = 42
        XCTAssertEqual(writer.writableIfDirty(ref)?[0], 42)
        writer.root = ref
        try writer.commit()
        let next = try store.beginWrite()
        XCTAssertNil(next.writableIfDirty(ref))
        XCTAssertEqual(try next.read(ref)[0], 42)
        next.rollback()
    }

    func testOpeningSamePathTwiceSharesTheStore() throws {
        let first = try Store.open(path: storePath())
        let second = try Store.open(path: storePath())
        XCTAssertTrue(first === second)
        first.close()
    }

    /// The same file named another way (`./`, `..`, a symbolic link to its folder or to itself) is the same store:
    /// two stores on one file in one process would share the process's `fcntl` locks, so both could write at
    /// once, and closing either would drop the other's locks.
    func testOpeningOneFileByAnotherPathSharesTheStore() throws {
        let path = storePath()
        let folder = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        let linkedFolder = folder + "-link"
        try FileManager.default.createSymbolicLink(atPath: linkedFolder, withDestinationPath: folder)
        defer { try? FileManager.default.removeItem(atPath: linkedFolder) }
        let store = try Store.open(path: path)
        defer { store.close() }
        let linkedFile = folder + "/alias.strata"
        try FileManager.default.createSymbolicLink(atPath: linkedFile, withDestinationPath: path)
        for other in [folder + "/./" + name, folder + "/../" + (folder as NSString).lastPathComponent + "/" + name,
                      linkedFolder + "/" + name, linkedFile] {
            XCTAssertTrue(try Store.open(path: other) === store, other)
        }
        var random = SeededGenerator(seed: 13)
        let writer = try store.beginWrite()
        _ = try PatternTree.advance(writer, random: &random)
        try writer.commit()
    }

    func testReadOnlyStoreRefusesWrites() throws {
        var random = SeededGenerator(seed: 5)
        let path = storePath()
        let store = try Store.open(path: path)
        try commitSteps(store, 2, random: &random)
        store.close()
        let readOnly = try Store.open(path: path, options: StoreOptions(readOnly: true))
        defer { readOnly.close() }
        XCTAssertThrowsError(try readOnly.beginWrite()) { XCTAssertEqual($0 as? StrataError, .readOnly(path: path)) }
        XCTAssertEqual(try checkedState(readOnly).0, 3)
    }

    func testReadOnlyOpenOfMissingFileSaysNoDatabase() throws {
        XCTAssertThrowsError(try Store.open(path: storePath("missing"), options: StoreOptions(readOnly: true))) { error in
            guard case .io(_, _, let code, let message) = error as? StrataError else { return XCTFail("\(error)") }
            XCTAssertEqual(code, ENOENT)
            XCTAssertTrue(message.contains("no database"), message)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: storePath("missing") + ".lock"), "a lock file was left behind")
    }

    /// A store in a place this process cannot write (data shipped with an app; here a read-only file system):
    /// opened read-only, it needs no lock file; opened for writing, it fails naming the lock file. Needs root (to
    /// mount the file system); skipped elsewhere.
    func testAReadOnlyStoreOpensWhereNoLockFileCanBeMade() throws {
        guard let disk = try SmallFileSystem(kilobytes: 1024) else {
            throw XCTSkip("mounting a tmpfs needs root: a store on a read-only file system is not checked here")
        }
        let path = disk.path + "/shipped.strata"
        var random = SeededGenerator(seed: 14)
        let written: PatternTree.State
        do {
            let store = try Store.open(path: path)
            written = try commitSteps(store, 3, random: &random)
            store.close()
        }
        try FileManager.default.removeItem(atPath: path + ".lock")
        try disk.makeReadOnly()

        XCTAssertThrowsError(try Store.open(path: path)) { error in
            XCTAssertTrue("\(error)".contains(".lock"), "\(error)")
        }
        let store = try Store.open(path: path, options: StoreOptions(readOnly: true))
        defer { store.close() }
        let (version, state) = try checkedState(store)
        XCTAssertEqual(version, 4)
        XCTAssertEqual(state, written)
        XCTAssertThrowsError(try store.beginWrite())
    }

    /// Deleting a store's files is refused while the store is open, in this process or another (each would go on
    /// with a file that has no name, and the next opener would start a new one unaware of it); once it is closed
    /// everywhere, the file, its lock file and the leftovers of a killed compaction all go.
    func testDeletingTheFilesOfAnOpenStoreIsRefused() throws {
        let path = storePath()
        func assertRefused(naming holder: String, line: UInt = #line) {
            XCTAssertThrowsError(try Store.deleteFiles(at: path), line: line) { error in
                guard case StrataError.io(_, _, EBUSY, let message) = error else { return XCTFail("\(error)", line: line) }
                XCTAssertTrue(message.contains(holder), message, line: line)
            }
            XCTAssertTrue(FileManager.default.fileExists(atPath: path), line: line)
        }
        let store = try Store.open(path: path)
        assertRefused(naming: "this process")
        store.close()
        let child = try HelperProcess(executable: helperExecutable(), arguments: ["pin", path])
        child.waitForLines(startingWith: "pinned ")
        assertRefused(naming: "another process")
        _ = child.kill()
        try Data("left".utf8).write(to: URL(fileURLWithPath: path + ".compacting"))
        XCTAssertTrue(try Store.deleteFiles(at: path))
        for file in [path, path + ".lock", path + ".compacting"] {
            XCTAssertFalse(FileManager.default.fileExists(atPath: file), file)
        }
        XCTAssertFalse(try Store.deleteFiles(at: path))
    }

    /// A lock file deleted while the store is open (`rm *.lock`): a process opening the store next would make a
    /// new one and write unaware of this process, so this one refuses to write, saying why; it still reads, and
    /// once reopened everything works.
    func testALockFileDeletedWhileOpenStopsWrites() throws {
        var random = SeededGenerator(seed: 15)
        let path = storePath()
        let store = try Store.open(path: path)
        let written = try commitSteps(store, 2, random: &random)
        try FileManager.default.removeItem(atPath: path + ".lock")
        XCTAssertThrowsError(try store.beginWrite()) { error in
            XCTAssertTrue("\(error)".contains("was deleted while the store was open"), "\(error)")
        }
        XCTAssertEqual(try checkedState(store).1, written)
        store.close()

        let reopened = try Store.open(path: path)
        defer { reopened.close() }
        try commitSteps(reopened, 1, random: &random)
        XCTAssertEqual(try checkedState(reopened).0, 4)
    }

    /// A folder or a named pipe where the file should be is an error naming it (a pipe is not waited on).
    func testAPathThatIsNotARegularFileIsRefusedWithoutWaiting() throws {
        let folder = storePath("folder")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        let pipe = storePath("pipe")
        XCTAssertEqual(mkfifo(pipe, 0o644), 0)
        for path in [folder, pipe] {
            for readOnly in [false, true] {
                XCTAssertThrowsError(try Store.open(path: path, options: StoreOptions(readOnly: readOnly))) { error in
                    XCTAssertTrue("\(error)".contains("not a regular file"), "\(error)")
                }
            }
        }
    }

    func testForeignFileIsNotADatabase() throws {
        let path = storePath("foreign")
        try Data(repeating: 0x41, count: 8192).write(to: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try Store.open(path: path)) { XCTAssertEqual($0 as? StrataError, .notADatabase(path: path)) }
    }

    func testNewerFormatIsRefusedWithBothVersions() throws {
        let storage = MemoryStorage()
        try Store.open(path: "db", options: StoreOptions(io: storage)).close()
        var bytes = try XCTUnwrap(storage.contents(ofFile: "db"))
        bytes[8] = 9
        // Recompute the header checksum so only the format is wrong.
        let checksum = bytes.withUnsafeBytes { Checksum.hash($0.baseAddress!, count: 16, seed: FileHeader.checksumSeed) }
        withUnsafeBytes(of: checksum.littleEndian) { bytes.replaceSubrange(16..<24, with: $0) }
        try storage.setContents(bytes, ofFile: "db")
        XCTAssertThrowsError(try Store.open(path: "db", options: StoreOptions(io: storage))) {
            XCTAssertEqual($0 as? StrataError, .unsupportedFormat(path: "db", version: 9, supported: 3))
        }
    }

    func testInMemoryStoresShareContentByIdentifier() throws {
        var random = SeededGenerator(seed: 6)
        let store = try Store.inMemory(identifier: "shared-\(UUID())")
        let written = try commitSteps(store, 10, random: &random)
        let again = try Store.inMemory(identifier: store.path.replacingOccurrences(of: "memory:", with: ""))
        XCTAssertTrue(store === again)
        XCTAssertEqual(try checkedState(again).1, written)
        let other = try Store.inMemory()
        XCTAssertEqual(try checkedState(other).0, 1)
        store.close()
        other.close()
    }

    func testNestedWriteOnOneThreadThrowsInsteadOfDeadlocking() throws {
        let store = try Store.open(path: storePath())
        defer { store.close() }
        let writer = try store.beginWrite()
        XCTAssertThrowsError(try store.beginWrite()) {
            guard case .transactionMisuse = $0 as? StrataError else { return XCTFail("\($0)") }
        }
        writer.rollback()
        XCTAssertNoThrow(try store.beginWrite().rollback())
    }

    func testReopenWhileClosedStoreStillHasReadersIsRefused() throws {
        let path = storePath()
        let store = try Store.open(path: path)
        let reader = try store.beginRead()
        store.close()
        XCTAssertThrowsError(try Store.open(path: path))
        XCTAssertEqual(try PatternTree.read(reader), PatternTree.State(), "the reader keeps working after close")
        reader.end()
        let reopened = try Store.open(path: path)
        XCTAssertFalse(reopened === store)
        reopened.close()
    }

    func testClosedStoreRefusesTransactions() throws {
        let store = try Store.open(path: storePath())
        store.close()
        XCTAssertThrowsError(try store.beginRead())
        XCTAssertThrowsError(try store.beginWrite())
    }

    func testStatusReportsPinsAndSpace() throws {
        var random = SeededGenerator(seed: 7)
        let store = try Store.open(path: storePath())
        defer { store.close() }
        try commitSteps(store, 5, random: &random)
        let reader = try store.beginRead()
        try commitSteps(store, 5, random: &random)
        let status = try store.status
        XCTAssertEqual(status.currentVersion, 11)
        XCTAssertEqual(status.oldestPinnedVersion, 6)
        XCTAssertEqual(status.pinnedVersionsInProcess, [6])
        XCTAssertGreaterThan(status.waitingBytes, 0)
        XCTAssertGreaterThanOrEqual(status.fileBytes, status.usedBytes + status.freeBytes)
        reader.end()
        let after = try store.status
        XCTAssertNil(after.oldestPinnedVersion)
        XCTAssertEqual(after.waitingBytes, 0)
    }

    func testChecksumMatchesPublishedXXHash64Vectors() {
        XCTAssertEqual(Array("".utf8).withUnsafeBytes { Checksum.hash($0) }, 0xEF46_DB37_51D8_E999)
        XCTAssertEqual(Array("abc".utf8).withUnsafeBytes { Checksum.hash($0) }, 0x44BC_2CF5_AD77_0999)
    }
}

final class StoreCopyTests: PagerTestCase {
    func testWriteCopyOpensAtTheCopiedVersionWhileWritesContinue() throws {
        var random = SeededGenerator(seed: 8)
        let store = try Store.open(path: storePath())
        defer { store.close() }
        let copied = try commitSteps(store, 15, random: &random)
        let copyPath = storePath("copy")
        try store.writeCopy(to: copyPath)
        try commitSteps(store, 5, random: &random)
        XCTAssertThrowsError(try store.writeCopy(to: copyPath), "an existing file is never overwritten")
        let copy = try Store.open(path: copyPath)
        defer { copy.close() }
        let (version, state) = try checkedState(copy)
        XCTAssertEqual(version, 16)
        XCTAssertEqual(state, copied)
        XCTAssertNoThrow(try commitSteps(copy, 3, random: &random))
    }
}
