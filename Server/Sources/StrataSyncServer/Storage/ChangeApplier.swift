/// Applies validated changes to the typed tables under the conflict rules of docs/SYNC.md, inside the upload's
/// transaction:
///
/// - each scalar property, set element and map key keeps the clock reading of its last write in
///   `strata_sync_versions`; a write with an older reading loses (last writer wins, ties broken by client id,
///   which is the last part of the reading);
/// - a delete ends the object; updates to a deleted object are dropped whatever their clock, and only a `create`
///   with a later reading starts a new life;
/// - list elements are inserted once by element id and removed for good; they sort by position identifier, then
///   element id, so concurrent inserts both survive in the same order everywhere.
///
/// Every decision reads and writes rows with `INSERT ... ON CONFLICT` or `FOR UPDATE`, so two servers applying
/// changes to one PostgreSQL decide the same way.
struct ChangeApplier {
    /// The server's tables.
    let meta: MetaTables
    /// The connection in the upload's transaction.
    let sql: SQLSession

    /// The object's state, locked until the transaction ends.
    func state(of change: ValidatedChange) async throws -> ObjectState? {
        let rows = try await sql.rows(
            """
            SELECT owner_id, created_hlc, deleted_hlc FROM \(meta.objects)
            WHERE model = $1 AND object_key = $2 FOR UPDATE
            """, [change.table.model, change.key])
        guard let row = rows.first, let created = row[1] else { return nil }
        return ObjectState(ownerID: row[0], created: created, deleted: row[2])
    }

    /// Applies `change` to the typed tables if the conflict rules let it win.
    /// - Parameters:
    ///   - state: The object's state as `state(of:)` read it.
    ///   - owner: The owner to record for a new object.
    /// - Throws: `SyncError.badRequest` for an update of an object that was never created.
    func apply(_ change: ValidatedChange, state: ObjectState?, owner: String?) async throws {
        let hlc = change.hlc.description
        let op = change.change.op
        if op == .create {
            if let state {
                if let deleted = state.deleted {
                    guard deleted.utf8.lexicographicallyPrecedes(hlc.utf8) else { return }
                    try await restart(change, owner: owner)
                } else if hlc.utf8.lexicographicallyPrecedes(state.created.utf8) {
                    // Concurrent creates of one key merge property by property, whichever arrives first: the
                    // life starts at the earliest.
                    try await sql.execute(
                        "UPDATE \(meta.objects) SET created_hlc = $3 WHERE model = $1 AND object_key = $2",
                        [change.table.model, change.key, hlc])
                }
            } else {
                try await sql.execute(
                    "INSERT INTO \(meta.objects) (model, object_key, owner_id, created_hlc) VALUES ($1, $2, $3, $4)",
                    [change.table.model, change.key, owner, hlc])
            }
            try await sql.execute(
                """
                INSERT INTO \(table(change.table.model)) (\(SQLName.quoted(change.table.keyColumn)))
                VALUES (\(change.table.keyType.placeholder(1))) ON CONFLICT DO NOTHING
                """, [change.key])
            for value in change.values { try await setScalar(change, value, hlc: hlc) }
            return
        }
        guard let state else {
            throw SyncError(
                .badRequest, "\(change.label): the object does not exist; an object's first change is 'create'")
        }
        // Delete wins: nothing changes a deleted object but a later create; an older life's changes are dropped.
        guard state.deleted == nil, !hlc.utf8.lexicographicallyPrecedes(state.created.utf8) else { return }
        switch op {
        case .create:
            return
        case .delete:
            try await delete(change, hlc: hlc)
        case .set:
            for value in change.values { try await setScalar(change, value, hlc: hlc) }
        case .listInsert, .listRemove, .setAdd, .setRemove, .mapSet, .mapRemove:
            try await applyToCollection(change, hlc: hlc)
        }
    }

    private func table(_ name: String) -> String { SQLName.qualified(meta.schema, name) }

    /// Records `hlc` for `field` if it is later than the recorded one; returns whether it was.
    private func wins(_ change: ValidatedChange, field: String, hlc: String, removed: Bool) async throws -> Bool {
        let rows = try await sql.rows(
            """
            INSERT INTO \(meta.versions) AS v (model, object_key, field, hlc, removed)
            VALUES ($1, $2, $3, $4, $5::boolean)
            ON CONFLICT (model, object_key, field) DO UPDATE SET hlc = EXCLUDED.hlc, removed = EXCLUDED.removed
            WHERE v.hlc < EXCLUDED.hlc RETURNING 'won'
            """, [change.table.model, change.key, field, hlc, removed ? "true" : "false"])
        return !rows.isEmpty
    }

