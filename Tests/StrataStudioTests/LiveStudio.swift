import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import StrataStudio
import XCTest

/// A studio serving a file on a free loopback port for the length of a test, and an HTTP client for it.
final class LiveStudio: @unchecked Sendable {
    let server: StudioServer
    let port: Int
    private let task: Task<Void, Error>

    /// Starts serving `configuration`; returns once the server listens.
    init(_ configuration: StudioConfiguration) async throws {
        server = try StudioServer(configuration: configuration)
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let server = self.server
        task = Task { try await server.run { port in continuation.yield(port) } }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else { throw StudioError(500, "the server did not start") }
        self.port = port
    }

    /// Stops the server and closes the file.
    func stop() async {
        await server.stop()
        _ = await task.result
        server.close()
    }

    /// The page's address with the token.
    var address: String { server.address(port: port) }

    /// An answer: status, body bytes and headers.
    struct Answer {
        let status: Int
        let body: Data
        let headers: [AnyHashable: Any]

        /// The body as text.
        var text: String { String(decoding: body, as: UTF8.self) }

        /// The body as a JSON object.
        func json(file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
            let object = try JSONSerialization.jsonObject(with: body)
            return try XCTUnwrap(object as? [String: Any], "not a JSON object: \(text)", file: file, line: line)
        }
    }

    /// Sends a request for `path` (with the token in the header unless `token` is false).
    func request(
        _ path: String, method: String = "GET", body: Data? = nil, token: Bool = true, headers: [String: String] = [:]
    ) async throws -> Answer {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
        request.httpMethod = method
        request.httpBody = body
        if token { request.setValue(server.token.value, forHTTPHeaderField: AccessToken.header) }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = try XCTUnwrap(response as? HTTPURLResponse)
        return Answer(status: http.statusCode, body: data, headers: http.allHeaderFields)
    }

    /// A GET of `path` with `query` (percent-encoded here).
    func get(_ path: String, _ query: [String: String]) async throws -> Answer {
        var components = URLComponents()
        components.queryItems = query.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
        let encoded = (components.percentEncodedQuery ?? "").replacingOccurrences(of: "+", with: "%2B")
        return try await request(path + "?" + encoded)
    }

    /// A POST of `object` as JSON to `path`.
    func post(_ path: String, _ object: [String: Any]) async throws -> Answer {
        try await request(path, method: "POST", body: try JSONSerialization.data(withJSONObject: object))
    }
}

extension LiveStudio {
    /// Runs `body` with a studio serving `configuration`, stopping it afterwards whether `body` threw or not.
    static func with(
        _ configuration: StudioConfiguration, _ body: (LiveStudio) async throws -> Void
    ) async throws {
        let studio = try await LiveStudio(configuration)
        do {
            try await body(studio)
        } catch {
            await studio.stop()
            throw error
        }
        await studio.stop()
    }
}
