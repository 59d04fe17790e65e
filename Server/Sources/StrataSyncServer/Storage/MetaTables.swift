/// The server's own tables beside the typed ones, in the same PostgreSQL schema. docs/SYNC.md describes them.
struct MetaTables: Sendable {
    /// The PostgreSQL schema that holds every table of this server.
    let schema: String

    /// Schema versions the typed tables follow, per schema name.
    var schemaVersions: String { SQLName.qualified(schema, "strata_sync_schema_versions") }
    /// Every typed and link table the server made, so that tables of removed models and properties are dropped.
    var tables: String { SQLName.qualified(schema, "strata_sync_tables") }
    /// Each client id's user and the highest change number applied.
    var clients: String { SQLName.qualified(schema, "strata_sync_clients") }
    /// Each object ever created: its owner, when it was created and, once deleted, when.
    var objects: String { SQLName.qualified(schema, "strata_sync_objects") }
    /// The winning clock reading of each property, set element, map key and list element.
    var versions: String { SQLName.qualified(schema, "strata_sync_versions") }
    /// The append-only change log.
    var changes: String { SQLName.qualified(schema, "strata_sync_changes") }
    /// Upload batches waiting, inside their transactions, to be numbered into the change log at commit
    /// (`ChangeNumbering`): empty outside an upload's transaction.
    var appends: String { SQLName.qualified(schema, "strata_sync_appends") }
    /// The trigger function that numbers a waiting batch into the change log at commit (`ChangeNumbering`).
    var numberingFunction: String { SQLName.qualified(schema, "strata_sync_number_appends") }
    /// The sequence the change log's numbers are drawn from (`bigserial`'s own).
    var changeSequence: String { SQLName.qualified(schema, "strata_sync_changes_seq_seq") }
    /// The function a download reads the log with, up to the watermark (`ChangeWatermark`).
    var readFunction: String { SQLName.qualified(schema, "strata_sync_read_changes") }
    /// The function an upload takes its locks and reads its objects' states with (`LockedLoad`).
    var lockLoadFunction: String { SQLName.qualified(schema, "strata_sync_lock_and_load") }
    /// The first key of the two-key advisory locks an upload takes on each object it changes (the second is a hash
    /// of the object's model and key). Two-key locks never collide with the one-key locks above.
    var objectLockSpace: String { "hashtext(\(SQLName.literal(schema + ".strata_sync_objects")))" }
    /// The channel `NOTIFY` announces new change log entries on (payload: the highest sequence number appended,
    /// then the users who may see them, each after a tab, when they are known: `ChangeLog.payloadSuffix(_:)`).
    /// (PostgreSQL channel names have at most 63 bytes; a long schema name is cut, which only wakes more waiters.)
    var notificationChannel: String { "strata_sync." + String(decoding: Array(schema.utf8.prefix(50)), as: UTF8.self) }
    /// The advisory lock key that keeps two servers from migrating at once.
    var migrationLockKey: String { "hashtext(\(SQLName.literal(schema + ".strata_sync_migration")))" }

    /// The statements that create the tables when missing.
    var createStatements: [String] {
        [
            "CREATE SCHEMA IF NOT EXISTS \(SQLName.quoted(schema))",
            "CREATE TABLE IF NOT EXISTS \(schemaVersions) (schema_name text PRIMARY KEY, version integer NOT NULL)",
            "CREATE TABLE IF NOT EXISTS \(tables) (table_name text PRIMARY KEY, model text NOT NULL)",
            """
            CREATE TABLE IF NOT EXISTS \(clients) (client_id text PRIMARY KEY, user_id text NOT NULL,
                last_seq bigint NOT NULL)
            """,
            """
            CREATE TABLE IF NOT EXISTS \(objects) (model text NOT NULL, object_key text NOT NULL, owner_id text,
                created_hlc text COLLATE "C" NOT NULL, deleted_hlc text COLLATE "C",
                PRIMARY KEY (model, object_key))
            """,
            """
            CREATE TABLE IF NOT EXISTS \(versions) (model text NOT NULL, object_key text NOT NULL, field text NOT NULL,
                hlc text COLLATE "C" NOT NULL, removed boolean NOT NULL, PRIMARY KEY (model, object_key, field))
            """,
            """
            CREATE TABLE IF NOT EXISTS \(changes) (seq bigserial PRIMARY KEY, client_id text NOT NULL,
                client_seq bigint NOT NULL, user_id text NOT NULL, owner_id text, hlc text NOT NULL,
                model text NOT NULL, object_key jsonb NOT NULL, op text NOT NULL, property text, value jsonb,
                element text, position text, map_key text, recorded_at timestamptz NOT NULL DEFAULT now(),
                UNIQUE (client_id, client_seq))
            """,
        ]
    }
}
