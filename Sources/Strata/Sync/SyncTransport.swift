import Foundation
internal import StrataSyncWire

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The client's HTTP calls to the sync server (docs/SYNC.md, "Protocol"), over Foundation's URL loading.
final class SyncTransport: @unchecked Sendable {
    let server: URL
    private let session: URLSession

    init(server: URL) {
        self.server = server
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 90
        configuration.httpMaximumConnectionsPerHost = 4
        session = URLSession(configuration: configuration)
    }

    deinit { session.finishTasksAndInvalidate() }

    /// `POST /v1/upload`: returns the highest change number the server acknowledged and its log position.
    func upload(clientID: String, changes: [SyncChange], token: String) async throws -> UploadResponse {
        var request = URLRequest(url: server.appendingPathComponent("v1/upload"))
        request.httpMethod = "POST"
        request.httpBody = Data(UploadRequest(clientId: clientID, changes: changes).wireJSON)
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        let data = try await send(request, token: token)
        return try decode(UploadResponse.self, data, what: "upload")
    }

    /// `GET /v1/download?after=&wait=&limit=`.
    func download(after: Int64, wait: TimeInterval, limit: Int, token: String) async throws -> DownloadResponse {
        var components = URLComponents(
            url: server.appendingPathComponent("v1/download"), resolvingAgainstBaseURL: false)
        components?.queryItems = [
            URLQueryItem(name: "after", value: String(after)),
            URLQueryItem(name: "wait", value: String(Int(min(max(wait, 0), 60)))),
            URLQueryItem(name: "limit", value: String(limit)),
        ]
        guard let url = components?.url else {
            throw SyncError(status: nil, message: "cannot build a download URL from \(server)")
        }
        var request = URLRequest(url: url)
        request.timeoutInterval = wait + 30
        let data = try await send(request, token: token)
        return try decode(DownloadResponse.self, data, what: "download")
    }

    private func send(_ request: URLRequest, token: String) async throws -> Data {
        var request = request
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        let (data, status): (Data, Int)
        do {
            (data, status) = try await withCheckedThrowingContinuation { continuation in
                session.dataTask(with: request) { data, response, error in
                    if let error {
                        continuation.resume(throwing: error)
                    } else if let http = response as? HTTPURLResponse {
                        continuation.resume(returning: (data ?? Data(), http.statusCode))
                    } else {
                        continuation.resume(throwing: SyncError(status: nil, message: "no HTTP answer"))
                    }
                }.resume()
            }
        } catch let error as SyncError {
            throw SyncError(status: nil, message: "\(server.absoluteString): \(error.message)")
        } catch {
            throw SyncError(
                status: nil, message: "cannot reach \(server.absoluteString): \(error.localizedDescription)")
        }
        guard (200..<300).contains(status) else {
            let message =
                (try? JSONDecoder().decode(ServerErrorBody.self, from: data))?.error.message
                ?? String(decoding: data.prefix(300), as: UTF8.self)
            throw SyncError(status: status, message: message)
        }
        return data
    }

    /// Decodes an answer with the wire types' own reader (``WireJSONCodable``), not `JSONDecoder`.
    private func decode<T: WireJSONCodable>(_ type: T.Type, _ data: Data, what: String) throws -> T {
        do {
            return try T(wireJSON: data)
        } catch {
            throw SyncError(
                status: nil,
                message: "the server's \(what) answer does not decode (\(error)): "
                    + String(decoding: data.prefix(200), as: UTF8.self))
        }
    }
}
