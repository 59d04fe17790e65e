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
