import Logging
import PostgresNIO

/// The server's storage: takes upload batches and serves downloads, with everything in PostgreSQL and nothing
/// in memory that another server process would need.
public struct SyncStore: Sendable {
    /// The mapped schema.
    public let schema: SyncSchema
    /// The access rules.
    public let rules: AccessRules
    /// The PostgreSQL client (a connection pool).
    let client: PostgresClient
    /// The server's tables.
    let meta: MetaTables
    /// Where the store logs.
    let logger: Logger
    /// Wakes this process's waiting downloads when the change log grows.
    public let notifier = ChangeNotifier()
    /// The pool with a bounded wait for a connection.
    let postgres: PostgresAccess
    /// Sends this process's announcements to the other server processes (`NOTIFY`), after the uploads' commits.
    let announcer: ChangeAnnouncer
    /// How long a batch sent ahead (`UploadRequest.after`) waits for the changes before it to be applied before it
    /// is refused with 412 (docs/SYNC.md, "Sending ahead").
    public var predecessorWait: Duration = .seconds(2)
    /// Gathers the uploads waiting at one moment into one transaction (group commit).
    let groups: UploadGroups

    /// Creates a store on `client`'s database, with every table in PostgreSQL schema `databaseSchema`.
    /// `client` must be running (`PostgresClient.run()`). A request that gets no connection within
    /// `connectionTimeout` (PostgreSQL down or restarting) fails with `SyncError.Kind.unavailable` (503).
    public init(
        schema: SyncSchema, rules: AccessRules, client: PostgresClient, databaseSchema: String, logger: Logger,
        connectionTimeout: Duration = .seconds(5), uploadGroupsInFlight: Int = 2
    ) {
        self.schema = schema
        self.rules = rules
        self.client = client
        self.meta = MetaTables(schema: databaseSchema)
        self.logger = logger
        self.postgres = PostgresAccess(client: client, timeout: connectionTimeout, logger: logger)
        self.announcer = ChangeAnnouncer(postgres: postgres, channel: meta.notificationChannel, logger: logger)
        self.groups = UploadGroups(leaders: uploadGroupsInFlight, maxChanges: Self.groupChanges)
    }

    /// How many changes a group of uploads takes at most (its first upload's whatever their number): a client's
    /// largest batch (`uploadBatchSize`, 5,000), so that a group locks no more objects than one such batch.
    static let groupChanges = 5_000

    /// Creates or migrates the tables (see `SchemaMigrator`).
    public func migrate() async throws {
        try await SchemaMigrator(meta: meta, logger: logger).migrate(schema, client: client)
    }

    /// Applies an upload batch for `user` (`UploadTransaction`), committed at once: all of it or, on any refusal,
    /// none of it.
    ///
    /// Changes whose number the client id already had applied are skipped, so a batch retried after a crash of
    /// either side is applied once.
    /// - Throws: `SyncError` naming the refused change and the reason.
    public func upload(_ request: UploadRequest, user: String) async throws -> UploadResponse {
        guard !request.clientId.isEmpty, request.clientId.count <= 200 else {
            throw SyncError(.badRequest, "clientId must be 1 to 200 characters")
        }
        var previous: Int64 = 0
        for (index, change) in request.changes.enumerated() {
            guard change.seq > previous else {
                throw SyncError(.badRequest, "change \(index): seq \(change.seq) does not increase; seqs start at 1")
            }
            previous = change.seq
        }
        let validator = ChangeValidator(schema: schema, clientID: request.clientId)
        let validated = try request.changes.enumerated().map { try validator.validate($1, index: $0) }
        let outcome = try await applyInOrder(validated, of: request, user: user)
        let response = UploadResponse(
            acknowledged: outcome.acknowledged, accepted: outcome.accepted, duplicates: outcome.duplicates,
            serverSeq: outcome.serverSeq, keepsOrder: true)
        if response.accepted > 0 {
            notifier.announce(response.serverSeq, audience: outcome.audience, origin: request.clientId)
            announcer.announce(response.serverSeq, audience: outcome.audience)
            logger.debug(
                "upload applied", metadata: ["client": "\(request.clientId)", "changes": "\(response.accepted)"])
        }
        return response
    }

    /// Applies a validated batch (``applyBatch(_:of:user:)``). A batch sent ahead may come before the one it follows
    /// (they travel on different HTTP connections): refused for that, it is tried again at each commit this process
    /// announces (the one it waits for, if it comes through this process) or after 20 ms, for up to
    /// ``predecessorWait``, and then refused for good (412).
    private func applyInOrder(_ validated: [ValidatedChange], of request: UploadRequest, user: String) async throws
        -> UploadTransaction.Outcome
    {
        let deadline = ContinuousClock.now + predecessorWait
        while true {
            let seen = notifier.generation
            do {
                return try await applyBatch(validated, of: request, user: user)
            } catch let error as SyncError where error.kind == .predecessorMissing && ContinuousClock.now < deadline {
                await notifier.wait(past: seen, timeout: min(.milliseconds(20), deadline - ContinuousClock.now))
            }
        }
    }

