import PostgresNIO
import Synchronization

/// Ends a query when its connection closes before the query reached the connection.
///
/// PostgresNIO 1.33 writes a query to its connection's channel without a write promise; when the channel has just
/// closed (PostgreSQL went away, or the network between), the write never reaches the connection's handler and the
/// query's promise is never completed, so `PostgresConnection.query` waits forever (vapor/postgres-nio#487 fixed
/// it and was reverted by #501). An upload that hit that window hung, and with it the HTTP server's graceful
/// shutdown, which waits for every request (SyncPostgresRestartTests). ``run(on:_:)`` races a request's use of a
/// lent connection (its transaction and the statements after it) with the connection's close: one close callback
/// per connection, registered the first time it is lent, and one waiter per lend in flight. (It raced each
/// statement once: an unstructured task and two turns of the lock per statement, seven per upload.)
final class ConnectionClosures: Sendable {
    /// The process's registry.
    static let shared = ConnectionClosures()

    private struct Watch {
        var waiters: [Int: @Sendable () -> Void] = [:]
    }

    private struct State {
        var watches: [ObjectIdentifier: Watch] = [:]
        var nextWaiter = 0
    }

    private let state = Mutex(State())

    /// Runs `query` (statements on `connection`) in a task of its own; fails with `SyncError.Kind.unavailable` when
    /// the connection closes first, leaving that task to end whenever PostgresNIO lets it.
    func run<T: Sendable>(
        on connection: PostgresConnection, _ query: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        guard !connection.isClosed else { throw Self.closed() }
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let once = Once(continuation)
            let id = watch(connection) { once.resume(with: .failure(Self.closed())) }
            Task {
                let result: Result<T, any Error>
                do { result = .success(try await query()) } catch { result = .failure(error) }
                self.unwatch(connection, waiter: id)
                once.resume(with: result)
            }
        }
    }

    /// Registers `waiter` to run when `connection` closes (at once, if it has); returns its id.
    private func watch(_ connection: PostgresConnection, waiter: @escaping @Sendable () -> Void) -> Int {
        let key = ObjectIdentifier(connection)
        let (id, first) = state.withLock { state -> (Int, Bool) in
            state.nextWaiter += 1
            let first = state.watches[key] == nil
            state.watches[key, default: Watch()].waiters[state.nextWaiter] = waiter
            return (state.nextWaiter, first)
        }
        if first {
            connection.closeFuture.whenComplete { _ in
                let waiters = self.state.withLock { $0.watches.removeValue(forKey: key)?.waiters.values }
                for waiter in waiters.map(Array.init) ?? [] { waiter() }
            }
        }
        return id
    }

    private func unwatch(_ connection: PostgresConnection, waiter id: Int) {
        let key = ObjectIdentifier(connection)
        state.withLock { state in
            state.watches[key]?.waiters[id] = nil
        }
    }

    private static func closed() -> SyncError {
        SyncError(.unavailable, "the connection to PostgreSQL closed (down or restarting?); retry later")
    }

    /// Resumes its continuation once, whoever comes first.
    private final class Once<T: Sendable>: Sendable {
        private let continuation: Mutex<CheckedContinuation<T, any Error>?>

        init(_ continuation: CheckedContinuation<T, any Error>) { self.continuation = Mutex(continuation) }

        func resume(with result: Result<T, any Error>) {
            continuation.withLock { stored -> CheckedContinuation<T, any Error>? in
                defer { stored = nil }
                return stored
            }?.resume(with: result)
        }
    }
}
