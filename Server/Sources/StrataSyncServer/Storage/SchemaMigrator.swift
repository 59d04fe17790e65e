import Logging
import PostgresNIO

/// Creates the typed tables of a `SyncSchema` and migrates them to a newer schema version: renamed models and
/// properties keep their data, new models and properties get tables and columns, removed ones are dropped, and
/// a changed property type is converted in place by PostgreSQL's cast.
///
/// It runs in one transaction under an advisory lock, so two servers starting together migrate once, and a
/// failed migration leaves the tables as they were.
struct SchemaMigrator {
    /// The server's tables.
    let meta: MetaTables
    /// Where it logs each table and column it changes.
    let logger: Logger

    /// Brings the tables in line with `schema`.
    /// - Throws: `SyncSchemaError` when the database follows a newer version than the files, or PostgreSQL's error
    ///   when a statement fails.
    func migrate(_ schema: SyncSchema, client: PostgresClient) async throws {
        try await Transaction.run(client, logger: logger) { sql in
            try await sql.execute("SELECT pg_advisory_xact_lock(\(meta.migrationLockKey))")
            let functions =
                ChangeNumbering(meta: meta).createStatements + ChangeWatermark(meta: meta).createStatements
                + LockedLoad(meta: meta).createStatements
            for statement in meta.createStatements + functions {
                try await sql.execute(statement)
            }
            try await checkVersions(schema, sql)
            var registered = try await registeredTables(sql)
            for table in schema.tables.values.sorted(by: { $0.model < $1.model }) {
                try await migrate(table, registered: &registered, sql)
            }
            let wanted = Set(schema.tables.values.flatMap { [$0.model] + $0.collections.map(\.tableName) })
            for (name, _) in registered where !wanted.contains(name) {
                logger.info("dropping table of a removed model or property", metadata: ["table": "\(name)"])
                try await sql.execute("DROP TABLE IF EXISTS \(SQLName.qualified(meta.schema, name))")
                try await sql.execute("DELETE FROM \(meta.tables) WHERE table_name = $1", [name])
            }
            for version in schema.versions {
                try await sql.execute(
                    """
                    INSERT INTO \(meta.schemaVersions) (schema_name, version) VALUES ($1, $2::integer)
                    ON CONFLICT (schema_name) DO UPDATE SET version = EXCLUDED.version
                    """, [version.schemaName, String(version.version)])
            }
        }
    }

    private func checkVersions(_ schema: SyncSchema, _ sql: SQLSession) async throws {
        for version in schema.versions {
            let stored = try await sql.value(
                "SELECT version::text FROM \(meta.schemaVersions) WHERE schema_name = $1", [version.schemaName])
            if let stored, let number = Int(stored), number > version.version {
                throw SyncSchemaError(
                    "the database follows schema \(version.schemaName) version \(number), newer than the files' "
                        + "version \(version.version); start the server with the newest schema files")
            }
        }
    }

    private func registeredTables(_ sql: SQLSession) async throws -> [String: String] {
        var tables: [String: String] = [:]
        for row in try await sql.rows("SELECT table_name, model FROM \(meta.tables)") {
            if let name = row[0], let model = row[1] { tables[name] = model }
        }
        return tables
    }

    private func register(_ name: String, model: String, _ registered: inout [String: String], _ sql: SQLSession)
        async throws
    {
        try await sql.execute(
            """
            INSERT INTO \(meta.tables) (table_name, model) VALUES ($1, $2)
            ON CONFLICT (table_name) DO UPDATE SET model = EXCLUDED.model
            """, [name, model])
        registered[name] = model
    }

    private func rename(table old: String, to new: String, _ registered: inout [String: String], _ sql: SQLSession)
        async throws
    {
        guard registered[old] != nil, registered[new] == nil else { return }
        logger.info("renaming table", metadata: ["from": "\(old)", "to": "\(new)"])
        try await sql.execute("ALTER TABLE \(SQLName.qualified(meta.schema, old)) RENAME TO \(SQLName.quoted(new))")
        try await sql.execute("DELETE FROM \(meta.tables) WHERE table_name = $1", [old])
        registered[old] = nil
    }

