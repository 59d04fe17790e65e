import Foundation
import StrataStudio
import StrataTestSupport
import XCTest

/// The page's live updates: a commit by another process reaches the event stream at once.
final class StudioLiveUpdateTests: XCTestCase {
    func testACommitByAnotherProcessReachesTheEventStream() async throws {
        let directory = try TemporaryDirectory(prefix: "strata-studio")
        let path = directory.url.appendingPathComponent("town.strata").path
        try StudioFixture.write(at: path)
        let json = directory.url.appendingPathComponent("pets.json")
        try Data(#"[{"name": "Luna"}]"#.utf8).write(to: json)
        let strata = try BuiltExecutable(named: "strata")
        try await LiveStudio.with(StudioConfiguration(path: path)) { studio in
            let status = try await studio.request("/api/status").json()
            let before = try XCTUnwrap(status["version"] as? Int)
            let events = try EventStreamReader(port: studio.port, token: studio.server.token.value)
            XCTAssertTrue(try events.read(until: "retry:", seconds: 10).contains("retry:"))
            let outcome = try strata.run(["import", path, "Pet", json.path])
            XCTAssertEqual(outcome.status, 0, outcome.errorOutput)
            let received = try events.read(until: "event: commit", seconds: 10)
            XCTAssertTrue(received.contains("event: commit\ndata: {\"version\": \(before + 1)}"), received)
            let page = try await studio.get("/api/objects", ["model": "Pet"]).json()
            XCTAssertEqual(page["total"] as? Int, 3, "the other process's object is visible at once")
        }
    }
}
