/// One upload batch inside its PostgreSQL transaction, in a fixed number of statements whatever its length:
///
/// 1. advisory locks on the client id and on every object the batch names, taken in one statement in a fixed
///    order (so two uploads touching the same objects wait for each other instead of deadlocking, and uploads of
///    different objects run side by side, whichever server process applies them);
/// 2. one statement reading the client's record, the objects' states and the clock readings the batch needs
///    (after the locks, on a snapshot taken once they are held);
/// 3. the decisions, in memory (`BatchPlanner`), then the writes (`BatchWriter`: one statement for a batch of
///    creates and sets, with the client's record and the batch's changes staged for the change log, without a
///    lock: the `COMMIT` numbers them (`ChangeNumbering`), and the caller reads the last number after it
///    (`ChangeLog.lastSequence`)).
///
/// With `BEGIN`, `COMMIT` and the read of the last number, a batch of creates and sets is six round trips, none of
/// them under the change log's ordering lock.
struct UploadTransaction {
    /// The server's tables.
    let meta: MetaTables
    /// The connection in the transaction.
    let sql: SQLSession
    /// The rules and the user.
    let authorizer: WriteAuthorizer

    /// What an upload did, before its commit numbers the staged changes.
    struct Outcome: Sendable {
        /// The client's highest change number applied, this batch included.
        var acknowledged: Int64
        /// How many changes of the batch were applied (and staged for the log).
        var accepted: Int
        /// How many were skipped, applied before.
        var duplicates: Int
        /// The client's number of the last change staged, whose sequence number is the batch's last (`nil` when
        /// nothing was staged).
        var lastStaged: Int64?
        /// The users who may see the staged changes (`ChangeLog.audience(_:)`; `nil`: everyone).
        var audience: Set<String>?
    }

    /// Applies `changes` of client `clientID` (validated, numbers increasing) and stages the new ones for the
    /// change log, which the transaction's `COMMIT` numbers. With `after` (a batch sent ahead), only once every
    /// change of the client up to `after` is applied.
    /// - Throws: `SyncError` naming the refused change, or `.predecessorMissing` when changes up to `after` are
    ///   not all applied yet; the caller's transaction then rolls back.
    func run(_ changes: [ValidatedChange], clientID: String, user: String, after: Int64? = nil) async throws
        -> Outcome
    {
        try await lock(changes, clientID: clientID)
        let loaded = try await load(changes, clientID: clientID)
        if let owner = loaded.clientUser, owner != user {
            throw SyncError(.conflict, "client id \(clientID) belongs to another user")
        }
        let applied = loaded.lastApplied
        // The client's changes are applied in their order: a batch sent ahead waits for the one before it (changes
        // at or below `applied` are skipped as duplicates, so a batch applied before its predecessor would make
        // the predecessor's changes look applied).
        if let after, after > applied {
            throw SyncError(
                .predecessorMissing,
                "client \(clientID) sent changes after \(after), but the server has applied its changes up to "
                    + "\(applied) only; send the batch again once the one before it is answered")
        }
        let fresh = changes.filter { $0.change.seq > applied }
        var planner = BatchPlanner(authorizer: authorizer, plans: loaded.plans(for: fresh))
        var owners: [String?] = []
        for change in fresh { owners.append(try planner.apply(change)) }
        let acknowledged = max(applied, changes.last?.change.seq ?? 0)
        var staged = CombinedStatement()
        ChangeLog(meta: meta, sql: sql).stage(fresh, owners: owners, clientID: clientID, user: user, in: &staged)
        try await BatchWriter(meta: meta, sql: sql).write(
            planner.plans.keys.sorted().compactMap { planner.plans[$0] },
            client: BatchWriter.ClientRecord(clientID: clientID, user: user, acknowledged: acknowledged),
            alongside: staged)
        return Outcome(
            acknowledged: acknowledged, accepted: fresh.count, duplicates: changes.count - fresh.count,
            lastStaged: fresh.last?.change.seq, audience: ChangeLog.audience(owners))
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

    /// What the upload reads before it decides: the client's record, and the stored states and clock readings of
    /// the batch's objects.
    struct Loaded {
        /// The user the client id belongs to, if it uploaded before.
        var clientUser: String?
        /// The highest change number of the client applied so far.
        var lastApplied: Int64 = 0
        /// The stored states, by `ObjectPlan.id(model:key:)`.
        var states: [String: ObjectState] = [:]
        /// The stored readings, by `ObjectPlan.id(model:key:)`, then field.
        var versions: [String: [String: ObjectPlan.Version]] = [:]

        /// The plans of the objects `changes` name, with what was read of them.
        func plans(for changes: [ValidatedChange]) -> [String: ObjectPlan] {
            var plans: [String: ObjectPlan] = [:]
            for change in changes {
                let id = ObjectPlan.id(model: change.table.model, key: change.key)
                guard plans[id] == nil else { continue }
                var plan = ObjectPlan(table: change.table, key: change.key, state: states[id])
                plan.versions = versions[id] ?? [:]
                plans[id] = plan
            }
            return plans
        }
    }

    /// Reads, in one statement, the client's record and the states and readings of the objects and fields
    /// `changes` name (all of them: those the client already had applied are filtered out afterwards, and reading
    /// a few more rows costs less than a second round trip).
    private func load(_ changes: [ValidatedChange], clientID: String) async throws -> Loaded {
        var objects = ParameterRows()
        var fields = ParameterRows()
        var seenObjects: Set<String> = []
        var seenFields: Set<[String]> = []
        for change in changes {
            if seenObjects.insert(ObjectPlan.id(model: change.table.model, key: change.key)).inserted {
                objects.append([change.table.model, change.key])
            }
            for field in BatchPlanner.fields(of: change) {
                let row = [change.table.model, change.key, field]
                if seenFields.insert(row).inserted { fields.append(row) }
            }
        }
        let c = ParameterRows.column
        let rows = try await sql.rows(
            """
            SELECT 'c', user_id, last_seq::text, NULL, NULL, NULL FROM \(meta.clients) WHERE client_id = $1
            UNION ALL
            SELECT 'o', o.model, o.object_key, o.owner_id, o.created_hlc, o.deleted_hlc
            FROM \(meta.objects) AS o JOIN \(ParameterRows.source(2)) ON o.model = \(c(0)) AND o.object_key = \(c(1))
            UNION ALL
            SELECT 'v', v.model, v.object_key, v.field, v.hlc, v.removed::text COLLATE "C"
            FROM \(meta.versions) AS v JOIN \(ParameterRows.source(3))
                ON v.model = \(c(0)) AND v.object_key = \(c(1)) AND v.field = \(c(2))
            """, [clientID, objects.parameter, fields.parameter])
        var loaded = Loaded()
        for row in rows {
            switch row[0] {
            case "c":
                loaded.clientUser = row[1]
                loaded.lastApplied = row[2].flatMap { Int64($0) } ?? 0
            case "o":
                guard let model = row[1], let key = row[2], let created = row[4] else { continue }
                loaded.states[ObjectPlan.id(model: model, key: key)] = ObjectState(
                    ownerID: row[3], created: created, deleted: row[5])
            case "v":
                guard let model = row[1], let key = row[2], let field = row[3], let hlc = row[4] else { continue }
                loaded.versions[ObjectPlan.id(model: model, key: key), default: [:]][field] = ObjectPlan.Version(
                    hlc: hlc, removed: row[5] == "true")
            default:
                continue
            }
        }
        return loaded
    }
}
