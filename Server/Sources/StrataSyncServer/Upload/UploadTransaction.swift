/// A group of upload batches (`UploadGroups`: the uploads waiting at one moment, one or more), in a fixed number of
/// round trips to PostgreSQL whatever the group's size and the batches' lengths:
///
/// 1. one call of `LockedLoad`'s function: session-level advisory locks on every client id and every object the
///    group names, taken in a fixed order (so two groups touching the same objects wait for each other instead of
///    deadlocking, and groups of different objects run side by side, whichever server process applies them), then
///    the clients' records, the objects' states and the clock readings the group needs, read on a snapshot taken
///    once the locks are held;
/// 2. the decisions, in memory, upload after upload in the group's order (`BatchPlanner`; an upload decides on what
///    the ones before it in the group left, as if they had committed before it), then the writes of every upload the
///    rules accept (`BatchWriter`): for creates and sets one statement, with the clients' records and the group's
///    changes staged for the change log, sent alone so that it commits by itself (no `BEGIN` and `COMMIT` round
///    trips, no connection idle in a transaction); several statements (deletes, collection elements) go inside
///    `BEGIN` ... `COMMIT`. The commit numbers the staged changes (`ChangeNumbering`), one WAL flush for the group;
/// 3. one statement that releases the locks and reads each applied upload's last sequence number
///    (``finish(_:)``).
///
/// An upload the decisions refuse (a rule, a missing predecessor, a client id of another user) gets its own error
/// and leaves nothing: its decisions are made on a copy of its objects' plans, which the group takes only when every
/// change of the upload is accepted. The others are written. A group of creates and sets is three round trips, none
/// of them under the change log's ordering lock. The locks are released only once the writes are committed, so the
/// next holder's read sees them. When anything fails after the locks were asked for, they are released before the
/// connection goes back to the pool, or the connection is closed (which releases them) when that fails too.
struct UploadTransaction {
    /// The server's tables.
    let meta: MetaTables
    /// The connection, outside any transaction block.
    let sql: SQLSession
    /// The rules.
    let rules: AccessRules

    /// One upload of a group: validated changes of one client (numbers increasing), for one user.
    struct Upload: Sendable {
        /// The changes.
        var changes: [ValidatedChange]
        /// The client id.
        var clientID: String
        /// The token's user.
        var user: String
        /// With a batch sent ahead, the client's change number every change up to which must be applied first.
        var after: Int64?
    }

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

    /// Applies every upload of `uploads` that the rules accept, and appends their new changes to the change log, in
    /// one commit. With `after` (a batch sent ahead), an upload is applied only once every change of its client up
    /// to `after` is applied (by an earlier group, or earlier in this one).
    /// - Returns: each upload's outcome, or its own error (`SyncError` naming the refused change, or
    ///   `.predecessorMissing`): nothing of a refused upload is written.
    /// - Throws: when the group's reads or writes fail (PostgreSQL's error): then nothing of the group is written,
    ///   and the locks are released.
    func run(_ uploads: [Upload]) async throws -> [Result<Outcome, any Error>] {
        do {
            let loaded = try await lockAndLoad(uploads)
            for upload in uploads {
                SyncTrace.note("upload locked and loaded, \(Self.range(upload.changes))", user: upload.user)
            }
            var decision = decide(uploads, loaded: loaded)
            if decision.writes.count == 1 {
                try await decision.writes[0].run(sql)
            } else if !decision.writes.isEmpty {
                try await Transaction.run(on: sql) { sql in
                    for statement in decision.writes { try await statement.run(sql) }
                }
            }
            for upload in uploads {
                SyncTrace.note("upload written, \(Self.range(upload.changes))", user: upload.user)
            }
            let sequences = try await finish(decision.lastStaged)
            for (index, sequence) in sequences {
                if case .success(var outcome) = decision.results[index] {
                    outcome.serverSeq = sequence
                    decision.results[index] = .success(outcome)
                }
            }
            return decision.results
        } catch {
            await release()
            throw error
        }
    }

