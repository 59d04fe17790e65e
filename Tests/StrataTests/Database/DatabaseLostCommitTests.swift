import Foundation
import StrataStorage
import StrataTestSupport
import XCTest

@testable import Strata

/// A committed write found damaged at the next open is an error (`StrataError.lostCommit`), in a copy of the file
/// without its lock file too, unless the app opts in with `Configuration.acceptsLostCommits`, and then `fileStatus` names both versions; a compacted copy
/// (`Database.writeCopy`, `strata compact`) with a damaged byte opens with all its data or not at all, never empty.
final class DatabaseLostCommitTests: DatabaseTestCase {
    static let key = Data((0..<64).map { UInt8(truncatingIfNeeded: $0 &* 23 &+ 5) })

    private func fill(_ db: Database) throws {
        try db.write { for i in 0..<300 { db.add(Person(id: i, name: "p\(i)", dogs: [Dog(name: "d\(i)")])) } }
    }

    /// The newest meta slot of the file in `bytes`: its byte offset, version and root page (read from the slot's
    /// bytes, docs/FILE-FORMAT.md: version at +8, root at +16).
    private func newestSlot(in bytes: [UInt8]) -> (offset: Int, version: UInt64, root: Int) {
        func u64(_ offset: Int) -> UInt64 { (0..<8).reduce(0) { $0 | UInt64(bytes[offset + $1]) << (8 * $1) } }
        let offset = [512, 1024].max { u64($0 + 8) < u64($1 + 8) }!
        // The root reference keeps its page in the low 40 bits (the high bits tag the version that wrote it).
        return (offset, u64(offset + 8), Int(u64(offset + 16) & (1 << 40 - 1)))
    }

    func testADamagedCommittedWriteIsAnErrorUnlessTheLossIsAccepted() throws {
        configuration.durability = .full
        for key in [nil, Self.key] {
            let name = key == nil ? "clear.strata" : "encrypted.strata"
            configuration.fileURL = directory.url.appendingPathComponent(name)
            configuration.encryptionKey = key
            configuration.acceptsLostCommits = false
            do {
                let db = try openDatabase()
                try fill(db)
                try db.write { db.add(Person(id: 1000, name: "the last write")) }
                db.invalidate()
            }
            // A flipped byte in the newest commit's root node, found after the app was told it was committed (the
            // lock file, left as a normal close leaves it, recorded it as durable).
            var bytes = [UInt8](try Data(contentsOf: configuration.fileURL))
            let newest = newestSlot(in: bytes)
            bytes[newest.root * 4096 + 32] ^= 0x10
            try Data(bytes).write(to: configuration.fileURL)

            XCTAssertThrowsError(try openDatabase(), name) { error in
                guard case let StrataError.lostCommit(path, lostVersion, openableVersion, _) = error else {
                    return XCTFail("\(name): expected lostCommit, got \(error)")
                }
                XCTAssertTrue(path.hasSuffix(name), path)
                XCTAssertEqual(lostVersion, newest.version)
                XCTAssertEqual(openableVersion, newest.version - 1)
                XCTAssertTrue("\(error)".contains("acceptsLostCommits"), "\(error)")
            }
            // The same bytes copied without the lock file (a backup, a file sent elsewhere): the data file's own
            // record of the last synced version (docs/FILE-FORMAT.md, "Acknowledged slot") refuses it the same way.
            var copied = configuration!
            copied.fileURL = directory.url.appendingPathComponent("copy-\(name)")
            try Data(bytes).write(to: copied.fileURL)
            XCTAssertThrowsError(try Database(configuration: copied), "\(name), copied") { error in
                guard case let StrataError.lostCommit(_, lostVersion, _, _) = error else {
                    return XCTFail("\(name), copied: expected lostCommit, got \(error)")
                }
                XCTAssertEqual(lostVersion, newest.version)
            }

            configuration.acceptsLostCommits = true
            do {
                let db = try openDatabase()
                let recovery = try XCTUnwrap(try db.fileStatus.openRecovery, name)
                XCTAssertEqual(recovery.openedVersion, newest.version - 1)
                XCTAssertEqual(recovery.rejectedVersion, newest.version)
                XCTAssertEqual(recovery.acknowledgedVersion, newest.version)
                XCTAssertTrue(recovery.lostAcknowledgedCommit)
                XCTAssertEqual(try db.verify().openRecovery, recovery)
                XCTAssertEqual(db.objects(Person.self).count, 300, "the version before the lost write")
                XCTAssertNil(db.object(ofType: Person.self, forPrimaryKey: 1000))
                db.invalidate()
            }
        }
    }

