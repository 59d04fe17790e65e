import Foundation
import Hummingbird
import ServiceLifecycle
import Logging

/// The HTTP endpoints of docs/SYNC.md: `POST /v1/upload`, `GET /v1/download` (with long-poll), `GET /health`,
/// `GET /metrics`.
public struct SyncRoutes: Sendable {
    /// The storage.
    public let store: SyncStore
    /// The token check.
    public let verifier: TokenVerifier
    /// The counters.
    public let metrics: SyncMetrics
    /// How long a waiting download trusts `SyncStore.notifier` before it reads the log anyway (a safety net for
    /// an announcement missed while the `LISTEN` connection was down).
    public var recheckInterval: Duration
    /// How long a waiting download whose read was held back by an upload still committing waits for that upload's
    /// announcement before it reads again (the upload may have rolled back and announce nothing).
    public var heldBackRecheck: Duration = .milliseconds(20)
    /// The longest `wait` a download may ask for.
    public var maximumWait: Duration = .seconds(60)
    /// The most changes one download returns.
    public var pageSize = 1000

    /// Creates the endpoints.
    public init(
        store: SyncStore, verifier: TokenVerifier, metrics: SyncMetrics, recheckInterval: Duration = .seconds(1)
    ) {
        self.store = store
        self.verifier = verifier
        self.metrics = metrics
        self.recheckInterval = recheckInterval
    }