    /// The group's decisions: each upload's outcome or error, the statements that write the accepted ones, and for
    /// each accepted upload that staged changes, its index and its client's last staged change.
    private struct Decision {
        var results: [Result<Outcome, any Error>] = []
        var writes: [SQLStatement] = []
        var lastStaged: [(index: Int, clientID: String, seq: Int64)] = []
    }

    /// Decides every upload in order on what was read and what the accepted uploads before it left.
    private func decide(_ uploads: [Upload], loaded: Loaded) -> Decision {
        var plans = loaded.plans(for: uploads.flatMap(\.changes))
        var clients = loaded.clients
        var staged = ParameterRows()
        var decision = Decision()
        for (index, upload) in uploads.enumerated() {
            do {
                let (outcome, fresh, owners, objects) = try decide(
                    upload, client: clients[upload.clientID], plans: plans)
                for (id, plan) in objects { plans[id] = plan }
                clients[upload.clientID] = Loaded.Client(user: upload.user, lastApplied: outcome.acknowledged)
                ChangeLog.append(fresh, owners: owners, clientID: upload.clientID, user: upload.user, to: &staged)
                if let last = fresh.last?.change.seq {
                    decision.lastStaged.append((index, upload.clientID, last))
                }
                decision.results.append(.success(outcome))
            } catch {
                decision.results.append(.failure(error))
            }
        }
        // A client's record is written when one of its uploads was accepted (`clients` then holds its new state).
        var records: [BatchWriter.ClientRecord] = []
        for (index, upload) in uploads.enumerated() {
            guard case .success = decision.results[index], let client = clients[upload.clientID],
                !records.contains(where: { $0.clientID == upload.clientID })
            else { continue }
            records.append(
                BatchWriter.ClientRecord(
                    clientID: upload.clientID, user: client.user, acknowledged: client.lastApplied))
        }
        guard !records.isEmpty else { return decision }
        var statement = CombinedStatement()
        ChangeLog(meta: meta, sql: sql).stage(staged, in: &statement)
        decision.writes = BatchWriter(meta: meta).statements(
            plans.keys.sorted().compactMap { plans[$0] }, clients: records, alongside: statement)
        return decision
    }

    /// The decisions on one upload's fresh changes, made on a copy of its objects' plans: its outcome, its fresh
    /// changes with their owners, and the plans it leaves.
    private func decide(_ upload: Upload, client: Loaded.Client?, plans: [String: ObjectPlan]) throws
        -> (Outcome, [ValidatedChange], [String?], [String: ObjectPlan])
    {
        if let owner = client?.user, owner != upload.user {
            throw SyncError(.conflict, "client id \(upload.clientID) belongs to another user")
        }
        let applied = client?.lastApplied ?? 0
        // The client's changes are applied in their order: a batch sent ahead waits for the one before it (changes
        // at or below `applied` are skipped as duplicates, so a batch applied before its predecessor would make
        // the predecessor's changes look applied).
        if let after = upload.after, after > applied {
            throw SyncError(
                .predecessorMissing,
                "client \(upload.clientID) sent changes after \(after), but the server has applied its changes up to "
                    + "\(applied) only; send the batch again once the one before it is answered")
        }
        let fresh = upload.changes.filter { $0.change.seq > applied }
        var own: [String: ObjectPlan] = [:]
        for change in fresh {
            let id = ObjectPlan.id(model: change.table.model, key: change.key)
            if own[id] == nil { own[id] = plans[id] }
        }
        var planner = BatchPlanner(authorizer: WriteAuthorizer(rules: rules, user: upload.user), plans: own)
        var owners: [String?] = []
        for change in fresh { owners.append(try planner.apply(change)) }
        let acknowledged = max(applied, upload.changes.last?.change.seq ?? 0)
        let outcome = Outcome(
            acknowledged: acknowledged, accepted: fresh.count, duplicates: upload.changes.count - fresh.count,
            serverSeq: 0, audience: ChangeLog.audience(owners))
        return (outcome, fresh, owners, planner.plans)
    }

