import Logging
import PostgresNIO
import ServiceLifecycle

/// Listens on the change log's notification channel (`LISTEN`) on a connection of its own and passes every
/// announcement to the process's `ChangeNotifier`, so that a change uploaded through another server process on the
/// same PostgreSQL wakes this process's waiting downloads. Reconnects after a failure (PostgreSQL restarted, say),
/// with a backoff, and then wakes every waiter once, since announcements may have been missed meanwhile.
///
/// The connection is not the pool's: a `LISTEN` holds its connection for good, and after PostgreSQL comes back the
/// pool first opens a single connection (its retry after a failed connect) and hands it to the first request in its
/// queue. Were that the listener, the pool would have no connection for the uploads and downloads queued behind it
/// until they timed out.
public struct ChangeListener: Service {
    /// How it opens its connection.
    let connection: PostgresConnection.Configuration
    /// The channel.
    let channel: String
    /// Whom it tells.
    let notifier: ChangeNotifier
    /// Where it logs lost connections.
    let logger: Logger

    /// Listens until the service group shuts down.
    public func run() async throws {
        await cancelWhenGracefulShutdown {
            var failures = 0
            var id = 0
            while !Task.isCancelled {
                let started = ContinuousClock.now
                do {
                    id += 1
                    let connection = try await PostgresConnection.connect(
                        configuration: self.connection, id: id, logger: logger)
                    do {
                        // The notifications do not end when the task is cancelled (shutdown); closing the
                        // connection ends them.
                        try await withTaskCancellationHandler {
                            try await connection.listen(on: channel) { notifications in
                                notifier.wakeAll()
                                for try await notification in notifications {
                                    if let sequence = Int64(notification.payload) { notifier.announce(sequence) }
                                }
                            }
                        } onCancel: {
                            let closing: EventLoopFuture<Void> = connection.close()
                            _ = closing
                        }
                        try? await connection.close()
                    } catch {
                        try? await connection.close()
                        throw error
                    }
                } catch {
                    if Task.isCancelled { return }
                    failures = ContinuousClock.now - started > .seconds(10) ? 1 : failures + 1
                    logger.warning(
                        "LISTEN on the change log's channel failed; retrying",
                        metadata: ["channel": "\(channel)", "error": "\(String(reflecting: error))"])
                    try? await Task.sleep(for: .milliseconds(min(5_000, 100 * (1 << min(failures, 6)))))
                }
            }
        }
    }
}
