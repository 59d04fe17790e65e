import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import StrataStudio
import StrataTestSupport
import XCTest

/// The studio's security model: the token on every request, the loopback interface only, and `--read-only`.
final class StudioSecurityTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var path: String { directory.url.appendingPathComponent("town.strata").path }

    override func setUp() async throws {
        directory = try TemporaryDirectory(prefix: "strata-studio")
        try StudioFixture.write(at: path)
    }

    override func tearDown() {
        directory = nil
    }

    func testEveryRequestWithoutTheTokenIsRefused() async throws {
        try await LiveStudio.with(StudioConfiguration(path: path)) { studio in
            let before = try await studio.request("/api/status").json()["version"] as? Int
            let paths = [
                "/", "/studio.js", "/api/status", "/api/objects?model=Person", "/api/events",
                "/api/export?model=Person",
            ]
            for path in paths {
                let answer = try await studio.request(path, token: false)
                XCTAssertEqual(answer.status, 401, path)
                XCTAssertFalse(answer.text.contains("Ada"), path)
            }
            let edit = try await studio.request(
                "/api/set", method: "POST",
                body: Data(#"{"model":"Person","key":1,"property":"name","value":"X"}"#.utf8),
                token: false)
            XCTAssertEqual(edit.status, 401)
            let wrong = try await studio.request(
                "/api/status", token: false, headers: [AccessToken.header: String(repeating: "0", count: 64)])
            XCTAssertEqual(wrong.status, 401)
            let wrongCookie = try await studio.request(
                "/api/status", token: false,
                headers: ["Cookie": "\(AccessToken.cookie)=\(String(repeating: "a", count: 64))"])
            XCTAssertEqual(wrongCookie.status, 401)
            let status = try await studio.request("/api/status").json()
            XCTAssertEqual(status["version"] as? Int, before, "the refused edit wrote nothing")
        }
    }

    func testTheAddressCarriesTheTokenAndTheFirstLoadSetsACookie() async throws {
        try await LiveStudio.with(StudioConfiguration(path: path)) { studio in
            let token = studio.server.token.value
            XCTAssertEqual(token.count, 64)
            XCTAssertTrue(token.allSatisfy(\.isHexDigit))
            XCTAssertNotEqual(token, AccessToken().value, "each server draws a new token")
            XCTAssertEqual(studio.address, "http://127.0.0.1:\(studio.port)/?token=\(token)")
            let first = try await studio.request("/?token=\(token)", token: false)
            XCTAssertEqual(first.status, 200)
            let cookie = try XCTUnwrap(first.headers["Set-Cookie"] as? String)
            XCTAssertTrue(cookie.hasPrefix("\(AccessToken.cookie)=\(token)"), cookie)
            XCTAssertTrue(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"), cookie)
            let byCookie = try await studio.request(
                "/api/status", token: false, headers: ["Cookie": "\(AccessToken.cookie)=\(token)"])
            XCTAssertEqual(byCookie.status, 200)
        }
    }

    func testTheServerRefusesToListenBeyondLoopback() throws {
        for host in ["0.0.0.0", "::", "192.168.1.10", "example.org", "localhost.example.org"] {
            XCTAssertThrowsError(try StudioServer(configuration: StudioConfiguration(path: path, host: host)), host) {
                XCTAssertTrue("\($0)".contains("loopback"), "\($0)")
            }
        }
        XCTAssertNoThrow(try StudioServer(configuration: StudioConfiguration(path: path, host: "127.0.0.1")))
    }

    func testOtherInterfacesCannotConnect() async throws {
        try await LiveStudio.with(StudioConfiguration(path: path)) { studio in
            let addresses = NetworkInterfaces.nonLoopbackIPv4()
            guard !addresses.isEmpty else { throw XCTSkip("this machine has no non-loopback IPv4 address to try") }
            for address in addresses {
                XCTAssertFalse(
                    NetworkInterfaces.canConnect(to: address, port: studio.port),
                    "the studio answered on \(address):\(studio.port)")
            }
            XCTAssertTrue(NetworkInterfaces.canConnect(to: "127.0.0.1", port: studio.port))
        }
    }

    func testReadOnlyRefusesEveryEdit() async throws {
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let studio = try await LiveStudio(StudioConfiguration(path: path, readOnly: true))
        let set = try await studio.post("/api/set", ["model": "Person", "key": 1, "property": "name", "value": "X"])
        XCTAssertEqual(set.status, 403)
        XCTAssertTrue(set.text.contains("read-only"), set.text)
        let insert = try await studio.post("/api/insert", ["model": "Pet", "object": ["name": "Y"]])
        XCTAssertEqual(insert.status, 403)
        let delete = try await studio.post("/api/delete", ["model": "Pet", "key": 0])
        XCTAssertEqual(delete.status, 403)
        let imported = try await studio.request("/api/import?model=Pet", method: "POST", body: Data("[]".utf8))
        XCTAssertEqual(imported.status, 403)
        let status = try await studio.request("/api/status").json()
        XCTAssertEqual(status["readOnly"] as? Bool, true)
        await studio.stop()
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before)
    }
}
