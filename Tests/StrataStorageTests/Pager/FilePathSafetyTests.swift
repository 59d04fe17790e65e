import Foundation
@testable import StrataStorage
import StrataTestSupport
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// Issue #23, item 5: symbolic links planted at the names of the files Strata creates are refused (never followed,
/// replaced or removed), copies refuse the store's own companion names, and new files get the permissions asked
/// for.
final class FilePathSafetyTests: PagerTestCase {
    private let precious = "precious bytes, not a database"

    /// A file the tests' links point at, holding `precious`.
    private func victim(_ name: String = "victim") throws -> String {
        let path = directory.url.appendingPathComponent(name).path
        try Data(precious.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    private func plantLink(at path: String, to target: String) throws {
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)
    }

    /// The victim holds what it held, and the link is still there, still a link.
    private func assertUntouched(
        _ victim: String, link: String, file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertEqual(FileManager.default.contents(atPath: victim).map { String(decoding: $0, as: UTF8.self) },
                       precious, "the link's target changed", file: file, line: line)
        XCTAssertTrue(POSIXStorage.isSymbolicLink(link), "the link was replaced or removed", file: file, line: line)
    }

    /// The error is the refusal of a symbolic link, which says so.
    private func assertRefusesLink(
        _ expression: @autoclosure () throws -> Void, file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertThrowsError(try expression(), file: file, line: line) { error in
            guard case .io(_, _, let code, let message)? = error as? StrataError else {
                return XCTFail("not an I/O error: \(error)", file: file, line: line)
            }
            XCTAssertEqual(code, ELOOP, "\(error)", file: file, line: line)
            XCTAssertTrue(message.contains("symbolic link"), message, file: file, line: line)
        }
    }

    private func makeStore(at path: String) throws {
        let store = try Store.open(path: path, options: StoreOptions(durability: .none))
        var random = SeededGenerator(seed: 3)
        try commitSteps(store, 2, random: &random)
        store.close()
    }

    // MARK: The files a store creates

    func testALinkAtTheDatabasePathIsNotCreatedThrough() throws {
        let path = storePath()
        let missing = directory.url.appendingPathComponent("elsewhere.strata").path
        try plantLink(at: path, to: missing)
        assertRefusesLink(try Store.open(path: path).close())
        assertRefusesLink(try Store.open(path: path, options: StoreOptions(readOnly: true)).close())
        XCTAssertFalse(FileManager.default.fileExists(atPath: missing), "the database was created at the target")
        XCTAssertNil(try? FileManager.default.attributesOfItem(atPath: path + ".lock"))

        let empty = directory.url.appendingPathComponent("empty").path
        XCTAssertTrue(FileManager.default.createFile(atPath: empty, contents: Data()))
        let other = storePath("other")
        try plantLink(at: other, to: empty)
        assertRefusesLink(try Store.open(path: other).close())
        XCTAssertEqual(FileManager.default.contents(atPath: empty), Data(), "the empty target was replaced")
    }

    func testALinkAtTheLockFileIsRefused() throws {
        let path = storePath()
        let target = try victim()
        try plantLink(at: path + ".lock", to: target)
        assertRefusesLink(try Store.open(path: path).close())
        assertUntouched(target, link: path + ".lock")
        XCTAssertFalse(FileManager.default.fileExists(atPath: path), "nothing is created")

        // A dangling one: the lock file is not created at its target.
        let second = storePath("second")
        let missing = directory.url.appendingPathComponent("missing-lock").path
        try plantLink(at: second + ".lock", to: missing)
        assertRefusesLink(try Store.open(path: second).close())
        XCTAssertFalse(FileManager.default.fileExists(atPath: missing))
    }

    func testALinkAtTheCreatingFileIsRefused() throws {
        let path = storePath()
        let target = try victim()
        try plantLink(at: path + ".creating", to: target)
        assertRefusesLink(try Store.open(path: path).close())
        assertUntouched(target, link: path + ".creating")
    }

    /// Compaction on open writes `.compacting` (through `.compacting.creating`): a link at either makes the
    /// compaction fail (it is never worth refusing the open over), and the store opens as it was.
    func testLinksAtTheCompactionFilesAreNotFollowed() throws {
        for suffix in [".compacting", ".compacting.creating", ".compacting.lock"] {
            let path = storePath("compact\(suffix)")
            try makeStore(at: path)
            let target = try victim("victim\(suffix)")
            try plantLink(at: path + suffix, to: target)
            var options = StoreOptions()
            options.compactOnOpen = { _, _ in true }
            let store = try Store.open(path: path, options: options)
            XCTAssertEqual(try checkedState(store).0, 3, suffix)
            store.close()
            assertUntouched(target, link: path + suffix)
        }
    }

    func testWriteCopyRefusesLinksAtItsTemporaryAndItsOutput() throws {
        let path = storePath()
        try makeStore(at: path)
        let store = try Store.open(path: path)
        defer { store.close() }

        let copy = storePath("copy")
        let target = try victim()
        try plantLink(at: copy + ".creating", to: target)
        assertRefusesLink(try store.writeCopy(to: copy))
        assertUntouched(target, link: copy + ".creating")
        XCTAssertFalse(FileManager.default.fileExists(atPath: copy))

        // A link as the output, to an existing file or to none, is a name already taken.
        for (name, linkTarget) in [("to-victim", target), ("dangling", storePath("nowhere"))] {
            let output = storePath(name)
            try plantLink(at: output, to: linkTarget)
            XCTAssertThrowsError(try store.writeCopy(to: output)) { error in
                guard case .invalidArgument(let message)? = error as? StrataError else { return XCTFail("\(error)") }
                XCTAssertTrue(message.contains("already exists"), message)
            }
            XCTAssertTrue(POSIXStorage.isSymbolicLink(output))
        }
        assertUntouched(target, link: storePath("to-victim"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: storePath("nowhere")))
    }

    func testACompactedCopyRefusesALinkAsItsOutput() throws {
        let path = storePath()
        try makeStore(at: path)
        let store = try Store.open(path: path)
        defer { store.close() }
        let output = storePath("copy")
        let missing = storePath("nowhere")
        try plantLink(at: output, to: missing)
        let reader = try store.beginRead()
        defer { reader.end() }
        XCTAssertThrowsError(
            try Store.writeCompactedCopy(of: Catalog(reader: reader), to: output, options: StoreOptions()))
        XCTAssertFalse(FileManager.default.fileExists(atPath: missing), "the copy was written at the link's target")
        XCTAssertTrue(POSIXStorage.isSymbolicLink(output))
    }

    /// A store never removes a symbolic link, even at a name it cleans up (`deleteFiles`).
    func testDeletingAStoreRefusesALinkAmongItsCompanions() throws {
        let path = storePath()
        try makeStore(at: path)
        let target = try victim()
        try plantLink(at: path + ".creating", to: target)
        assertRefusesLink(_ = try Store.deleteFiles(at: path))
        assertUntouched(target, link: path + ".creating")
    }

    // MARK: Copies onto the store's own files

    func testACopyCannotTakeTheNameOfTheStoreOrItsCompanions() throws {
        let path = storePath()
        try makeStore(at: path)
        let store = try Store.open(path: path)
        defer { store.close() }
        for name in [path, path + ".lock", path + ".creating", path + ".compacting", path + ".compacting.lock",
                     path + ".compacting.creating", directory.url.path + "/./test.strata.compacting"] {
            XCTAssertThrowsError(try store.writeCopy(to: name), name) { error in
                guard case .invalidArgument(let message)? = error as? StrataError else { return XCTFail("\(error)") }
                XCTAssertTrue(message.contains("choose another path"), message)
            }
        }
        XCTAssertNoThrow(try Store.checkCopyDestination(storePath("copy"), source: path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: path + ".compacting"))
    }

    // MARK: Files that are not databases

    /// Opening a file that is no database leaves no lock file beside it; a lock file that was there stays.
    func testALockFileMadeForAFileThatIsNoDatabaseIsRemoved() throws {
        let path = storePath()
        try Data(repeating: UInt8(ascii: "x"), count: 10_000).write(to: URL(fileURLWithPath: path))
        for readOnly in [true, false] {
            XCTAssertThrowsError(try Store.open(path: path, options: StoreOptions(readOnly: readOnly)).close()) {
                XCTAssertEqual($0 as? StrataError, .notADatabase(path: path))
            }
            XCTAssertFalse(FileManager.default.fileExists(atPath: path + ".lock"), "readOnly \(readOnly)")
        }
        let empty = storePath("empty")
        XCTAssertTrue(FileManager.default.createFile(atPath: empty, contents: Data()))
        XCTAssertThrowsError(try Store.open(path: empty, options: StoreOptions(readOnly: true)).close())
        XCTAssertFalse(FileManager.default.fileExists(atPath: empty + ".lock"))

        XCTAssertTrue(FileManager.default.createFile(atPath: path + ".lock", contents: Data()))
        XCTAssertThrowsError(try Store.open(path: path, options: StoreOptions(readOnly: true)).close())
        XCTAssertTrue(FileManager.default.fileExists(atPath: path + ".lock"), "a lock file it did not make stays")
    }

    // MARK: Permissions

    private func permissions(_ path: String) throws -> UInt32 {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            throw StrataError.io(operation: "stat", path: path, errno: errno, message: "cannot stat it")
        }
        return UInt32(info.st_mode) & 0o777
    }

    func testNewFilesGetThePermissionsAsked() throws {
        let mask = umask(0o022)
        defer { umask(mask) }
        let path = storePath()
        var options = StoreOptions()
        options.filePermissions = 0o600
        let store = try Store.open(path: path, options: options)
        try store.writeCopy(to: storePath("copy"))
        let reader = try store.beginRead()
        try Store.writeCompactedCopy(of: Catalog(reader: reader), to: storePath("compacted"), options: options)
        reader.end()
        store.close()
        for file in [path, path + ".lock", storePath("copy"), storePath("compacted")] {
            XCTAssertEqual(try permissions(file), 0o600, file)
        }

        let plain = storePath("plain")
        try Store.open(path: plain).close()
        XCTAssertEqual(try permissions(plain), 0o644, "the default, under the usual umask")
        XCTAssertEqual(try permissions(plain + ".lock"), 0o644)
    }
}