    private func setScalar(
        _ change: ValidatedChange, _ value: (property: String, type: ColumnType, parameter: String?), hlc: String
    ) async throws {
        guard try await wins(change, field: value.property, hlc: hlc, removed: false) else { return }
        try await sql.execute(
            """
            UPDATE \(table(change.table.model)) SET \(SQLName.quoted(value.property)) = \(value.type.placeholder(1))
            WHERE \(SQLName.quoted(change.table.keyColumn)) = \(change.table.keyType.placeholder(2))
            """, [value.parameter, change.key])
    }

    /// Starts a new life for a deleted object: its old clock readings go, so the new life's writes start fresh.
    private func restart(_ change: ValidatedChange, owner: String?) async throws {
        try await sql.execute(
            """
            UPDATE \(meta.objects) SET created_hlc = $3, deleted_hlc = NULL, owner_id = $4
            WHERE model = $1 AND object_key = $2
            """, [change.table.model, change.key, change.hlc.description, owner])
        try await sql.execute(
            "DELETE FROM \(meta.versions) WHERE model = $1 AND object_key = $2", [change.table.model, change.key])
    }

    private func delete(_ change: ValidatedChange, hlc: String) async throws {
        try await sql.execute(
            "UPDATE \(meta.objects) SET deleted_hlc = $3 WHERE model = $1 AND object_key = $2",
            [change.table.model, change.key, hlc])
        let key = change.table.keyType.placeholder(1)
        for collection in change.table.collections {
            try await sql.execute("DELETE FROM \(table(collection.tableName)) WHERE owner = \(key)", [change.key])
        }
        try await sql.execute(
            "DELETE FROM \(table(change.table.model)) WHERE \(SQLName.quoted(change.table.keyColumn)) = \(key)",
            [change.key])
    }

    private func applyToCollection(_ change: ValidatedChange, hlc: String) async throws {
        guard let collection = change.collection else { return }
        let name = table(collection.tableName)
        let owner = change.table.keyType.placeholder(1)
        let value = collection.element.placeholder(3)
        let property = collection.property
        switch change.change.op {
        case .listInsert:
            let element = change.change.element ?? ""
            // Inserted once: a second insert of the element, or one after its removal, records nothing.
            let inserted = try await sql.rows(
                """
                INSERT INTO \(meta.versions) (model, object_key, field, hlc, removed) VALUES ($1, $2, $3, $4, false)
                ON CONFLICT DO NOTHING RETURNING 'inserted'
                """, [change.table.model, change.key, property + "#" + element, hlc])
            guard !inserted.isEmpty else { return }
            try await sql.execute(
                "INSERT INTO \(name) (owner, element, position, value) VALUES (\(owner), $2, $4, \(value))",
                [change.key, element, change.elementParameter, change.change.position])
        case .listRemove:
            let element = change.change.element ?? ""
            try await sql.execute(
                """
                INSERT INTO \(meta.versions) (model, object_key, field, hlc, removed) VALUES ($1, $2, $3, $4, true)
                ON CONFLICT (model, object_key, field) DO UPDATE SET removed = true
                """, [change.table.model, change.key, property + "#" + element, hlc])
            try await sql.execute("DELETE FROM \(name) WHERE owner = \(owner) AND element = $2", [change.key, element])
        case .setAdd, .setRemove:
            let element = change.change.value?.canonicalText ?? "null"
            let removed = change.change.op == .setRemove
            guard try await wins(change, field: property + "[" + element + "]", hlc: hlc, removed: removed) else {
                return
            }
            if removed {
                try await sql.execute(
                    "DELETE FROM \(name) WHERE owner = \(owner) AND element = $2", [change.key, element])
            } else {
                try await sql.execute(
                    """
                    INSERT INTO \(name) (owner, element, value) VALUES (\(owner), $2, \(value))
                    ON CONFLICT DO NOTHING
                    """,
                    [change.key, element, change.elementParameter])
            }
        case .mapSet, .mapRemove:
            let key = change.change.key ?? ""
            let removed = change.change.op == .mapRemove
            guard try await wins(change, field: property + "{" + key + "}", hlc: hlc, removed: removed) else {
                return
            }
            if removed {
                try await sql.execute("DELETE FROM \(name) WHERE owner = \(owner) AND key = $2", [change.key, key])
            } else {
                try await sql.execute(
                    """
                    INSERT INTO \(name) (owner, key, value) VALUES (\(owner), $2, \(value))
                    ON CONFLICT (owner, key) DO UPDATE SET value = EXCLUDED.value
                    """, [change.key, key, change.elementParameter])
            }
        case .create, .set, .delete:
            return
        }
    }
}
