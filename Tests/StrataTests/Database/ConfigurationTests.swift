import Foundation
import StrataStorage
import StrataTestSupport
import XCTest

@testable import Strata

final class ConfigurationTests: DatabaseTestCase {
    func testResultsAreLiveAcrossCommitsAndInsideWrites() throws {
        let db = try openDatabase()
        let people = db.objects(Person.self)
        XCTAssertEqual(people.count, 0)
        try db.write {
            db.add(Person(id: 1, name: "Ana"))
            XCTAssertEqual(people.count, 1, "results see the current write's own changes")
        }
        XCTAssertEqual(people.count, 1)
        try db.write { db.delete(people[0]) }
        XCTAssertTrue(people.isEmpty)
    }

    func testRefreshAndAutorefreshBetweenTwoDatabases() throws {
        let first = try openDatabase()
        let second = try openDatabase()
        let seen = second.objects(Person.self)
        XCTAssertEqual(seen.count, 0)
        try first.write { first.add(Person(id: 1, name: "Ana")) }
        XCTAssertEqual(seen.count, 0, "a database keeps reading its version until it refreshes")
        XCTAssertTrue(second.refresh())
        XCTAssertEqual(seen.count, 1)
        XCTAssertFalse(second.refresh())
        try first.write { first.add(Person(id: 2, name: "Bo")) }
        XCTAssertEqual(second.objects(Person.self).count, 2, "objects(_:) autorefreshes")
        second.autorefresh = false
        try first.write { first.add(Person(id: 3, name: "Cy")) }
        XCTAssertEqual(second.objects(Person.self).count, 2)
        second.invalidate()
        XCTAssertEqual(second.objects(Person.self).count, 3)
    }

    func testInMemoryDatabasesAreSharedByIdentifierAndLeaveNoFile() throws {
        configuration.inMemoryIdentifier = "shared-\(UUID().uuidString)"
        let first = try openDatabase()
        try first.write { first.add(Person(id: 1, name: "Ana")) }
        let second = try openDatabase()
        XCTAssertEqual(second.objects(Person.self).first?.name, "Ana")
        XCTAssertFalse(FileManager.default.fileExists(atPath: configuration.fileURL.path))
    }

    func testObjectTypesRestrictTheModels() throws {
        configuration.objectTypes = [Label.self, Keeper.self]
        let db = try openDatabase()
        try db.write { db.add(Label(text: "a", weight: 1)) }
        XCTAssertEqual(db.objects(Label.self).count, 1)
        XCTAssertThrowsError(try db.write { db.add(Person(id: 1)) }) { error in
            guard case StrataError.invalidArgument(let message) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(message.contains("Person is not a model of this database"), message)
        }
    }

    func testObjectTypesMustIncludeLinkedModels() throws {
        configuration.objectTypes = [Person.self]
        XCTAssertThrowsError(try openDatabase()) { error in
            guard case StrataError.invalidArgument(let message) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(message.contains("links to Dog"), message)
        }
    }

    func testDefaultConfigurationAndItsLocation() throws {
        let saved = Configuration.defaultConfiguration
        defer { Configuration.defaultConfiguration = saved }
        Configuration.defaultConfiguration = nil
        XCTAssertThrowsError(try Database()) { error in
            XCTAssertTrue("\(error)".contains("defaultConfiguration"), "\(error)")
        }
        Configuration.defaultConfiguration = configuration
        let db = try Database()
        XCTAssertEqual(db.configuration.fileURL, configuration.fileURL)
        let defaultURL = Configuration.defaultFileURL
        XCTAssertEqual(defaultURL.lastPathComponent, "default.strata")
        #if os(Linux)
        let dataHome = ProcessInfo.processInfo.environment["XDG_DATA_HOME"]
        let expectedRoot = dataHome ?? (NSHomeDirectory() + "/.local/share")
        XCTAssertTrue(defaultURL.path.hasPrefix(expectedRoot), defaultURL.path)
        #endif
    }

    func testADatabaseStartsAtTheVersionItOpenedAndMovesOnWithAutorefresh() throws {
        let writer = try openDatabase()
        let reader = try openDatabase()
        let opened = reader.version
        try writer.write { writer.add(Person(id: 1, name: "Ana")) }
        XCTAssertEqual(reader.version, opened, "the reader keeps the version it opened until it looks again")
        XCTAssertEqual(reader.objects(Person.self).count, 1, "a query moves an autorefreshing reader on")
        XCTAssertGreaterThan(reader.version, opened)

        let pinned = try openDatabase()
        pinned.autorefresh = false
        try writer.write { writer.add(Person(id: 2, name: "Bo")) }
        XCTAssertEqual(pinned.objects(Person.self).count, 1, "without autorefresh it reads the version it opened")
        XCTAssertTrue(pinned.refresh())
        XCTAssertEqual(pinned.objects(Person.self).count, 2)
    }

