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

    /// Creates a store on `client`'s database, with every table in PostgreSQL schema `databaseSchema`.
    /// `client` must be running (`PostgresClient.run()`).
    public init(
        schema: SyncSchema, rules: AccessRules, client: PostgresClient, databaseSchema: String, logger: Logger
    ) {
        self.schema = schema
        self.rules = rules
        self.client = client
        self.meta = MetaTables(schema: databaseSchema)
        self.logger = logger
    }

    /// Creates or migrates the tables (see `SchemaMigrator`).
    public func migrate() async throws {
        try await SchemaMigrator(meta: meta, logger: logger).migrate(schema, client: client)
    }

    /// Applies an upload batch for `user` in one transaction: all of it or, on any refusal, none of it.
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
        let (meta, rules, logger) = (self.meta, self.rules, self.logger)
        return try await Transaction.run(client, logger: logger) { sql in
            let log = ChangeLog(meta: meta, sql: sql)
            try await log.lockForAppend()
            let row = try await sql.rows(
                "SELECT user_id, last_seq::text FROM \(meta.clients) WHERE client_id = $1 FOR UPDATE",
                [request.clientId]
            ).first
            if let owner = row?[0], owner != user {
                throw SyncError(.conflict, "client id \(request.clientId) belongs to another user")
            }
            let applied = row?[1].flatMap { Int64($0) } ?? 0
            let applier = ChangeApplier(meta: meta, sql: sql)
            let authorizer = WriteAuthorizer(rules: rules, user: user)
            var lastSeq: Int64 = 0
            var accepted = 0
            for change in validated where change.change.seq > applied {
                let state = try await applier.state(of: change)
                let owner = try authorizer.authorize(change, state: state)
                try await applier.apply(change, state: state, owner: owner)
                lastSeq = try await log.append(change, clientID: request.clientId, user: user, owner: owner)
                accepted += 1
            }
            let acknowledged = max(applied, previous)
            try await sql.execute(
                """
                INSERT INTO \(meta.clients) (client_id, user_id, last_seq) VALUES ($1, $2, $3::bigint)
                ON CONFLICT (client_id) DO UPDATE SET last_seq = EXCLUDED.last_seq
                """, [request.clientId, user, String(acknowledged)])
            if accepted > 0 {
                logger.debug("upload applied", metadata: ["client": "\(request.clientId)", "changes": "\(accepted)"])
            }
            return UploadResponse(
                acknowledged: acknowledged, accepted: accepted, duplicates: validated.count - accepted,
                serverSeq: lastSeq)
        }
    }

    /// The changes after `after` that `user` may see, at most `limit`.
    public func download(after: Int64, user: String, limit: Int) async throws -> DownloadResponse {
        let (meta, rules, logger) = (self.meta, self.rules, self.logger)
        return try await client.withConnection { connection in
            let log = ChangeLog(meta: meta, sql: SQLSession(connection: connection, logger: logger))
            let upTo = try await log.lastSequence()
            guard upTo > after else { return DownloadResponse(changes: [], last: after, more: false) }
            let changes = try await log.read(after: after, upTo: upTo, user: user, rules: rules, limit: limit)
            if changes.count == limit, let last = changes.last?.serverSeq {
                return DownloadResponse(changes: changes, last: last, more: last < upTo)
            }
            return DownloadResponse(changes: changes, last: upTo, more: false)
        }
    }

    /// Whether PostgreSQL answers.
    public func ping() async throws {
        let logger = self.logger
        try await client.withConnection { connection in
            try await SQLSession(connection: connection, logger: logger).execute("SELECT 1")
        }
    }
}
