/// Numbers each upload's changes into the change log at its `COMMIT`, in commit order, holding the log's ordering
/// lock only for the numbering and the commit's WAL flush (docs/SYNC.md, "Order of the change log").
///
/// An upload's transaction does not write the log itself: its last statement inserts the batch's rows, as one `jsonb`
/// value, into `strata_sync_appends` (unlogged: the row never outlives its transaction). A deferred constraint
/// trigger on that table runs inside the `COMMIT`, after every other statement of the upload: it takes the
/// transaction-scoped advisory lock `MetaTables.appendLockKey`, inserts the rows into `strata_sync_changes` (whose
/// `seq` draws from its sequence, in batch order), queues the `NOTIFY` of the last number, and deletes the waiting
/// row. PostgreSQL then writes and flushes the commit record, makes the transaction visible, and only then releases
/// the lock. So numbers are drawn by one committing transaction at a time, and a transaction draws its numbers only
/// once every transaction that drew smaller ones has committed (or rolled back) and become visible:
///
/// - a reader whose snapshot holds number N holds every smaller number that will ever commit, so a download that
///   went past N never misses a change committed later with a smaller number, whichever server wrote it;
/// - the lock is never held across a round trip to the server process (before, it was held from the numbering
///   statement until the server's `COMMIT` arrived), only for the trigger's insert and the flush.
///
/// The upload reads its last sequence number after the commit (`ChangeLog.lastSequence(client:change:)`).
struct ChangeNumbering {
    /// The server's tables.
    let meta: MetaTables

    /// The name of the constraint trigger.
    static let triggerName = "strata_sync_number_appends"

    /// The statements that create the trigger function (replaced at every start, so that a server of a newer
    /// version brings its own) and, when the waiting table is missing, the table and its trigger. Nothing takes a
    /// lock that would stall the uploads of servers already running on the database. A waiting row's `rows` are
    /// `ChangeLog.stage`'s: client id, client change number, user, owner, clock reading, model, object key (JSON
    /// text), operation, property, value (JSON text), element, position, map key.
    var createStatements: [String] {
        let c = ParameterRows.column
        return [
            """
            CREATE OR REPLACE FUNCTION \(meta.numberingFunction)() RETURNS trigger LANGUAGE plpgsql AS $function$
            DECLARE
                last_seq bigint;
            BEGIN
                PERFORM pg_advisory_xact_lock(\(meta.appendLockKey));
                WITH appended AS (
                    INSERT INTO \(meta.changes) (client_id, client_seq, user_id, owner_id, hlc, model, object_key, op,
                        property, value, element, position, map_key)
                    SELECT \(c(0)), \(c(1))::bigint, \(c(2)), \(c(3)), \(c(4)), \(c(5)), \(c(6))::jsonb,
                        \(c(7)), \(c(8)), \(c(9))::jsonb, \(c(10)), \(c(11)), \(c(12))
                    FROM jsonb_array_elements(NEW.rows) WITH ORDINALITY AS r(v, n) ORDER BY r.n
                    RETURNING seq)
                SELECT max(seq) INTO last_seq FROM appended;
                PERFORM pg_notify(NEW.channel, last_seq::text || NEW.payload);
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
                        rows jsonb NOT NULL, channel text NOT NULL, payload text NOT NULL);
                    ALTER TABLE \(meta.appends) ALTER COLUMN rows SET STORAGE EXTERNAL;
                    CREATE CONSTRAINT TRIGGER \(SQLName.quoted(Self.triggerName)) AFTER INSERT ON \(meta.appends)
                        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION \(meta.numberingFunction)();
                END IF;
            END
            $do$
            """,
        ]
    }
}
