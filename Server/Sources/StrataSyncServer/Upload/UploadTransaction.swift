/// One upload batch inside its PostgreSQL transaction, in a fixed number of statements whatever its length:
///
/// 1. advisory locks on the client id and on every object the batch names, taken in one statement in a fixed
///    order (so two uploads touching the same objects wait for each other instead of deadlocking, and uploads of
///    different objects run side by side, whichever server process applies them);
/// 2. the client's record, the objects' states and the clock readings the batch needs, one statement each;
/// 3. the decisions, in memory (`BatchPlanner`), then the writes (`BatchWriter`) and the client's record;
/// 4. the change log's append lock, held only for the one `INSERT` that numbers the batch's changes and until the
///    commit (`ChangeLog`).
struct UploadTransaction {
    /// The server's tables.
    let meta: MetaTables
    /// The connection in the transaction.
    let sql: SQLSession
    /// The rules and the user.
    let authorizer: WriteAuthorizer

    /// Applies `changes` of client `clientID` (validated, numbers increasing) and returns the response.
    /// - Throws: `SyncError` naming the refused change; the caller's transaction then rolls back.
    func run(_ changes: [ValidatedChange], clientID: String, user: String) async throws -> UploadResponse {
        try await lock(changes, clientID: clientID)
        let row = try await sql.rows(
            "SELECT user_id, last_seq::text FROM \(meta.clients) WHERE client_id = $1", [clientID]
        ).first
        if let owner = row?[0], owner != user {
            throw SyncError(.conflict, "client id \(clientID) belongs to another user")
        }
        let applied = row?[1].flatMap { Int64($0) } ?? 0
        let fresh = changes.filter { $0.change.seq > applied }
        var planner = BatchPlanner(authorizer: authorizer, plans: try await load(fresh))
        var owners: [String?] = []
        for change in fresh { owners.append(try planner.apply(change)) }
        try await BatchWriter(meta: meta, sql: sql).write(planner.plans.keys.sorted().compactMap { planner.plans[$0] })
        let acknowledged = max(applied, changes.last?.change.seq ?? 0)
        try await sql.execute(
            """
            INSERT INTO \(meta.clients) (client_id, user_id, last_seq) VALUES ($1, $2, $3::bigint)
            ON CONFLICT (client_id) DO UPDATE SET last_seq = EXCLUDED.last_seq
            """, [clientID, user, String(acknowledged)])
        let log = ChangeLog(meta: meta, sql: sql)
        let lastSeq = try await log.append(fresh, owners: owners, clientID: clientID, user: user)
        return UploadResponse(
            acknowledged: acknowledged, accepted: fresh.count, duplicates: changes.count - fresh.count,
            serverSeq: lastSeq)
    }

    /// Waits for the locks of the client id and of every object of the batch.
    private func lock(_ changes: [ValidatedChange], clientID: String) async throws {
        var names = Set(["client\u{1F}" + clientID])
        for change in changes { names.insert(ObjectPlan.id(model: change.table.model, key: change.key)) }
        var rows = ParameterRows()
        for name in names.sorted() { rows.append([name]) }
        _ = try await sql.rows(
            """
            SELECT count(pg_advisory_xact_lock(\(meta.objectLockSpace), l.h)::text)::text
            FROM (SELECT DISTINCT hashtext(\(ParameterRows.column(0))) AS h FROM \(ParameterRows.source(1))
                ORDER BY h) AS l
            """, [rows.parameter])
    }

    /// The plans of the batch's objects with their stored states and the clock readings the batch reads.
    private func load(_ changes: [ValidatedChange]) async throws -> [String: ObjectPlan] {
        var plans: [String: ObjectPlan] = [:]
        var objects = ParameterRows()
        var fields = ParameterRows()
        var seenFields: Set<[String]> = []
        for change in changes {
            let id = ObjectPlan.id(model: change.table.model, key: change.key)
            if plans[id] == nil {
                plans[id] = ObjectPlan(table: change.table, key: change.key, state: nil)
                objects.append([change.table.model, change.key])
            }
            for field in BatchPlanner.fields(of: change) {
                let row = [change.table.model, change.key, field]
                if seenFields.insert(row).inserted { fields.append(row) }
            }
        }
        guard !objects.isEmpty else { return plans }
        let states = try await sql.rows(
            """
            SELECT o.model, o.object_key, o.owner_id, o.created_hlc, o.deleted_hlc
            FROM \(meta.objects) AS o JOIN \(ParameterRows.source(1))
                ON o.model = \(ParameterRows.column(0)) AND o.object_key = \(ParameterRows.column(1))
            """, [objects.parameter])
        for row in states {
            guard let model = row[0], let key = row[1], let created = row[3] else { continue }
            plans[ObjectPlan.id(model: model, key: key)]?.state = ObjectState(
                ownerID: row[2], created: created, deleted: row[4])
        }
        guard !fields.isEmpty else { return plans }
        let versions = try await sql.rows(
            """
            SELECT v.model, v.object_key, v.field, v.hlc, v.removed::text
            FROM \(meta.versions) AS v JOIN \(ParameterRows.source(1))
                ON v.model = \(ParameterRows.column(0)) AND v.object_key = \(ParameterRows.column(1))
                AND v.field = \(ParameterRows.column(2))
            """, [fields.parameter])
        for row in versions {
            guard let model = row[0], let key = row[1], let field = row[2], let hlc = row[3] else { continue }
            plans[ObjectPlan.id(model: model, key: key)]?.versions[field] = ObjectPlan.Version(
                hlc: hlc, removed: row[4] == "true")
        }
        return plans
    }
}
