import Foundation
import StrataTestSupport
import XCTest

@testable import Strata

/// The `strata` inspector on real files: a healthy one, and one with a damaged page.
final class StrataCommandTests: DatabaseTestCase {
    private func fill() throws {
        let db = try openDatabase()
        try db.write { for i in 0..<300 { db.add(Person(id: i, name: "p\(i)", dogs: [Dog(name: "d\(i)")])) } }
        XCTAssertEqual(try db.verify().objects, 600)
    }

    func testVerifyInfoAndCompactOnAHealthyFile() throws {
        try fill()
        let strata = try BuiltExecutable(named: "strata")
        let path = configuration.fileURL.path
        let verify = try strata.run(["verify", path])
        XCTAssertEqual(verify.status, 0, verify.errorOutput)
        XCTAssertTrue(verify.output.contains("OK:"), verify.output)
        XCTAssertTrue(verify.output.contains("600 object(s)"), verify.output)
        let info = try strata.run(["info", path])
        XCTAssertTrue(info.output.contains("Person: 300 object(s)"), info.output)
        let copy = directory.url.appendingPathComponent("copy.strata").path
        let compact = try strata.run(["compact", path, copy])
        XCTAssertEqual(compact.status, 0, compact.errorOutput)
        XCTAssertEqual(try strata.run(["verify", copy]).status, 0)
    }

    /// `info` names the new column kinds; `verify` and `compact` check and copy them (typed links included).
    func testInfoShowsDecimalObjectIdAndAnyColumns() throws {
        configuration = Configuration(schema: Wallet.self)
            .scratch(at: directory.url.appendingPathComponent("wallet.strata"))
        let db = try openDatabase()
        try db.write {
            let account = Account(owner: "Ana", balance: Decimal(string: "10.25")!, tag: .string("vip"))
            db.add(Memo(text: "m", about: .object(account)))
        }
        let strata = try BuiltExecutable(named: "strata")
        let path = configuration.fileURL.path
        let info = try strata.run(["info", path])
        XCTAssertEqual(info.status, 0, info.errorOutput)
        for column in ["id: objectId", "balance: decimal", "limit: decimal?", "ref: objectId?", "tag: any?", "extras: [any]",
                       "ids: [objectId]", "about: any?"] {
            XCTAssertTrue(info.output.contains(column), "'\(column)' missing from: \(info.output)")
        }
        XCTAssertEqual(try strata.run(["verify", path]).status, 0)
        let copy = directory.url.appendingPathComponent("copy.strata").path
        XCTAssertEqual(try strata.run(["compact", path, copy]).status, 0)
        XCTAssertEqual(try strata.run(["verify", copy]).status, 0)
    }

    /// `info` names set and map columns with their element kinds (`map<any?>` is `map<any>`); `verify` and
    /// `compact` check and copy them, links inside `any` elements included.
    func testInfoShowsSetAndMapColumnsOfTheNewKinds() throws {
        configuration = Configuration(schema: Ledger.self)
            .scratch(at: directory.url.appendingPathComponent("ledger.strata"))
        let db = try openDatabase()
        try db.write {
            let gem = Gem(name: "ruby")
            db.add(Pouch(id: 1, coins: [1, 2], charms: [.int(1), .object(gem), .none], extras: ["gem": .object(gem)]))
        }
        let strata = try BuiltExecutable(named: "strata")
        let path = configuration.fileURL.path
        let info = try strata.run(["info", path])
        XCTAssertEqual(info.status, 0, info.errorOutput)
        for column in ["coins: set<decimal>", "seals: set<objectId>", "charms: set<any>", "prices: map<decimal>",
                       "stamps: map<objectId>", "extras: map<any>"] {
            XCTAssertTrue(info.output.contains(column), "'\(column)' missing from: \(info.output)")
        }
        XCTAssertEqual(try strata.run(["verify", path]).status, 0)
        let copy = directory.url.appendingPathComponent("copy.strata").path
        XCTAssertEqual(try strata.run(["compact", path, copy]).status, 0)
        let verified = try strata.run(["verify", copy])
        XCTAssertEqual(verified.status, 0, verified.errorOutput)
        XCTAssertTrue(verified.output.contains("2 object(s)"), "a pouch and a gem: \(verified.output)")
    }

