/// One upload batch, in a fixed number of round trips to PostgreSQL whatever its length:
///
/// 1. one call of `LockedLoad`'s function: session-level advisory locks on the client id and on every object the
///    batch names, taken in a fixed order (so two uploads touching the same objects wait for each other instead of
///    deadlocking, and uploads of different objects run side by side, whichever server process applies them), then
///    the client's record, the objects' states and the clock readings the batch needs, read on a snapshot taken once
///    the locks are held;
/// 2. the decisions, in memory (`BatchPlanner`), then the writes (`BatchWriter`): for a batch of creates and sets one
///    statement, with the client's record and the batch's changes staged for the change log, sent alone so that it
///    commits by itself (no `BEGIN` and `COMMIT` round trips, no connection idle in a transaction); several
///    statements (deletes, collection elements) go inside `BEGIN` ... `COMMIT`. The commit numbers the staged
///    changes (`ChangeNumbering`);
/// 3. one statement that releases the locks and reads the last staged change's sequence number
///    (``finishStatement(clientID:lastStaged:)``).
///
/// A batch of creates and sets is three round trips, none of them under the change log's ordering lock. The locks
/// are released only once the writes are committed, so the next holder's read sees them. When anything fails after
/// the locks were asked for, they are released before the connection goes back to the pool, or the connection is
/// closed (which releases them) when that fails too.
struct UploadTransaction {
    /// The server's tables.
    let meta: MetaTables
    /// The connection, outside any transaction block.
    let sql: SQLSession
    /// The rules and the user.
    let authorizer: WriteAuthorizer

    /// What an upload did.
    struct Outcome: Sendable {
        /// The client's highest change number applied, this batch included.
        var acknowledged: Int64
        /// How many changes of the batch were applied (and numbered into the log).
        var accepted: Int
        /// How many were skipped, applied before.
        var duplicates: Int
        /// The change log's sequence number of the batch's last change applied (0 when none was).
        var serverSeq: Int64
        /// The users who may see the applied changes (`ChangeLog.audience(_:)`; `nil`: everyone).
        var audience: Set<String>?
    }

    /// Applies `changes` of client `clientID` (validated, numbers increasing) and appends the new ones to the change
    /// log. With `after` (a batch sent ahead), only once every change of the client up to `after` is applied.
    /// - Throws: `SyncError` naming the refused change, or `.predecessorMissing` when changes up to `after` are
    ///   not all applied yet; nothing of the batch is then written, and the locks are released.
    func run(_ changes: [ValidatedChange], clientID: String, user: String, after: Int64? = nil) async throws
        -> Outcome
    {
        do {
            let loaded = try await lockAndLoad(changes, clientID: clientID)
            SyncTrace.note("upload locked and loaded, \(Self.range(changes))", user: user)
            let (decided, writes, lastStaged) = try decide(
                changes, loaded: loaded, clientID: clientID, user: user, after: after)
            if writes.count == 1 {
                try await writes[0].run(sql)
            } else {
                try await Transaction.run(on: sql) { sql in
                    for statement in writes { try await statement.run(sql) }
                }
            }
            SyncTrace.note("upload written, \(Self.range(changes))", user: user)
            var outcome = decided
            let finish = finishStatement(clientID: clientID, lastStaged: lastStaged)
            outcome.serverSeq = Int64(try await sql.value(finish.text, finish.parameters) ?? "0") ?? 0
            return outcome
        } catch {
            await release()
            throw error
        }
    }

    /// The decisions on the fresh changes, and the statements that write them (with the last fresh change's number).
    private func decide(
        _ changes: [ValidatedChange], loaded: Loaded, clientID: String, user: String, after: Int64?
    ) throws -> (Outcome, [SQLStatement], Int64?) {
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
        let writes = BatchWriter(meta: meta).statements(
            planner.plans.keys.sorted().compactMap { planner.plans[$0] },
            client: BatchWriter.ClientRecord(clientID: clientID, user: user, acknowledged: acknowledged),
            alongside: staged)
        let outcome = Outcome(
            acknowledged: acknowledged, accepted: fresh.count, duplicates: changes.count - fresh.count, serverSeq: 0,
            audience: ChangeLog.audience(owners))
        return (outcome, writes, fresh.last?.change.seq)
    }

    /// The client's change numbers `changes` spans, `first-last`, for the trace (`SyncTrace`).
    static func range(_ changes: [ValidatedChange]) -> String {
        "\(changes.first?.change.seq ?? 0)-\(changes.last?.change.seq ?? 0)"
    }

    /// The last statement: releases the locks and reads the sequence number the commit gave change `lastStaged` of
    /// client `clientID` (null when nothing was staged). Its snapshot, taken after the writes' commit, holds it.
    func finishStatement(clientID: String, lastStaged: Int64?) -> SQLStatement {
        SQLStatement(
            text: """
                SELECT (SELECT c.seq::text FROM \(meta.changes) AS c
                    WHERE c.client_id = $1 AND c.client_seq = $2::bigint)
                FROM pg_advisory_unlock_all() AS u
                """, parameters: [clientID, lastStaged.map { String($0) }])
    }

    /// Releases the locks after a failure (the connection holds no other session-level advisory lock). A connection
    /// in an aborted transaction (a `ROLLBACK` that failed) or one that does not answer is closed instead, which
    /// releases them too, so no lock goes back to the pool with it.
    private func release() async {
        guard !sql.connection.isClosed else { return }
        do {
            try await sql.execute("SELECT pg_advisory_unlock_all()")
        } catch {
            sql.logger.warning(
                "releasing an upload's locks failed; closing its connection",
                metadata: ["error": "\(String(reflecting: error))"])
            try? await sql.connection.close()
        }
    }

    /// The names of the locks an upload takes: the client id's and each object's.
    private static func lockNames(_ changes: [ValidatedChange], clientID: String) -> ParameterRows {
        var names = Set(["client\u{1F}" + clientID])
        for change in changes { names.insert(ObjectPlan.id(model: change.table.model, key: change.key)) }
        var rows = ParameterRows()
        for name in names.sorted() { rows.append([name]) }
        return rows
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

    /// Takes the locks, then reads the client's record and the states and readings of the objects and fields
    /// `changes` name (all of them: those the client already had applied are filtered out afterwards, and reading
    /// a few more rows costs less than a second round trip), in one call of `LockedLoad`'s function.
    private func lockAndLoad(_ changes: [ValidatedChange], clientID: String) async throws -> Loaded {
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
        let rows = try await sql.rows(
            "SELECT * FROM \(meta.lockLoadFunction)(\(meta.objectLockSpace), $1::jsonb, $2, $3::jsonb, $4::jsonb)",
            [Self.lockNames(changes, clientID: clientID).parameter, clientID, objects.parameter, fields.parameter])
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