    private func migrate(_ table: ModelTable, registered: inout [String: String], _ sql: SQLSession) async throws {
        if let old = table.renamedFrom, registered[old] != nil, registered[table.model] == nil {
            try await rename(table: old, to: table.model, &registered, sql)
            let oldCollections = registered.keys.filter { $0.hasPrefix(old + ".") }
            for name in oldCollections {
                let property = String(name.dropFirst(old.count + 1))
                try await rename(table: name, to: table.model + "." + property, &registered, sql)
                try await register(table.model + "." + property, model: table.model, &registered, sql)
            }
            for metaTable in [meta.objects, meta.versions] {
                try await sql.execute("UPDATE \(metaTable) SET model = $1 WHERE model = $2", [table.model, old])
            }
        }
        try await sql.execute(table.createStatement(schema: meta.schema))
        try await register(table.model, model: table.model, &registered, sql)
        var existing = try await columns(of: table.model, sql)
        let qualified = SQLName.qualified(meta.schema, table.model)
        for (new, old) in table.propertyRenames.sorted(by: { $0.key < $1.key }) {
            if existing[old] != nil, existing[new] == nil {
                logger.info("renaming column", metadata: ["table": "\(table.model)", "from": "\(old)", "to": "\(new)"])
                try await sql.execute(
                    "ALTER TABLE \(qualified) RENAME COLUMN \(SQLName.quoted(old)) TO \(SQLName.quoted(new))")
                existing[new] = existing.removeValue(forKey: old)
            }
            try await rename(table: table.model + "." + old, to: table.model + "." + new, &registered, sql)
        }
        for (name, type) in table.columns {
            let column = SQLName.quoted(name)
            if let current = existing[name] {
                if current != type.sqlType {
                    logger.info("converting column", metadata: ["table": "\(table.model)", "column": "\(name)"])
                    // A link to an embedded model was a key column before embedded objects synced, never written:
                    // it becomes the nested value's jsonb column, empty (no key converts to jsonb).
                    let value = if case .embedded = type.base { "NULL" } else { column }
                    try await sql.execute(
                        """
                        ALTER TABLE \(qualified) ALTER COLUMN \(column) TYPE \(type.sqlType)
                        USING \(value)::\(type.sqlType)
                        """
                    )
                }
            } else {
                logger.info("adding column", metadata: ["table": "\(table.model)", "column": "\(name)"])
                try await sql.execute("ALTER TABLE \(qualified) ADD COLUMN \(column) \(type.sqlType)")
            }
        }
        let wanted = Set(table.columns.map(\.name) + [table.keyColumn])
        for name in existing.keys.sorted() where !wanted.contains(name) {
            logger.info("dropping column", metadata: ["table": "\(table.model)", "column": "\(name)"])
            try await sql.execute("ALTER TABLE \(qualified) DROP COLUMN \(SQLName.quoted(name))")
        }
        for collection in table.collections {
            if registered[collection.tableName] != nil {
                let columns = try await columns(of: collection.tableName, sql)
                if columns["value"] != collection.element.sqlType {
                    logger.info("recreating link table", metadata: ["table": "\(collection.tableName)"])
                    try await sql.execute("DROP TABLE \(SQLName.qualified(meta.schema, collection.tableName))")
                }
            }
            try await sql.execute(collection.createStatement(schema: meta.schema))
            try await register(collection.tableName, model: table.model, &registered, sql)
        }
    }

    private func columns(of table: String, _ sql: SQLSession) async throws -> [String: String] {
        var columns: [String: String] = [:]
        let rows = try await sql.rows(
            """
            SELECT column_name::text, data_type::text FROM information_schema.columns
            WHERE table_schema = $1 AND table_name = $2
            """, [meta.schema, table])
        for row in rows {
            if let name = row[0], let type = row[1] { columns[name] = type }
        }
        return columns
    }
}
