import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import XCTest

@testable import StrataSyncServer

/// A sync server on a random loopback port in this process, over a migrated test schema.
struct HTTPHarness {
    let harness: StoreHarness
    let metrics = SyncMetrics()
    /// How long a waiting download trusts the notifier before it reads the log anyway (`SyncRoutes`).
    var recheckInterval: Duration = .seconds(1)

    /// The application serving `harness`'s store with the test key.
    func application() async -> some ApplicationProtocol {
        let routes = SyncRoutes(
            store: harness.store, verifier: await TokenVerifier(hmacKey: Fixtures.key), metrics: metrics,
            recheckInterval: recheckInterval)
        return Application(
            router: routes.router(), configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            logger: TestPostgres.logger)
    }
}

extension TestClientProtocol {
    /// Sends `body` (encoded as JSON) to `uri` with `token`, and returns the status and body text.
    func send(
        _ method: HTTPRequest.Method, _ uri: String, token: String?, json body: (any Encodable)? = nil
    ) async throws -> (status: HTTPResponse.Status, text: String) {
        var headers: HTTPFields = [.contentType: "application/json"]
        if let token { headers[.authorization] = "Bearer \(token)" }
        var buffer: ByteBuffer?
        if let body { buffer = ByteBuffer(bytes: Array(try JSONEncoder().encode(body))) }
        return try await execute(uri: uri, method: method, headers: headers, body: buffer) { response in
            (response.status, String(buffer: response.body))
        }
    }

    /// Decodes a JSON answer, failing with its text when it does not decode.
    func decode<T: Decodable>(_ type: T.Type, _ text: String) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(text.utf8))
    }
}
