import Foundation
import StrataStorage
import StrataStudio
import StrataTestSupport
import XCTest

/// Files the studio cannot read and input it must refuse: an error on the page, nothing written.
final class StudioBadInputTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var path: String { directory.url.appendingPathComponent("town.strata").path }
    private let key = (0..<64).map { UInt8($0 * 3 & 0xFF) }

    override func setUp() {
        directory = try? TemporaryDirectory(prefix: "strata-studio")
    }

    override func tearDown() {
        directory = nil
    }

    func testAnEncryptedFileWithoutItsKeyShowsTheErrorAndWritesNothing() async throws {
        try StudioFixture.write(at: path, key: key)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        try await LiveStudio.with(StudioConfiguration(path: path)) { studio in
            XCTAssertNotNil(studio.server.database.openError)
            let status = try await studio.request("/api/status")
            XCTAssertEqual(status.status, 500)
            let message = try status.json()["error"] as? String ?? ""
            XCTAssertTrue(message.contains("cannot open") && message.lowercased().contains("key"), message)
            let page = try await studio.request("/")
            XCTAssertEqual(page.status, 200, "the page still loads, to show the error")
            let edit = try await studio.post(
                "/api/set", ["model": "Person", "key": 1, "property": "name", "value": "X"])
            XCTAssertEqual(edit.status, 500)
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before)
        try await LiveStudio.with(StudioConfiguration(path: path, encryptionKey: key)) { studio in
            let page = try await studio.get("/api/objects", ["model": "Person"])
            XCTAssertEqual(page.status, 200, page.text)
            XCTAssertEqual(try page.json()["total"] as? Int, 3)
            let status = try await studio.request("/api/status").json()
            XCTAssertEqual(status["encrypted"] as? Bool, true)
        }
    }

    func testADamagedFileShowsTheErrorAndWritesNothing() async throws {
        try StudioFixture.write(at: path, extraPeople: 400)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        // Every page after the header pages becomes noise: the catalog, the clusters and the indexes.
        let pageSize = 4096
        for offset in stride(from: 2 * pageSize, to: bytes.count, by: 1) {
            bytes[offset] = UInt8(truncatingIfNeeded: offset &* 31)
        }
        try bytes.write(to: URL(fileURLWithPath: path))
        try await LiveStudio.with(StudioConfiguration(path: path)) { studio in
            let status = try await studio.request("/api/status")
            XCTAssertEqual(status.status, 500, status.text)
            XCTAssertFalse((try status.json()["error"] as? String ?? "").isEmpty)
            let page = try await studio.get("/api/objects", ["model": "Person"])
            XCTAssertGreaterThanOrEqual(page.status, 400)
            let edit = try await studio.post(
                "/api/set", ["model": "Person", "key": 1, "property": "name", "value": "X"])
            XCTAssertGreaterThanOrEqual(edit.status, 400)
            let insert = try await studio.post("/api/insert", ["model": "Pet", "object": ["name": "Y"]])
            XCTAssertGreaterThanOrEqual(insert.status, 400)
        }
        XCTAssertEqual(
            try Data(contentsOf: URL(fileURLWithPath: path)), bytes, "nothing was written to the damaged file")
    }

    func testAMissingFileIsReportedNotCreated() async throws {
        try await LiveStudio.with(StudioConfiguration(path: path)) { studio in
            let status = try await studio.request("/api/status")
            XCTAssertEqual(status.status, 500)
            XCTAssertTrue(status.text.contains("no database exists"), status.text)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: path))
    }

    func testMalformedRequestsAreRefused() async throws {
        try StudioFixture.write(at: path)
        try await LiveStudio.with(StudioConfiguration(path: path)) { studio in
            let before = try await studio.request("/api/status").json()["version"] as? Int
            let notJSON = try await studio.request("/api/set", method: "POST", body: Data("name=X".utf8))
            XCTAssertEqual(notJSON.status, 400)
            XCTAssertTrue(notJSON.text.contains("not JSON"), notJSON.text)
            let noObject = try await studio.post(
                "/api/set", ["model": "Person", "key": 999, "property": "name", "value": "X"])
            XCTAssertEqual(noObject.status, 404)
            let computed = try await studio.post(
                "/api/set", ["model": "Person", "key": 1, "property": "nope", "value": 1])
            XCTAssertEqual(computed.status, 400)
            let badOffset = try await studio.get("/api/objects", ["model": "Person", "offset": "-1"])
            XCTAssertEqual(badOffset.status, 400)
            let unfinished = try await studio.get("/api/objects", ["model": "Person", "filter": "name == 'Ada"])
            XCTAssertEqual(unfinished.status, 400)
            XCTAssertNotNil(try unfinished.json()["offset"] as? Int)
            let status = try await studio.request("/api/status").json()
            XCTAssertEqual(status["version"] as? Int, before, "nothing was written")
        }
    }
}
