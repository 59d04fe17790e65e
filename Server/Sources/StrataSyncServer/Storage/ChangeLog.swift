/// The append-only change log, `strata_sync_changes`: every accepted change once, numbered by the server.
///
/// An upload stages its changes (``stage(_:owners:clientID:user:in:)``); they are numbered into the log inside the
/// upload's `COMMIT` (`ChangeNumbering`), and a download reads only up to the watermark (`ChangeWatermark`), below
/// which every smaller number is committed or rolled back for good, so a client that downloaded up to N never misses
/// a change that commits later with a smaller number, whichever server wrote it.
struct ChangeLog {
    /// The server's tables.
    let meta: MetaTables
    /// The connection.
    let sql: SQLSession

    /// Adds the change log rows of `changes` (with the owner of each, as `BatchPlanner` decided) of one upload of
    /// client `clientID` to `rows`, which ``stage(_:in:)`` then stages for the whole group.
    static func append(
        _ changes: [ValidatedChange], owners: [String?], clientID: String, user: String, to rows: inout ParameterRows
    ) {
        for (change, owner) in zip(changes, owners) {
            let wire = change.change
            rows.append([
                clientID, String(wire.seq), user, owner, wire.hlc, wire.model, Self.jsonText(wire.object),
                wire.op.rawValue, wire.property, wire.value.map(Self.jsonText), wire.element, wire.position, wire.key,
            ])
        }
    }

    /// Stages `rows` (``append(_:owners:clientID:user:to:)``'s, of every upload of a group, in the group's order) as
    /// one more write of `statement` (the group's `BatchWriter` statement), which takes no lock: the commit of the
    /// group's writes numbers them into the log (`ChangeNumbering`), in this order. The waiting table holds one row
    /// per transaction, so a group stages once. Nothing is staged when there is nothing to append.
    func stage(_ rows: ParameterRows, in statement: inout CombinedStatement) {
        guard !rows.isEmpty else { return }
        let staged = statement.bind(rows.parameter)
        statement.add("INSERT INTO \(meta.appends) (rows) VALUES ($\(staged)::jsonb)")
    }

    /// Who may see changes with these owners (`BatchPlanner`'s, `nil` for a change of a shared model): the owners,
    /// or `nil` (everyone) when one change is shared.
    static func audience(_ owners: [String?]) -> Set<String>? {
        var users: Set<String> = []
        for owner in owners {
            guard let owner else { return nil }
            users.insert(owner)
        }
        return users
    }

    /// What follows the sequence number in the `NOTIFY` payload: a tab and each user of `audience`, tab-separated;
    /// nothing (everyone) without an audience, or when a user id holds a tab or the payload would be long
    /// (PostgreSQL takes up to 8,000 bytes).
    static func payloadSuffix(_ audience: Set<String>?) -> String {
        guard let audience else { return "" }
        let suffix = audience.sorted().map { "\t" + $0 }.joined()
        guard suffix.utf8.count < 6_000, !audience.contains(where: { $0.contains("\t") }) else { return "" }
        return suffix
    }

    /// The sequence number and audience of a `NOTIFY` payload (``payloadSuffix(_:)``); `nil` when it is not one.
    static func parsePayload(_ payload: String) -> (sequence: Int64, audience: Set<String>?)? {
        let parts = payload.split(separator: "\t", omittingEmptySubsequences: false)
        guard let first = parts.first, let sequence = Int64(first) else { return nil }
        return (sequence, parts.count > 1 ? Set(parts.dropFirst().map(String.init)) : nil)
    }

    /// What one read of the log found.
    struct Page {
        /// The watermark: every number up to it that will ever commit has committed (`ChangeWatermark`).
        var upTo: Int64
        /// The changes after the cursor up to the watermark that the user may see, in order, at most the limit.
        var changes: [ServerChange]
        /// Whether the log held a number above the watermark, behind an appender still committing.
        var heldBack: Bool
    }

    /// The watermark, and the changes after `after` up to it that `user` may see under `rules`, at most `limit`,
    /// in order: one call of the read function (`ChangeWatermark`), so one round trip. (Its one row without a
    /// change, when there is none, carries the watermark only.)
    func read(after: Int64, user: String, rules: AccessRules, limit: Int) async throws -> Page {
        var rows = try await sql.rows(
            "SELECT * FROM \(meta.readFunction)($1::bigint, $2::text[], $3::text[], $4, $5::integer)",
            [
                String(after), Self.arrayLiteral(rules.sharedModels), Self.arrayLiteral(rules.ownedModels), user,
                String(limit),
            ])
        let upTo = rows.first?[12].flatMap { Int64($0) } ?? 0
        let heldBack = rows.first?[13] == "true"
        if rows.count == 1, rows[0][0] == nil { rows = [] }
        let changes = try rows.map { row in
            guard let seq = row[0].flatMap({ Int64($0) }), let client = row[1],
                let clientSeq = row[2].flatMap({ Int64($0) }), let hlc = row[3], let model = row[4],
                let object = row[5], let op = row[6].flatMap(SyncOperation.init(rawValue:))
            else { throw SyncSchemaError("a change log row has missing fields") }
            let change = SyncChange(
                seq: clientSeq, hlc: hlc, model: model, object: try SyncValue.parse(object), op: op, property: row[7],
                value: try row[8].map(SyncValue.parse), element: row[9], position: row[10], key: row[11])
            return ServerChange(serverSeq: seq, clientId: client, change: change)
        }
        return Page(upTo: upTo, changes: changes, heldBack: heldBack)
    }

    /// A value's JSON for a `jsonb` column, which keeps no key order or spacing of its own: written directly, not
    /// as ``SyncValue/canonicalText`` (which encodes, reads back and encodes again).
    static func jsonText(_ value: SyncValue) -> String {
        var writer = WireJSONWriter(capacity: 32)
        writer.value(value)
        return writer.text
    }

    /// A PostgreSQL array literal of `names`, each quoted.
    static func arrayLiteral(_ names: [String]) -> String {
        let quoted = names.map {
            "\"" + $0.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }
        return "{" + quoted.joined(separator: ",") + "}"
    }
}
