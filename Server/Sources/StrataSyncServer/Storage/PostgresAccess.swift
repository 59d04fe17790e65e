import Logging
import PostgresNIO
import Synchronization

/// How requests reach PostgreSQL: connections from the pool, with a bounded wait for one.
///
/// While PostgreSQL is down or restarting, the pool keeps trying to connect (with its own backoff) and a request
/// waiting for a connection would wait until it succeeds. A request that gets no connection within `timeout`
/// fails instead with `SyncError.Kind.unavailable` (HTTP 503, which a client retries), and the request's place in
/// the pool's queue is given up. Once a connection is lent, the work runs as long as it needs: a large upload is
/// not cut short by the bound. Connections the pool lent that broke (PostgreSQL closed them) are dropped by the
/// pool; the work on them fails with PostgresNIO's error, which `PostgresFailure` classifies as unavailable too.
struct PostgresAccess: Sendable {
    /// The pool.
    let client: PostgresClient
    /// The longest wait for a connection.
    let timeout: Duration
    /// Where the work logs.
    let logger: Logger

    /// Runs `body` on a connection of the pool (in a transaction when it calls `Transaction.run(on:_:)`), failing
    /// with `SyncError.Kind.unavailable` if the connection closes before `body` is done (`ConnectionClosures`).
    /// - Throws: `SyncError` (`.unavailable`) when no connection comes within `timeout`; `body`'s errors.
    func withConnection<T: Sendable>(_ body: @escaping @Sendable (SQLSession) async throws -> T) async throws -> T {
        let (client, logger) = (self.client, self.logger)
        return try await bounded { lent in
            try await client.withConnection { connection in
                lent.set()
                return try await ConnectionClosures.shared.run(on: connection) {
                    try await body(SQLSession(connection: connection, logger: logger))
                }
            }
        }
    }

    /// Runs `work` beside a timer that fails the request when `work` has not been lent a connection by then.
    private func bounded<T: Sendable>(_ work: @escaping @Sendable (LentFlag) async throws -> T) async throws -> T {
        let lent = LentFlag()
        let timeout = self.timeout
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await work(lent) }
            group.addTask {
                try await Task.sleep(for: timeout)
                guard lent.isSet else {
                    throw SyncError(
                        .unavailable,
                        "PostgreSQL gave the server no connection within \(timeout) (down or restarting?); retry later")
                }
                return nil
            }
            defer { group.cancelAll() }
            while let next = try await group.next() {
                if let result = next { return result }
            }
            throw CancellationError()
        }
    }
}

/// Set once the pool lent the work its connection.
private final class LentFlag: Sendable {
    private let value = Mutex(false)

    var isSet: Bool { value.withLock { $0 } }

    func set() { value.withLock { $0 = true } }
}
