import Foundation
import StrataTestSupport
import XCTest

@testable import Strata

#if canImport(Glibc)
import Glibc
#endif

/// The `strata` command and `Database` with the paths issue #23 (item 5) and #24 (item 5) are about: outputs that
/// are links or the database's own files, files that are no database, permissions.
final class StrataCommandPathTests: DatabaseTestCase {
    private func fill() throws {
        let db = try openDatabase()
        try db.write { for i in 0..<10 { db.add(Person(id: i, name: "p\(i)")) } }
    }

    func testCompactRefusesALinkOrACompanionFileAsItsOutput() throws {
        try fill()
        let strata = try BuiltExecutable(named: "strata")
        let path = configuration.fileURL.path
        let missing = directory.url.appendingPathComponent("nowhere.strata").path
        let link = directory.url.appendingPathComponent("link.strata").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: missing)
        let refused = try strata.run(["compact", path, link])
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertTrue(refused.errorOutput.contains("symbolic link"), refused.errorOutput)
        XCTAssertFalse(FileManager.default.fileExists(atPath: missing), "the copy was written at the link's target")

        for companion in [path + ".compacting", path + ".lock", path + ".creating", path] {
            let outcome = try strata.run(["compact", path, companion])
            XCTAssertNotEqual(outcome.status, 0, companion)
            XCTAssertTrue(
                outcome.errorOutput.contains("choose another path") || outcome.errorOutput.contains("exists"),
                outcome.errorOutput)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: path + ".compacting"))
        XCTAssertEqual(try openDatabase().objects(Person.self).count, 10)
    }

    /// `strata info` and `verify` on a file that is no database say so and leave no lock file beside it; on a
    /// missing file they give advice for the command line, not the app's `readOnly`.
    func testInfoAndVerifyOnAFileThatIsNoDatabase() throws {
        let strata = try BuiltExecutable(named: "strata")
        let notes = directory.url.appendingPathComponent("notes.txt").path
        try Data(repeating: UInt8(ascii: "n"), count: 9_000).write(to: URL(fileURLWithPath: notes))
        for command in ["info", "verify"] {
            let outcome = try strata.run([command, notes])
            XCTAssertNotEqual(outcome.status, 0)
            XCTAssertTrue(outcome.errorOutput.contains("is not a Strata database"), outcome.errorOutput)
            XCTAssertFalse(FileManager.default.fileExists(atPath: notes + ".lock"), command)
        }
        let missing = directory.url.appendingPathComponent("missing.strata").path
        let outcome = try strata.run(["info", missing])
        XCTAssertNotEqual(outcome.status, 0)
        XCTAssertFalse(outcome.errorOutput.contains("readOnly"), outcome.errorOutput)
        XCTAssertTrue(outcome.errorOutput.contains("check the path"), outcome.errorOutput)
    }

    func testWriteCopyRefusesTheDatabasesOwnFiles() throws {
        let db = try openDatabase()
        try db.write { db.add(Person(id: 1, name: "Ana")) }
        let url = configuration.fileURL
        for name in [url.path + ".compacting", url.path + ".creating"] {
            XCTAssertThrowsError(try db.writeCopy(to: URL(fileURLWithPath: name))) { error in
                XCTAssertTrue("\(error)".contains("choose another path"), "\(error)")
            }
            XCTAssertFalse(FileManager.default.fileExists(atPath: name))
        }
    }

    func testFilePermissionsOfANewDatabaseAndItsCopies() throws {
        let mask = umask(0o022)
        defer { umask(mask) }
        configuration.filePermissions = 0o600
        let db = try openDatabase()
        try db.write { db.add(Person(id: 1, name: "Ana")) }
        let copy = directory.url.appendingPathComponent("copy.strata")
        try db.writeCopy(to: copy)
        for path in [configuration.fileURL.path, configuration.fileURL.path + ".lock", copy.path] {
            var info = stat()
            XCTAssertEqual(lstat(path, &info), 0, path)
            XCTAssertEqual(UInt32(info.st_mode) & 0o777, 0o600, path)
        }
    }
}
