import Foundation
internal import StrataSyncWire

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The client's HTTP calls to the sync server (docs/SYNC.md, "Protocol"), over Foundation's URL loading.
///
/// Every request has a deadline proportionate to it (``SyncConfiguration/requestTimeout``, plus the long poll's
/// wait for a download and a little per change for an upload): a request the server does not answer by then is
/// cancelled and fails like an unreachable server, so the session retries it after its backoff instead of waiting
/// on a connection that went dead.
final class SyncTransport: @unchecked Sendable {
    let server: URL
    private let session: URLSession
    private let requestTimeout: TimeInterval

    init(server: URL, requestTimeout: TimeInterval) {
        self.server = server
        self.requestTimeout = max(1, requestTimeout)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 90
        configuration.httpMaximumConnectionsPerHost = 4
        session = URLSession(configuration: configuration)
    }

    deinit { session.finishTasksAndInvalidate() }

    /// `POST /v1/upload`: returns the highest change number the server acknowledged and its log position. With
    /// `after` (a batch sent ahead of the previous one's answer), the server applies it only after every change up
    /// to `after` (docs/SYNC.md, "Sending ahead").
    func upload(clientID: String, changes: [SyncChange], after: Int64? = nil, token: String) async throws
        -> UploadResponse
    {
        var request = URLRequest(url: server.appendingPathComponent("v1/upload"))
        request.httpMethod = "POST"
        request.httpBody = Data(UploadRequest(clientId: clientID, changes: changes, after: after).wireJSON)
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        // The server applies a batch in a fixed number of statements; rows still cost a little each.
        let data = try await send(request, token: token, timeout: requestTimeout + 0.002 * Double(changes.count))
        return try decode(UploadResponse.self, data, what: "upload")
    }

    /// `GET /v1/download?after=&wait=&limit=[&client=]`.
    func download(after: Int64, wait: TimeInterval, limit: Int, client: String?, token: String) async throws
        -> DownloadResponse
    {
        var components = URLComponents(
            url: server.appendingPathComponent("v1/download"), resolvingAgainstBaseURL: false)
        components?.queryItems = [
            URLQueryItem(name: "after", value: String(after)),
            URLQueryItem(name: "wait", value: String(Int(min(max(wait, 0), 60)))),
            URLQueryItem(name: "limit", value: String(limit)),
        ]
        // The device's client id: the server does not wake this long poll for the device's own uploads (a server
        // before it ignores the parameter and wakes it as before).
        if let client { components?.queryItems?.append(URLQueryItem(name: "client", value: client)) }
        guard let url = components?.url else {
            throw SyncError(status: nil, message: "cannot build a download URL from \(server)")
        }
        let data = try await send(URLRequest(url: url), token: token, timeout: wait + requestTimeout)
        return try decode(DownloadResponse.self, data, what: "download")
    }

    private func send(_ request: URLRequest, token: String, timeout: TimeInterval) async throws -> Data {
        var request = request
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        request.timeoutInterval = timeout
        let (data, status): (Data, Int)
        do {
            (data, status) = try await withCheckedThrowingContinuation { continuation in
                let answer = PendingAnswer(continuation)
                let task = session.dataTask(with: request) { data, response, error in
                    if let error {
                        answer.resume(.failure(error))
                    } else if let http = response as? HTTPURLResponse {
                        answer.resume(.success((data ?? Data(), http.statusCode)))
                    } else {
                        answer.resume(.failure(SyncError(status: nil, message: "no HTTP answer")))
                    }
                }
                task.resume()
                // The deadline is kept here, whatever the URL loading system does with timeoutInterval (an idle
                // timeout on some platforms) and with a cancelled task (whose handler may never run): the request
                // fails at the deadline, and the session retries it. An answer cancels the timer (a session sends
                // several requests a second; their timers would otherwise wait out their 15 s or more each).
                let deadline = DispatchWorkItem {
                    answer.resume(
                        .failure(SyncError(status: nil, message: "no answer within \(Int(timeout.rounded(.up))) s")))
                    task.cancel()
                }
                answer.setDeadline(deadline)
                DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: deadline)
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

/// The continuation of one request, resumed once: by the answer or by the deadline, whichever comes first; the
/// first cancels the deadline's timer.
private final class PendingAnswer: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<(Data, Int), any Error>?
    private var deadline: DispatchWorkItem?

    init(_ continuation: CheckedContinuation<(Data, Int), any Error>) { self.continuation = continuation }

    /// Keeps the deadline's timer, to cancel it at the answer (at once, when the answer came first).
    func setDeadline(_ timer: DispatchWorkItem) {
        let answered = lock.withLock { () -> Bool in
            guard continuation != nil else { return true }
            deadline = timer
            return false
        }
        if answered { timer.cancel() }
    }

    func resume(_ result: Result<(Data, Int), any Error>) {
        let (pending, timer) = lock.withLock {
            () -> (CheckedContinuation<(Data, Int), any Error>?, DispatchWorkItem?) in
            defer {
                continuation = nil
                deadline = nil
            }
            return (continuation, deadline)
        }
        timer?.cancel()
        pending?.resume(with: result)
    }
}
