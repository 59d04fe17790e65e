/// Numbers each upload's changes into the change log at its `COMMIT`, without a lock that orders the commits
/// (docs/SYNC.md, "Order of the change log").
///
/// An upload's transaction does not write the log itself: its last statement inserts the batch's rows, as one `jsonb`
/// value, into `strata_sync_appends` (unlogged: the row never outlives its transaction). A deferred constraint
/// trigger on that table runs inside the `COMMIT`, after every other statement of the upload: it reads the number
/// the log's sequence will give next (`low`), takes a transaction-scoped *shared* advisory lock keyed `low` (so it
/// registers as "drawing numbers from `low` on" before it draws any), inserts the rows into `strata_sync_changes`
/// (whose `seq` draws from the sequence, in batch order) and deletes the waiting row. PostgreSQL then flushes the
/// commit, makes the transaction visible, and only then releases the lock.
///
/// Shared locks do not wait for each other, so concurrent commits draw their numbers side by side and share WAL
/// flushes; their numbers may become visible out of order. A reader therefore never reads past the watermark
/// (`ChangeWatermark`): the highest number drawn, but below every number still held by a registered appender. The
/// `NOTIFY` is not sent from inside the commit either (it would take PostgreSQL's cluster-wide notification lock
/// and hold it through the flush, making notifying commits serial again): each server process sends its own,
/// coalesced, after its commits (`ChangeAnnouncer`).
///
/// The upload reads its last sequence number after the commit, in the statement that releases its locks
/// (`UploadTransaction.finishStatement(clientID:lastStaged:)`).
struct ChangeNumbering {
    /// The server's tables.
    let meta: MetaTables

    /// The name of the constraint trigger.
    static let triggerName = "strata_sync_number_appends"

    /// The statements that create the trigger function (replaced at every start, so that a server of a newer
    /// version brings its own) and, when the waiting table is missing, the table and its trigger (a table of an
    /// older version, which also carried the `NOTIFY`'s channel and payload, loses those two columns once). A
    /// waiting row's `rows` are `ChangeLog.stage`'s: client id, client change number, user, owner, clock reading,
    /// model, object key (JSON text), operation, property, value (JSON text), element, position, map key.
    var createStatements: [String] {
        let c = ParameterRows.column
        return [
            """
            CREATE OR REPLACE FUNCTION \(meta.numberingFunction)() RETURNS trigger LANGUAGE plpgsql AS $function$
            DECLARE
                low bigint;
            BEGIN
                SELECT CASE WHEN s.is_called THEN s.last_value + 1 ELSE s.last_value END INTO low
                FROM \(meta.changeSequence) AS s;
                PERFORM pg_advisory_xact_lock_shared(low);
                INSERT INTO \(meta.changes) (client_id, client_seq, user_id, owner_id, hlc, model, object_key, op,
                    property, value, element, position, map_key)
                SELECT \(c(0)), \(c(1))::bigint, \(c(2)), \(c(3)), \(c(4)), \(c(5)), \(c(6))::jsonb,
                    \(c(7)), \(c(8)), \(c(9))::jsonb, \(c(10)), \(c(11)), \(c(12))
                FROM jsonb_array_elements(NEW.rows) WITH ORDINALITY AS r(v, n) ORDER BY r.n;
                DELETE FROM \(meta.appends) WHERE txid = NEW.txid;
                RETURN NULL;
            END
            $function$
            """,
            // A batch's rows are read once, by the trigger: stored out of line without compression, which would
            // cost more than it saves.
            """
            DO $do$
            BEGIN
                IF to_regclass(\(SQLName.literal(meta.appends))) IS NULL THEN
                    CREATE UNLOGGED TABLE \(meta.appends) (txid xid8 PRIMARY KEY DEFAULT pg_current_xact_id(),
                        rows jsonb NOT NULL);
                    ALTER TABLE \(meta.appends) ALTER COLUMN rows SET STORAGE EXTERNAL;
                    CREATE CONSTRAINT TRIGGER \(SQLName.quoted(Self.triggerName)) AFTER INSERT ON \(meta.appends)
                        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION \(meta.numberingFunction)();
                ELSIF EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = to_regclass(\(SQLName.literal(meta.appends)))
                        AND attname = 'channel' AND NOT attisdropped) THEN
                    ALTER TABLE \(meta.appends) DROP COLUMN channel, DROP COLUMN payload;
                END IF;
            END
            $do$
            """,
        ]
    }
}