    func testUnsetFileURLIsTheDefaultAndASetOneReplacesIt() {
        var fresh = Configuration(schema: Zoo.self)
        XCTAssertEqual(fresh.fileURL, Configuration.defaultFileURL)
        let chosen = URL(fileURLWithPath: "/tmp/strata-configuration-\(UUID().uuidString)/chosen.strata")
        fresh.fileURL = chosen
        XCTAssertEqual(fresh.fileURL, chosen)
        XCTAssertEqual(fresh.storeDescription, chosen.path)
    }

    func testOpenCreatesTheMissingDirectoriesOfTheFile() throws {
        configuration.fileURL = directory.url.appendingPathComponent("a/b/nested.strata")
        let db = try openDatabase()
        try db.write { db.add(Person(id: 1)) }
        XCTAssertTrue(FileManager.default.fileExists(atPath: configuration.fileURL.path))
    }

    func testOpenUnderAFileInsteadOfADirectoryFailsNamingThePath() throws {
        let blocker = directory.url.appendingPathComponent("blocker")
        XCTAssertTrue(FileManager.default.createFile(atPath: blocker.path, contents: Data("x".utf8)))
        configuration.fileURL = blocker.appendingPathComponent("inside.strata")
        XCTAssertThrowsError(try openDatabase()) { error in
            guard case StrataError.io(_, let path, _, _) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(path.hasSuffix("blocker"), path)
        }
    }

    /// With the lock file go what an interrupted compaction or creation leaves beside the file.
    func testDeleteFilesRemovesTheFileItsLockAndLeftovers() throws {
        do {
            let db = try openDatabase()
            try db.write { db.add(Person(id: 1)) }
        }
        let path = configuration.fileURL.path
        let leftovers = [".creating", ".compacting", ".compacting.lock", ".compacting.creating"].map { path + $0 }
        for leftover in leftovers { try Data("left".utf8).write(to: URL(fileURLWithPath: leftover)) }
        XCTAssertTrue(FileManager.default.fileExists(atPath: path))
        XCTAssertTrue(try Database.deleteFiles(for: configuration))
        for file in [path, path + ".lock"] + leftovers { XCTAssertFalse(FileManager.default.fileExists(atPath: file), file) }
        XCTAssertFalse(try Database.deleteFiles(for: configuration))
    }

    /// Realm refuses to delete the files of an open Realm; so does Strata, and the database goes on working.
    func testDeleteFilesOfAnOpenDatabaseIsRefused() throws {
        let db = try openDatabase()
        try db.write { db.add(Person(id: 1)) }
        XCTAssertThrowsError(try Database.deleteFiles(for: configuration)) { error in
            guard case StrataError.io(_, _, EBUSY, _) = error else { return XCTFail("\(error)") }
        }
        try db.write { db.add(Person(id: 2)) }
        XCTAssertEqual(db.objects(Person.self).count, 2)
    }

    /// A database opened through a symbolic link keeps its lock file beside the real file (one file, one lock,
    /// whatever the name); deleting through the link removes the file, its lock and the link.
    func testDeleteFilesThroughASymbolicLinkRemovesTheRealFileAndItsLock() throws {
        let real = configuration.fileURL
        let link = directory.url.appendingPathComponent("alias.strata")
        do {
            let db = try openDatabase()
            try db.write { db.add(Person(id: 1)) }
        }
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: real.path)
        configuration.fileURL = link
        do {
            let db = try openDatabase()
            XCTAssertEqual(db.objects(Person.self).count, 1)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: link.path + ".lock"))
        XCTAssertTrue(try Database.deleteFiles(for: configuration))
        for path in [real.path, real.path + ".lock", link.path] {
            XCTAssertNil(try? FileManager.default.attributesOfItem(atPath: path), path)
        }
    }

    func testAutoPrimaryKeysAreUniqueAcrossProcesses() throws {
        let helper = try BuiltExecutable(named: "strata-object-helper")
        let path = directory.url.appendingPathComponent("notes.strata").path
        let children = try (1...2).map { writer in try helper.start(["add-notes", path, "\(writer)", "50"]) }
        for (process, _, _) in children { process.waitUntilExit() }
        XCTAssertEqual(children.map { $0.0.terminationStatus }, [0, 0])
        let outcome = try helper.run(["add-notes", path, "3", "0"])
        XCTAssertEqual(outcome.status, 0, outcome.errorOutput)
        // Read the file through the storage engine: the ids must be 1...100, each once.
        let store = try StrataStorage.Store.open(path: path)
        let read = try store.beginRead()
        let catalog = try StrataStorage.Catalog(reader: read)
        let table = try XCTUnwrap(catalog.table(named: "Note"))
        let idColumn = try XCTUnwrap(table.column(named: "id")).key
        let ids = try table.keys().map { try XCTUnwrap(table.int($0, column: idColumn)) }
        XCTAssertEqual(ids.sorted(), Array(1...100))
    }
}
