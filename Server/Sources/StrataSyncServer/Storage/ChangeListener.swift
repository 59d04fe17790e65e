import Logging
import PostgresNIO
import ServiceLifecycle

/// Listens on the change log's notification channel (`LISTEN`) on a connection of its own and passes every
/// announcement to the process's `ChangeNotifier`, so that a change uploaded through another server process on the
/// same PostgreSQL wakes this process's waiting downloads. Reconnects after a failure (PostgreSQL restarted, say),
/// and then wakes every waiter once, since announcements may have been missed meanwhile.
public struct ChangeListener: Service {
    /// The connection pool it borrows its connection from.
    let client: PostgresClient
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
            while !Task.isCancelled {
                let started = ContinuousClock.now
                do {
                    try await client.withConnection { connection in
                        try await connection.listen(on: channel) { notifications in
                            notifier.wakeAll()
                            for try await notification in notifications {
                                if let sequence = Int64(notification.payload) { notifier.announce(sequence) }
                            }
                        }
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
