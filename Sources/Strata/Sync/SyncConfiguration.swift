import Foundation

/// Where a database syncs: the sync server's address and the token that says who the user is
/// (docs/SYNC.md, "The client").
///
/// ```swift
/// var config = Configuration(schema: Notes.self)
/// config.sync = SyncConfiguration(server: URL(string: "https://sync.example.com")!, token: jwt)
/// let db = try Database(configuration: config)
/// try await db.syncSession?.waitForUpload()
/// ```
///
/// With a sync configuration, every write transaction also records its changes in the file's outbox, and the
/// database's ``SyncSession`` uploads them and applies the other devices' changes. Embedded models are not synced.
public struct SyncConfiguration: Sendable {
    /// The sync server's base URL (the one `strata-sync serve` listens on); requests go to `/v1/...` under it.
    public var server: URL
    /// The JWT the server verifies (`Authorization: Bearer`). When the server refuses it (401), the session stops
    /// with ``SyncSession/State/needsToken``: give it a new one with ``SyncSession/updateToken(_:)``.
    public var token: String
    /// The most changes one upload carries (default 5,000): the server applies a batch in a fixed number of
    /// statements, so larger batches cost little more than small ones.
    public var uploadBatchSize = 5_000
    /// How long one download waits on the server for new changes (a long poll; default 25 s, at most 60).
    public var downloadWait: TimeInterval = 25
    /// How long a request may go unanswered before the session gives it up and retries (default 15 s): a download
    /// gets its long poll's wait on top, an upload 2 ms per change it carries. The server answers 503 (retried) when
    /// PostgreSQL cannot be reached, so this only bounds a server or network that went silent.
    public var requestTimeout: TimeInterval = 15
    /// The longest pause between retries after a failure (the backoff doubles from 0.2 s up to this; default 30 s).
    public var maximumBackoff: TimeInterval = 30
    /// How many upload batches the session may send ahead of the previous one's answer, to a server that keeps order
    /// (docs/SYNC.md, "Sending ahead"; default 0: one batch at a time, which measured faster than sending ahead on a
    /// loaded machine, docs/BENCHMARKS.md "Sync: uploads sent ahead of the previous answer").
    public var uploadsAhead = 0
    /// Whether the session starts syncing when the database opens (default `true`); `false` leaves it
    /// ``SyncSession/State/paused`` until ``SyncSession/resume()``. Local writes are recorded either way.
    public var startsImmediately = true

    /// A configuration that syncs with `server` as the user `token` names.
    public init(server: URL, token: String) {
        self.server = server
        self.token = token
    }
}
