import Logging
import Synchronization

/// Tells the other server processes on the same PostgreSQL that this one's uploads grew the change log: one
/// `NOTIFY` on the log's channel (`MetaTables.notificationChannel`, payload `ChangeLog.payloadSuffix(_:)`'s) after
/// the uploads' commits, for as many uploads as committed while the previous one was being sent.
///
/// The notification is not sent from inside the upload's commit: PostgreSQL queues a transaction's notifications
/// under a cluster-wide lock held through the commit's WAL flush, which would make every upload's commit wait for
/// the previous one's (docs/SYNC.md, "Order of the change log"). Sent afterwards, on a connection of the pool, at
/// most one is in flight per process; the announcements that arrive meanwhile are coalesced into the next (the
/// highest sequence number, and the union of the audiences). A notification that fails to go (PostgreSQL down) is
/// dropped: the other processes' waiting downloads read the log again at their recheck interval anyway.
final class ChangeAnnouncer: Sendable {
    /// What is waiting to be sent.
    private struct State {
        /// Whether an announcement waits.
        var pending = false
        /// The highest sequence number announced since the last notification.
        var sequence: Int64 = 0
        /// The users who may see the changes announced since the last notification (`nil`: everyone).
        var audience: Set<String>? = []
        /// Whether a task is sending.
        var sending = false
    }

    /// More users than this in one notification are announced to everyone instead.
    private static let audienceLimit = 256

    private let state = Mutex(State())
    /// The pool.
    private let postgres: PostgresAccess
    /// The channel.
    private let channel: String
    /// Where failures are logged.
    private let logger: Logger

    /// An announcer sending on `channel` through `postgres`.
    init(postgres: PostgresAccess, channel: String, logger: Logger) {
        self.postgres = postgres
        self.channel = channel
        self.logger = logger
    }

    /// Announces that the log holds `sequence`, for the users in `audience` (`nil`: everyone); returns at once.
    func announce(_ sequence: Int64, audience: Set<String>?) {
        let start = state.withLock { state -> Bool in
            if state.pending, let users = state.audience, let audience,
                users.count + audience.count <= Self.audienceLimit
            {
                state.audience = users.union(audience)
            } else {
                state.audience = state.pending ? nil : audience
            }
            state.pending = true
            state.sequence = max(state.sequence, sequence)
            guard !state.sending else { return false }
            state.sending = true
            return true
        }
        if start { Task { await self.send() } }
    }

    /// Sends notifications until none waits.
    private func send() async {
        while let (sequence, audience) = next() {
            let (channel, payload) = (self.channel, String(sequence) + ChangeLog.payloadSuffix(audience))
            do {
                try await postgres.withConnection { sql in
                    try await sql.execute("SELECT pg_notify($1, $2)", [channel, payload])
                }
            } catch {
                logger.warning(
                    "NOTIFY on the change log's channel failed; other server processes recheck later",
                    metadata: ["channel": "\(channel)", "error": "\(String(reflecting: error))"])
            }
        }
    }

    /// Takes what waits, or marks the sender done when nothing does.
    private func next() -> (Int64, Set<String>?)? {
        state.withLock { state in
            guard state.pending else {
                state.sending = false
                return nil
            }
            state.pending = false
            defer { state.audience = [] }
            return (state.sequence, state.audience)
        }
    }
}
