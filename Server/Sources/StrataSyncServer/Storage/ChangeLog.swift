/// The append-only change log, `strata_sync_changes`: every accepted change once, numbered by the server.
///
/// Appends take a transaction-scoped advisory lock first, so sequence numbers become visible in order: when a
/// reader sees number N committed, every smaller number is committed or rolled back for good, and a client that
/// downloaded up to N never misses a change that commits later with a smaller number, whichever server wrote it.
struct ChangeLog {
    /// The server's tables.
    let meta: MetaTables
    /// The connection.
    let sql: SQLSession

    /// Waits for the append lock; it is released when the transaction ends.
    func lockForAppend() async throws {
        try await sql.execute("SELECT pg_advisory_xact_lock(\(meta.appendLockKey))")
    }

    /// Appends `change` and returns its sequence number.
    func append(_ change: ValidatedChange, clientID: String, user: String, owner: String?) async throws -> Int64 {
        let wire = change.change
        let value = wire.value?.canonicalText
        let seq = try await sql.value(
            """
            INSERT INTO \(meta.changes) (client_id, client_seq, user_id, owner_id, hlc, model, object_key, op,
                property, value, element, position, map_key)
            VALUES ($1, $2::bigint, $3, $4, $5, $6, $7::jsonb, $8, $9, $10::jsonb, $11, $12, $13) RETURNING seq::text
            """,
            [
                clientID, String(wire.seq), user, owner, wire.hlc, wire.model, wire.object.canonicalText,
                wire.op.rawValue, wire.property, value, wire.element, wire.position, wire.key,
            ])
        return Int64(seq ?? "0") ?? 0
    }

    /// The highest sequence number committed so far (0 for an empty log).
    func lastSequence() async throws -> Int64 {
        Int64(try await sql.value("SELECT coalesce(max(seq), 0)::text FROM \(meta.changes)") ?? "0") ?? 0
    }

    /// The changes after `after` up to `upTo` that `user` may see under `rules`, at most `limit`, in order.
    /// (The text column is aliased so that `ORDER BY seq` sorts by the number, not by its text.)
    func read(after: Int64, upTo: Int64, user: String, rules: AccessRules, limit: Int) async throws -> [ServerChange] {
        let rows = try await sql.rows(
            """
            SELECT seq::text AS server_seq, client_id, client_seq::text, hlc, model, object_key::text, op,
                property, value::text, element, position, map_key
            FROM \(meta.changes)
            WHERE seq > $1::bigint AND seq <= $2::bigint
                AND (model = ANY($3::text[]) OR (model = ANY($4::text[]) AND owner_id = $5))
            ORDER BY seq LIMIT $6::integer
            """,
            [
                String(after), String(upTo), Self.arrayLiteral(rules.sharedModels),
                Self.arrayLiteral(rules.ownedModels), user, String(limit),
            ])
        return try rows.map { row in
            guard let seq = row[0].flatMap({ Int64($0) }), let client = row[1],
                let clientSeq = row[2].flatMap({ Int64($0) }), let hlc = row[3], let model = row[4],
                let object = row[5], let op = row[6].flatMap(SyncOperation.init(rawValue:))
            else { throw SyncSchemaError("a change log row has missing fields") }
            let change = SyncChange(
                seq: clientSeq, hlc: hlc, model: model, object: try JSONValue.parse(object), op: op, property: row[7],
                value: try row[8].map(JSONValue.parse), element: row[9], position: row[10], key: row[11])
            return ServerChange(serverSeq: seq, clientId: client, change: change)
        }
    }

    /// A PostgreSQL array literal of `names`, each quoted.
    static func arrayLiteral(_ names: [String]) -> String {
        let quoted = names.map {
            "\"" + $0.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }
        return "{" + quoted.joined(separator: ",") + "}"
    }
}
