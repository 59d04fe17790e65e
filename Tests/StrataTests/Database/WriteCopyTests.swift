import Foundation
import StrataStorage
import StrataTestSupport
import XCTest

@testable import Strata

final class WriteCopyTests: DatabaseTestCase {
    func testCompactedCopyHoldsTheSameDataInLessSpace() throws {
        let db = try openDatabase()
        try db.write {
            for i in 0..<2000 {
                db.add(Person(id: i, name: "person \(i)", email: "p\(i)@x", dogs: [Dog(name: "dog \(i)")], tags: ["t\(i)"]))
            }
            db.add(Keeper(name: "k"))
        }
        try db.write { db.delete(db.objects(Person.self).filter { $0.id >= 100 }) }
        let copyURL = directory.url.appendingPathComponent("copy.strata")
        try db.writeCopy(to: copyURL)

        var copyConfiguration = configuration!
        copyConfiguration.fileURL = copyURL
        let copy = try Database(configuration: copyConfiguration)
        XCTAssertEqual(copy.objects(Person.self).count, 100)
        let person = try XCTUnwrap(copy.object(ofType: Person.self, forPrimaryKey: 42))
        XCTAssertEqual(person.name, "person 42")
        XCTAssertEqual(person.dogs.first?.name, "dog 42")
        XCTAssertEqual(person.dogs.first?.owners.first?.id, 42, "backlinks are rebuilt")
        XCTAssertEqual(Array(person.tags), ["t42"])
        try copy.write { copy.add(Keeper(name: "next")) }
        XCTAssertEqual(copy.objects(Keeper.self).map(\.id).sorted(), [1, 2], "sequences are copied")

        let originalSize = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: configuration.fileURL.path)[.size] as? Int)
        let copySize = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: copyURL.path)[.size] as? Int)
        XCTAssertLessThan(copySize, originalSize)
    }

    /// Inside a write transaction a copy would hold changes that may yet be cancelled: refused, as Realm does,
    /// and the write goes on.
    func testCopyInsideAWriteTransactionIsRefused() throws {
        let db = try openDatabase()
        let copyURL = directory.url.appendingPathComponent("copy.strata")
        try db.write {
            db.add(Person(id: 1, name: "uncommitted"))
            XCTAssertThrowsError(try db.writeCopy(to: copyURL)) { error in
                guard case StrataError.transactionMisuse(let message) = error else { return XCTFail("\(error)") }
                XCTAssertTrue(message.contains("write transaction"), message)
            }
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: copyURL.path))
        XCTAssertEqual(db.objects(Person.self).count, 1)
        try db.writeCopy(to: copyURL)
    }

    func testCopyRefusesToOverwrite() throws {
        let db = try openDatabase()
        let existing = directory.url.appendingPathComponent("existing.strata")
        try Data("keep me".utf8).write(to: existing)
        XCTAssertThrowsError(try db.writeCopy(to: existing))
        XCTAssertEqual(try Data(contentsOf: existing), Data("keep me".utf8))
    }

    func testShouldCompactOnLaunchShrinksTheFileAndKeepsTheData() throws {
        do {
            let db = try openDatabase()
            try db.write {
                for i in 0..<2000 {
                    db.add(Person(id: i, name: "person \(i)", email: "p\(i)@x", dogs: [Dog(name: "dog \(i)")]))
                }
                db.add(Keeper(name: "k"))
            }
            try db.write { db.delete(db.objects(Person.self).filter { $0.id >= 100 }) }
            db.invalidate()
        }
        let path = configuration.fileURL.path
        let before = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        let asked = LockedPair()
        configuration.shouldCompactOnLaunch = { totalBytes, usedBytes in
            asked.set(totalBytes, usedBytes)
            return totalBytes > 2 * usedBytes
        }
        let db = try openDatabase()
        let (total, used) = try XCTUnwrap(asked.value)
        XCTAssertEqual(total, before)
        XCTAssertLessThan(used, total)
        let after = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        XCTAssertLessThan(after, before)
        XCTAssertEqual(db.objects(Person.self).count, 100)
        XCTAssertEqual(db.object(ofType: Person.self, forPrimaryKey: 7)?.dogs.first?.owners.first?.id, 7)
        try db.write { db.add(Keeper(name: "next")) }
        XCTAssertEqual(db.objects(Keeper.self).map(\.id).sorted(), [1, 2], "sequences survive compaction")
    }

    /// On a real full disk (`SmallFileSystem`; needs root, skipped elsewhere): a compaction on launch that has no
    /// room for its copy opens the file as it was, a `writeCopy` fails with `diskFull` and leaves no partial
    /// copy, and a write fails with `diskFull` and keeps nothing of itself.
    func testAFullDiskNeverBlocksTheOpenAndLosesNothing() throws {
        guard let disk = try SmallFileSystem(kilobytes: 2048) else {
            throw XCTSkip("mounting a tmpfs needs root: compaction and copies on a full disk are not checked here")
        }
        configuration.fileURL = URL(fileURLWithPath: disk.path + "/zoo.strata")
        do {
            let db = try openDatabase()
            try db.write {
                for i in 0..<2000 { db.add(Person(id: i, name: "person \(i)", email: "p\(i)@x", dogs: [Dog(name: "dog \(i)")])) }
            }
            try db.write { db.delete(db.objects(Person.self).filter { $0.id >= 100 }) }
            db.invalidate()
        }
        try disk.fill()
        configuration.shouldCompactOnLaunch = { _, _ in true }
        let db = try openDatabase()
        XCTAssertEqual(db.objects(Person.self).count, 100)
        XCTAssertFalse(FileManager.default.fileExists(atPath: configuration.fileURL.path + ".compacting"))

        let copy = URL(fileURLWithPath: disk.path + "/copy.strata")
        XCTAssertThrowsError(try db.writeCopy(to: copy)) { error in
            guard case StrataError.diskFull = error else { return XCTFail("\(error)") }
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: disk.path).filter { $0.hasPrefix("copy") }
        XCTAssertEqual(left, [], "a partial copy was left behind")

        XCTAssertThrowsError(try db.write {
            for i in 5000..<9000 { db.add(Person(id: i, name: String(repeating: "x", count: 200), email: "e")) }
        }) { error in
            guard case StrataError.diskFull = error else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(db.objects(Person.self).count, 100)
        XCTAssertNil(db.object(ofType: Person.self, forPrimaryKey: 5000))
        try db.verify()
    }

    func testShouldCompactOnLaunchIsNotAskedWhileTheFileIsOpen() throws {
        let first = try openDatabase()
        try first.write { first.add(Keeper(name: "k")) }
        let asked = LockedPair()
        var second = configuration!
        second.shouldCompactOnLaunch = { totalBytes, usedBytes in
            asked.set(totalBytes, usedBytes)
            return true
        }
        let db = try Database(configuration: second)
        XCTAssertNil(asked.value, "another Database of this process has the file open")
        XCTAssertEqual(db.objects(Keeper.self).count, 1)
    }
}

/// The last values a `shouldCompactOnLaunch` closure saw.
private final class LockedPair: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: (Int, Int)?
    func set(_ first: Int, _ second: Int) { lock.withLock { stored = (first, second) } }
    var value: (Int, Int)? { lock.withLock { stored } }
}