    func testAnEncryptedFileNeedsItsKeyFile() throws {
        let key = Data((0..<64).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 1) })
        configuration.encryptionKey = key
        try fill()
        let strata = try BuiltExecutable(named: "strata")
        let path = configuration.fileURL.path
        let refused = try strata.run(["verify", path])
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertTrue(refused.errorOutput.contains("encrypted"), refused.errorOutput)

        let hexFile = directory.url.appendingPathComponent("key.hex")
        try Data(key.map { String(format: "%02x", $0) }.joined().utf8).write(to: hexFile)
        let rawFile = directory.url.appendingPathComponent("key.bin")
        try key.write(to: rawFile)
        for keyFile in [hexFile.path, rawFile.path] {
            let verify = try strata.run(["verify", path, "--key-file", keyFile])
            XCTAssertEqual(verify.status, 0, verify.errorOutput)
            XCTAssertTrue(verify.output.contains("600 object(s)"), verify.output)
        }
        let copy = directory.url.appendingPathComponent("copy.strata").path
        XCTAssertEqual(try strata.run(["compact", path, copy, "--key-file", hexFile.path]).status, 0)
        XCTAssertNotEqual(try strata.run(["info", copy]).status, 0, "the compacted copy is encrypted too")
        let info = try strata.run(["info", copy, "--key-file", rawFile.path])
        XCTAssertTrue(info.output.contains("Person: 300 object(s)"), info.output + info.errorOutput)
        XCTAssertTrue(info.output.contains("encrypted (AES-256-CTR and HMAC-SHA256 per node)"), info.output)

        let badFile = directory.url.appendingPathComponent("bad.key")
        try Data("not a key".utf8).write(to: badFile)
        let bad = try strata.run(["verify", path, "--key-file", badFile.path])
        XCTAssertNotEqual(bad.status, 0)
        XCTAssertTrue(bad.errorOutput.contains("128 hexadecimal digits"), bad.errorOutput)
    }

    /// A compaction that fails half way (here: its disk fills up; a real 64 KiB tmpfs, root only, skipped
    /// elsewhere) leaves no half-made copy behind, and says why.
    func testACompactionThatFailsLeavesNoCopy() throws {
        guard let disk = try SmallFileSystem(kilobytes: 64) else {
            throw XCTSkip("mounting a tmpfs needs root: a compaction onto a full disk is not checked here")
        }
        let db = try openDatabase()
        try db.write { for i in 0..<3000 { db.add(Person(id: i, name: "person \(i)", dogs: [Dog(name: "dog \(i)")])) } }
        let copy = disk.path + "/copy.strata"
        let outcome = try BuiltExecutable(named: "strata").run(["compact", configuration.fileURL.path, copy])
        XCTAssertFalse(outcome.wasSignalled, "compact crashed: \(outcome.errorOutput)")
        XCTAssertNotEqual(outcome.status, 0)
        XCTAssertTrue(outcome.errorOutput.contains("disk is full"), outcome.errorOutput)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: disk.path), [], "a half-made copy was left")
    }

    /// `strata compact` interrupted (Ctrl-C) at moments spread over its run leaves either no file at OUTPUT or a
    /// whole copy: never a store that opens, empty or half full, under the name the user asked for.
    func testAnInterruptedCompactionLeavesNoCopyOrAWholeOne() throws {
        let db = try openDatabase()
        try db.write { for i in 0..<20_000 { db.add(Person(id: i, name: "person \(i)")) } }
        let strata = try BuiltExecutable(named: "strata")
        let path = configuration.fileURL.path
        let started = Date()
        XCTAssertEqual(try strata.run(["compact", path, directory.url.appendingPathComponent("whole.strata").path]).status, 0)
        let duration = Date().timeIntervalSince(started)
        for round in 1...5 {
            let copy = directory.url.appendingPathComponent("copy\(round).strata").path
            let (process, _, _) = try strata.start(["compact", path, copy])
            Thread.sleep(forTimeInterval: duration * Double(round) / 6)
            kill(process.processIdentifier, SIGINT)
            process.waitUntilExit()
            guard FileManager.default.fileExists(atPath: copy) else { continue }
            let info = try strata.run(["info", copy])
            XCTAssertTrue(info.output.contains("Person: 20000 object(s)"), "round \(round): \(info.output)\(info.errorOutput)")
        }
    }

    func testVerifyReportsADamagedPageWithoutCrashing() throws {
        try fill()
        let path = configuration.fileURL.path
        var bytes = try Data(contentsOf: configuration.fileURL)
        // Damage every page but the header's, one byte each, past the node headers.
        for page in stride(from: 4096, to: bytes.count, by: 4096) { bytes[page + 100] ^= 0xFF }
        try bytes.write(to: configuration.fileURL)
        let outcome = try BuiltExecutable(named: "strata").run(["verify", path])
        XCTAssertFalse(outcome.wasSignalled, "verify crashed: \(outcome.errorOutput)")
        XCTAssertNotEqual(outcome.status, 0)
        XCTAssertTrue(outcome.errorOutput.contains("damaged") || outcome.errorOutput.contains("checksum"), outcome.errorOutput)
    }
}