    /// Applies a validated batch in a group with the uploads waiting alongside it (`UploadGroups`).
    private func applyBatch(_ validated: [ValidatedChange], of request: UploadRequest, user: String) async throws
        -> UploadTransaction.Outcome
    {
        let upload = UploadTransaction.Upload(
            changes: validated, clientID: request.clientId, user: user, after: request.after)
        return try await groups.submit(upload) { uploads in await applyGroup(uploads) }
    }

    /// Applies a group of uploads (`UploadTransaction`) on one connection. When the group's reads or writes fail
    /// for a reason that is not PostgreSQL's unavailability (one upload's value PostgreSQL refuses, say), each
    /// upload is applied again alone, so that one upload's failure is not the others'.
    func applyGroup(_ uploads: [UploadTransaction.Upload]) async -> [Result<UploadTransaction.Outcome, any Error>] {
        do {
            return try await applyTogether(uploads)
        } catch {
            guard uploads.count > 1, !Self.failsEveryUpload(error) else {
                return uploads.map { _ in .failure(error) }
            }
            logger.debug(
                "a group of uploads failed; applying each alone",
                metadata: ["uploads": "\(uploads.count)", "error": "\(String(reflecting: error))"])
            var results: [Result<UploadTransaction.Outcome, any Error>] = []
            for upload in uploads {
                do {
                    results.append(contentsOf: try await applyTogether([upload]))
                } catch {
                    results.append(.failure(error))
                }
            }
            return results
        }
    }

    /// Whether `error` would fail each upload of its group alone too: PostgreSQL unreachable, or refusing for now.
    private static func failsEveryUpload(_ error: any Error) -> Bool {
        if let error = error as? SyncError { return error.kind == .unavailable }
        return PostgresFailure.isUnavailable(error) || PostgresFailure.transientReason(error) != nil
    }

    /// Applies `uploads` in one `UploadTransaction` on a connection of the pool.
    private func applyTogether(_ uploads: [UploadTransaction.Upload]) async throws
        -> [Result<UploadTransaction.Outcome, any Error>]
    {
        let (meta, rules) = (self.meta, self.rules)
        for upload in uploads {
            SyncTrace.note(
                "upload asks for a connection, \(UploadTransaction.range(upload.changes))", user: upload.user)
        }
        return try await postgres.withConnection { sql in
            for upload in uploads {
                SyncTrace.note(
                    "upload lent a connection, \(UploadTransaction.range(upload.changes))", user: upload.user)
                SyncTrace.note(
                    "upload in a group of \(uploads.count), \(UploadTransaction.range(upload.changes))",
                    user: upload.user)
            }
            return try await UploadTransaction(meta: meta, sql: sql, rules: rules).run(uploads)
        }
    }

    /// The changes after `after` that `user` may see, at most `limit`.
    public func download(after: Int64, user: String, limit: Int) async throws -> DownloadResponse {
        try await downloadPage(after: after, user: user, limit: limit).response
    }

    /// The changes after `after` that `user` may see, at most `limit`, up to the watermark (`ChangeWatermark`), and
    /// whether the log held a change above it, behind an upload still committing (a long poll then reads again at
    /// the next announcement to anyone, which that upload's commit makes).
    func downloadPage(after: Int64, user: String, limit: Int) async throws
        -> (response: DownloadResponse, heldBack: Bool)
    {
        let (meta, rules) = (self.meta, self.rules)
        return try await postgres.withConnection { sql in
            let page = try await ChangeLog(meta: meta, sql: sql).read(
                after: after, user: user, rules: rules, limit: limit)
            guard page.upTo > after else {
                return (DownloadResponse(changes: [], last: after, more: false), page.heldBack)
            }
            if page.changes.count == limit, let last = page.changes.last?.serverSeq {
                return (DownloadResponse(changes: page.changes, last: last, more: last < page.upTo), page.heldBack)
            }
            return (DownloadResponse(changes: page.changes, last: page.upTo, more: false), page.heldBack)
        }
    }

    /// The service that passes other server processes' announcements to `notifier`: run it beside the HTTP
    /// server (`SyncServer` does).
    public func listener() -> ChangeListener {
        ChangeListener(client: client, channel: meta.notificationChannel, notifier: notifier, logger: logger)
    }

    /// Whether PostgreSQL answers.
    public func ping() async throws {
        try await postgres.withConnection { sql in try await sql.execute("SELECT 1") }
    }
}
