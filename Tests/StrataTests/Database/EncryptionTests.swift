import Foundation
import StrataStorage
import XCTest

@testable import Strata

/// `Configuration.encryptionKey` end to end: objects, indexes, links and backlinks of an encrypted file, the key
/// refused when wrong, and `writeCopy` encrypting, re-keying and decrypting.
final class EncryptionTests: DatabaseTestCase {
    static let key = Data((0..<64).map { UInt8(truncatingIfNeeded: $0 &* 29 &+ 3) })
    static let otherKey = Data((0..<64).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
    static let secret = "a-very-recognisable-email-address@example.org"

    private func fill(_ db: Database) throws {
        try db.write {
            for i in 0..<300 {
                db.add(Person(id: i, name: "person \(i)", email: i == 150 ? Self.secret : "p\(i)@x", dogs: [Dog(name: "dog \(i)")]))
            }
        }
    }

    private func fileContainsSecret(_ url: URL) throws -> Bool {
        try Data(contentsOf: url).range(of: Data(Self.secret.utf8)) != nil
    }

    private func checkContent(_ db: Database, file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(db.objects(Person.self).count, 300, file: file, line: line)
        let found = try db.objects(Person.self).filter("email == %@", Self.secret)
        XCTAssertEqual(found.map(\.id), [150], "the index finds the object", file: file, line: line)
        let person = try XCTUnwrap(db.object(ofType: Person.self, forPrimaryKey: 42), file: file, line: line)
        XCTAssertEqual(person.dogs.first?.owners.first?.id, 42, "backlinks", file: file, line: line)
    }

    func testAnEncryptedDatabaseKeepsItsDataAndNoClearTextOnDisk() throws {
        configuration.encryptionKey = Self.key
        do {
            let db = try openDatabase()
            try fill(db)
            try checkContent(db)
            db.invalidate()
        }
        XCTAssertFalse(try fileContainsSecret(configuration.fileURL))
        let reopened = try openDatabase()
        try checkContent(reopened)
    }

    func testTheSameDataInAClearFileIsReadable() throws {
        // The control for the test above: without a key, the text is in the file.
        do {
            let db = try openDatabase()
            try fill(db)
            db.invalidate()
        }
        XCTAssertTrue(try fileContainsSecret(configuration.fileURL))
    }

    func testAWrongOrMissingKeyIsAClearErrorAndLosesNothing() throws {
        configuration.encryptionKey = Self.key
        do {
            let db = try openDatabase()
            try fill(db)
            db.invalidate()
        }
        for (key, expected) in [(Self.otherKey, "not the key"), (nil, "the file is encrypted")] as [(Data?, String)] {
            var wrong = configuration!
            wrong.encryptionKey = key
            XCTAssertThrowsError(try Database(configuration: wrong)) { error in
                guard case let .wrongEncryptionKey(path, detail) = error as? StrataError else {
                    return XCTFail("expected wrongEncryptionKey, got \(error)")
                }
                XCTAssertEqual(path, self.configuration.fileURL.path)
                XCTAssertTrue(detail.contains(expected), detail)
            }
        }
        var short = configuration!
        short.encryptionKey = Data(repeating: 1, count: 16)
        XCTAssertThrowsError(try Database(configuration: short)) { error in
            XCTAssertTrue("\(error)".contains("64 bytes"), "\(error)")
        }
        try checkContent(try openDatabase())
    }

    func testWriteCopyEncryptsChangesTheKeyAndDecrypts() throws {
        let clear = try openDatabase()
        try fill(clear)
        let encryptedURL = directory.url.appendingPathComponent("encrypted.strata")
        try clear.writeCopy(to: encryptedURL, encryptionKey: Self.key)
        XCTAssertFalse(try fileContainsSecret(encryptedURL))

        var encrypted = configuration!
        encrypted.fileURL = encryptedURL
        XCTAssertThrowsError(try Database(configuration: encrypted), "no key")
        encrypted.encryptionKey = Self.key
        let first = try Database(configuration: encrypted)
        try checkContent(first)

        // writeCopy(to:) keeps the database's key; writeCopy(to:encryptionKey:) sets another or none.
        let sameKeyURL = directory.url.appendingPathComponent("same-key.strata")
        try first.writeCopy(to: sameKeyURL)
        let rekeyedURL = directory.url.appendingPathComponent("rekeyed.strata")
        try first.writeCopy(to: rekeyedURL, encryptionKey: Self.otherKey)
        let decryptedURL = directory.url.appendingPathComponent("decrypted.strata")
        try first.writeCopy(to: decryptedURL, encryptionKey: nil)

        for (url, key) in [(sameKeyURL, Self.key), (rekeyedURL, Self.otherKey), (decryptedURL, nil)] as [(URL, Data?)] {
            var copy = configuration!
            copy.fileURL = url
            copy.encryptionKey = key
            try checkContent(try Database(configuration: copy))
            XCTAssertEqual(try fileContainsSecret(url), key == nil, url.lastPathComponent)
        }
    }

    func testCompactingAnEncryptedFileOnLaunchKeepsItEncrypted() throws {
        configuration.encryptionKey = Self.key
        do {
            let db = try openDatabase()
            try fill(db)
            try db.write { db.delete(try db.objects(Person.self).filter("id >= 200")) }
            db.invalidate()
        }
        configuration.shouldCompactOnLaunch = { _, _ in true }
        let db = try openDatabase()
        XCTAssertEqual(db.objects(Person.self).count, 200)
        XCTAssertEqual(try db.objects(Person.self).filter("email == %@", Self.secret).count, 1)
        db.invalidate()
        XCTAssertFalse(try fileContainsSecret(configuration.fileURL))
        var noKey = configuration!
        noKey.encryptionKey = nil
        noKey.shouldCompactOnLaunch = nil
        XCTAssertThrowsError(try Database(configuration: noKey))
    }
}