    /// A router with every endpoint.
    public func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.get("/health") { _, _ -> Response in
            do {
                try await store.ping()
                return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: "ok\n")))
            } catch {
                metrics.recordError(status: 503)
                return Response(
                    status: .serviceUnavailable, body: .init(byteBuffer: ByteBuffer(string: "PostgreSQL: \(error)\n")))
            }
        }
        router.get("/metrics") { _, _ -> Response in
            Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4"],
                body: .init(byteBuffer: ByteBuffer(string: metrics.exposition())))
        }
        router.post("/v1/upload") { request, context -> Response in
            try await refusingWithStatus {
                let user = try await verifier.user(authorization: request.headers[.authorization])
                let upload: UploadRequest
                do {
                    let body = try await request.body.collect(upTo: context.maxUploadSize)
                    upload = try UploadRequest(wireJSON: body.readableBytesView)
                } catch {
                    throw SyncError(.badRequest, "the body is not an upload batch (docs/SYNC.md): \(error)")
                }
                SyncTrace.note("upload received, \(Self.range(upload))", user: user)
                let response = try await store.upload(upload, user: user)
                SyncTrace.note("upload committed through \(response.serverSeq), \(Self.range(upload))", user: user)
                metrics.uploads.increment()
                if upload.after != nil { metrics.uploadsSentAhead.increment() }
                metrics.changesAccepted.increment(by: Int64(response.accepted))
                return Self.json(response)
            }
        }
        router.get("/v1/download") { request, _ -> Response in
            try await refusingWithStatus {
                let user = try await verifier.user(authorization: request.headers[.authorization])
                let query = request.uri.queryParameters
                let after = try Self.integer(query["after"].map(String.init) ?? "0", name: "after")
                let waitSeconds = try Self.integer(query["wait"].map(String.init) ?? "0", name: "wait")
                let limit = try Self.integer(query["limit"].map(String.init) ?? String(pageSize), name: "limit")
                let deadline = ContinuousClock.now + min(.seconds(waitSeconds), maximumWait)
                let pageLimit = Int(min(limit, 10_000))
                // The asking device's client id (optional; clients before it sent none): its own uploads do not wake
                // its long poll (`ChangeNotifier`).
                let client = try query["client"].map { try Self.clientID(String($0)) }
                // A long poll: read, and while there is nothing the user may see, wait for the next announcement
                // of the log growing (remembered before the read, so that a change committed in between still
                // wakes it). Entries the rules hide move the position on without answering: the answer comes
                // with the first change the user may see, or empty (with `last` past the hidden ones) at the
                // deadline. A read held back below the watermark by an upload still committing waits for the next
                // announcement to anyone instead (that upload's, whoever it is for), at most `heldBackRecheck`.
                var seen = (
                    user: store.notifier.generation(for: user, client: client), anyone: store.notifier.generation
                )
                var (response, heldBack) = try await store.downloadPage(after: after, user: user, limit: pageLimit)
                let waits = response.changes.isEmpty && ContinuousClock.now < deadline
                if waits { metrics.longPollsWaiting.increment() }
                defer { if waits { metrics.longPollsWaiting.decrement() } }
                // A server shutting down gracefully (SIGTERM, SIGINT) answers what it has at the next recheck
                // instead of holding the poll to its deadline, so that it stops within a recheck interval and
                // the device asks again (another process, or this one once restarted).
                while response.changes.isEmpty, ContinuousClock.now < deadline, !Task.isShuttingDownGracefully {
                    let left = deadline - ContinuousClock.now
                    if heldBack {
                        await store.notifier.wait(past: seen.anyone, timeout: min(heldBackRecheck, left))
                    } else {
                        await store.notifier.wait(
                            past: seen.user, for: user, client: client, timeout: min(recheckInterval, left))
                    }
                    SyncTrace.note("download woken", user: user)
                    seen = (
                        user: store.notifier.generation(for: user, client: client), anyone: store.notifier.generation
                    )
                    (response, heldBack) = try await store.downloadPage(
                        after: response.last, user: user, limit: pageLimit)
                }
                SyncTrace.note("download answers \(response.changes.count) changes", user: user)
                metrics.downloads.increment()
                metrics.changesDownloaded.increment(by: Int64(response.changes.count))
                return Self.json(response)
            }
        }
        return router
    }

    /// Runs `body`, turning a `SyncError` into its HTTP error and counting every failure.
    private func refusingWithStatus<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as SyncError {
            metrics.recordError(status: Int(error.status.code))
            throw error.httpError
        } catch where PostgresFailure.isUnavailable(error) {
            // PostgreSQL went away under the request (restarted, say): nothing of it committed that a retry would
            // repeat twice (uploads are idempotent), so the client is told to retry.
            metrics.recordError(status: 503)
            store.logger.warning("PostgreSQL unavailable", metadata: ["error": "\(String(reflecting: error))"])
            throw SyncError(.unavailable, "PostgreSQL is unavailable (\(error)); retry later").httpError
        } catch {
            if let reason = PostgresFailure.transientReason(error) {
                // Refused for now (a full lock table, say): nothing of it committed, so the client is told to retry.
                metrics.recordError(status: 503)
                store.logger.warning("PostgreSQL refused a request for now", metadata: ["reason": "\(reason)"])
                throw SyncError(.unavailable, "\(reason); retry later").httpError
            }
            metrics.recordError(status: 500)
            throw error
        }
    }

    /// A JSON answer written by the wire types' own writer (``WireJSONCodable``), not `JSONEncoder`.
    private static func json(_ value: some WireJSONCodable) -> Response {
        Response(
            status: .ok, headers: [.contentType: "application/json; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: value.wireJSON)))
    }

    /// The client's change numbers a batch carries, `first-last`, for the trace.
    private static func range(_ upload: UploadRequest) -> String {
        "\(upload.changes.first?.seq ?? 0)-\(upload.changes.last?.seq ?? 0)"
    }

    /// A download's `client` parameter: a client id as uploads name it (1 to 200 characters).
    private static func clientID(_ text: String) throws -> String {
        guard !text.isEmpty, text.count <= 200 else {
            throw SyncError(.badRequest, "query parameter 'client' must be a client id of 1 to 200 characters")
        }
        return text
    }

    private static func integer(_ text: String, name: String) throws -> Int64 {
        guard let value = Int64(text), value >= 0 else {
            throw SyncError(.badRequest, "query parameter '\(name)' must be a non-negative integer, not '\(text)'")
        }
        return value
    }
}