    /// Page 0 put back as it was one write earlier (a disk that lost the write of the newest meta slot after its
    /// sync returned): the lock file, left as a normal close leaves it, names the lost version, whose pages are all in
    /// the file, so the open writes its slot again and the last write is there, clear and encrypted.
    func testAPageZeroThatLostTheLastWriteIsRestoredFromTheLockFile() throws {
        configuration.durability = .full
        for key in [nil, Self.key] {
            let name = key == nil ? "page0-clear.strata" : "page0-encrypted.strata"
            configuration.fileURL = directory.url.appendingPathComponent(name)
            configuration.encryptionKey = key
            var pageZero = Data()
            do {
                let db = try openDatabase()
                try fill(db)
                pageZero = try Data(contentsOf: configuration.fileURL).prefix(4096)
                try db.write { db.add(Person(id: 1000, name: "the last write")) }
                db.invalidate()
            }
            var bytes = try Data(contentsOf: configuration.fileURL)
            let newest = newestSlot(in: [UInt8](bytes))
            bytes.replaceSubrange(0..<4096, with: pageZero)
            XCTAssertLessThan(newestSlot(in: [UInt8](bytes)).version, newest.version, "\(name): the slot is lost")
            try bytes.write(to: configuration.fileURL)

            let db = try openDatabase()
            XCTAssertNil(try db.fileStatus.openRecovery, name)
            XCTAssertEqual(db.object(ofType: Person.self, forPrimaryKey: 1000)?.name, "the last write", name)
            XCTAssertEqual(db.objects(Person.self).count, 301, name)
            XCTAssertNoThrow(try db.verify(), name)
            db.invalidate()
            XCTAssertEqual(
                newestSlot(in: [UInt8](try Data(contentsOf: configuration.fileURL))).version, newest.version,
                "\(name): the slot is written again")
        }
    }

    func testACompactedCopyWithADamagedByteNeverOpensEmpty() throws {
        let db = try openDatabase()
        try fill(db)
        let written = directory.url.appendingPathComponent("written.strata")
        try db.writeCopy(to: written)
        let compacted = directory.url.appendingPathComponent("compacted.strata")
        let strata = try BuiltExecutable(named: "strata")
        let compact = try strata.run(["compact", configuration.fileURL.path, compacted.path])
        XCTAssertEqual(compact.status, 0, compact.errorOutput)

        for copy in [written, compacted] {
            let pristine = [UInt8](try Data(contentsOf: copy))
            let newest = newestSlot(in: pristine)
            // The newest meta slot, then the first payload byte of every page.
            let offsets = [newest.offset + 20] + stride(from: 4096, to: pristine.count, by: 4096).map { $0 + 32 }
            for (index, offset) in offsets.enumerated() {
                var image = pristine
                image[offset] ^= 0x10
                let damaged = directory.url.appendingPathComponent("damaged-\(copy.lastPathComponent)-\(index)")
                try Data(image).write(to: damaged)
                var damagedConfiguration = configuration!
                damagedConfiguration.fileURL = damaged
                let label = "\(copy.lastPathComponent), byte \(offset) flipped"
                do {
                    let opened = try Database(configuration: damagedConfiguration)
                    let report = try opened.verify()
                    XCTAssertEqual(report.objects, 600, "\(label): opened without its data")
                    XCTAssertEqual(opened.objects(Person.self).count, 300, label)
                    if index == 0 { XCTAssertNotNil(report.openRecovery, "\(label): the fallback is reported") }
                } catch {
                    XCTAssertTrue(error is StrataError, "\(label): \(error)")
                }
            }

            // `strata verify` and `strata info` on the copy with its newest meta slot damaged: all the data, and
            // a warning that the newest commit was passed over.
            var image = pristine
            image[newest.offset + 20] ^= 0x10
            let damaged = directory.url.appendingPathComponent("slot-\(copy.lastPathComponent)")
            try Data(image).write(to: damaged)
            let verify = try strata.run(["verify", damaged.path])
            XCTAssertEqual(verify.status, 0, verify.errorOutput)
            XCTAssertTrue(verify.output.contains("600 object(s)"), verify.output)
            XCTAssertTrue(verify.output.contains("WARNING"), verify.output)
            let info = try strata.run(["info", damaged.path])
            XCTAssertTrue(info.output.contains("Person: 300 object(s)"), info.output + info.errorOutput)
            XCTAssertTrue(info.output.contains("WARNING"), info.output)
        }
    }
}