    /// The client's change numbers `changes` spans, `first-last`, for the trace (`SyncTrace`).
    static func range(_ changes: [ValidatedChange]) -> String {
        "\(changes.first?.change.seq ?? 0)-\(changes.last?.change.seq ?? 0)"
    }

    /// The last statement: releases the locks and reads the sequence number the commit gave each upload's last
    /// staged change (`lastStaged`: the upload's index in the group, its client and change number); returns them by
    /// index. Its snapshot, taken after the writes' commit, holds them. With nothing staged, it only releases.
    func finish(_ lastStaged: [(index: Int, clientID: String, seq: Int64)]) async throws -> [(Int, Int64)] {
        guard !lastStaged.isEmpty else {
            try await sql.execute("SELECT pg_advisory_unlock_all()")
            return []
        }
        var wanted = ParameterRows()
        for staged in lastStaged { wanted.append([staged.clientID, String(staged.seq)]) }
        let rows = try await sql.rows(
            """
            SELECT r.n::text, (SELECT c.seq::text FROM \(meta.changes) AS c
                WHERE c.client_id = \(ParameterRows.column(0)) AND c.client_seq = \(ParameterRows.column(1))::bigint)
            FROM pg_advisory_unlock_all() AS u, \(ParameterRows.source(1))
            """, [wanted.parameter])
        return rows.compactMap { row in
            guard let n = row[0].flatMap({ Int($0) }), n >= 1, n <= lastStaged.count,
                let seq = row[1].flatMap({ Int64($0) })
            else { return nil }
            return (lastStaged[n - 1].index, seq)
        }
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

    /// The names of the locks a group takes: each client id's and each object's.
    private static func lockNames(_ uploads: [Upload]) -> ParameterRows {
        var names: Set<String> = []
        for upload in uploads {
            names.insert("client\u{1F}" + upload.clientID)
            for change in upload.changes { names.insert(ObjectPlan.id(model: change.table.model, key: change.key)) }
        }
        var rows = ParameterRows()
        for name in names.sorted() { rows.append([name]) }
        return rows
    }

    /// What a group reads before it decides: the clients' records, and the stored states and clock readings of the
    /// group's objects.
    struct Loaded {
        /// A client's record.
        struct Client {
            /// The user the client id belongs to.
            var user: String
            /// The highest change number of the client applied so far.
            var lastApplied: Int64
        }

        /// The records of the clients that uploaded before, by client id.
        var clients: [String: Client] = [:]
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

    /// Takes the locks, then reads the clients' records and the states and readings of the objects and fields the
    /// group's changes name (all of them: those a client already had applied are filtered out afterwards, and
    /// reading a few more rows costs less than a second round trip), in one call of `LockedLoad`'s function.
    private func lockAndLoad(_ uploads: [Upload]) async throws -> Loaded {
        var clients = ParameterRows()
        var objects = ParameterRows()
        var fields = ParameterRows()
        var seenClients: Set<String> = []
        var seenObjects: Set<String> = []
        var seenFields: Set<[String]> = []
        for upload in uploads {
            if seenClients.insert(upload.clientID).inserted { clients.append([upload.clientID]) }
            for change in upload.changes {
                if seenObjects.insert(ObjectPlan.id(model: change.table.model, key: change.key)).inserted {
                    objects.append([change.table.model, change.key])
                }
                for field in BatchPlanner.fields(of: change) {
                    let row = [change.table.model, change.key, field]
                    if seenFields.insert(row).inserted { fields.append(row) }
                }
            }
        }
        let rows = try await sql.rows(
            "SELECT * FROM \(meta.lockLoadFunction)(\(meta.objectLockSpace), $1::jsonb, $2::jsonb, $3::jsonb, $4::jsonb)",
            [Self.lockNames(uploads).parameter, clients.parameter, objects.parameter, fields.parameter])
        var loaded = Loaded()
        for row in rows {
            switch row[0] {
            case "c":
                guard let user = row[1], let clientID = row[3] else { continue }
                loaded.clients[clientID] = Loaded.Client(user: user, lastApplied: row[2].flatMap { Int64($0) } ?? 0)
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
