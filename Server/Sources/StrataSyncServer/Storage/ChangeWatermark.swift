/// How far a download may read the change log: the watermark below which every number that will ever commit has
/// committed (docs/SYNC.md, "Order of the change log").
///
/// Appenders draw numbers side by side at commit (`ChangeNumbering`), each after registering: it reads the number
/// the sequence gives next, `low`, and holds a shared advisory lock keyed `low` until its commit is visible. A
/// reader, in one call of the function below (one round trip):
///
/// 1. reads the highest number drawn so far, `L` (the sequence's last value);
/// 2. then reads the keys of the granted shared advisory locks (`pg_locks`), `R`;
/// 3. then reads the log on a snapshot taken after both, up to `min(L, min(R) − 1)`.
///
/// Why no change is skipped: take a number `n ≤ L`. It was drawn before step 1, by an appender whose lock, keyed
/// at most `n`, was granted before it drew. If that appender still held its lock at step 2, `min(R) ≤ n` and the
/// read stops below `n`. If not, its transaction had ended, committed and visible (or rolled back, and `n` is a gap
/// for good), before step 2, so the snapshot of step 3 holds it. So a download that goes past `n` has seen `n` or
/// nothing will ever commit with it. Each step is a statement of its own inside a `VOLATILE` PL/pgSQL function,
/// which under `READ COMMITTED` takes a new snapshot for each, in order.
///
/// The function's last two columns are the watermark and whether the snapshot holds a number above it (a change
/// held back behind an appender still committing: the long poll then re-reads at the next announcement to anyone).
/// Any shared one-key advisory lock of the database counts in `R` (other schemas' appenders, or an application's):
/// such a lock can only hold a read back for as long as it is held, never let one skip a change.
struct ChangeWatermark {
    /// The server's tables.
    let meta: MetaTables

    /// The statement that creates the read function (replaced at every start).
    var createStatements: [String] {
        [
            """
            CREATE OR REPLACE FUNCTION \(meta.readFunction)(after_seq bigint, shared_models text[],
                owned_models text[], reader text, page_size integer)
            RETURNS TABLE (out_seq text, out_client text, out_client_seq text, out_hlc text, out_model text,
                out_key text, out_op text, out_property text, out_value text, out_element text, out_position text,
                out_map_key text, out_upto text, out_held text)
            LANGUAGE plpgsql VOLATILE AS $function$
            DECLARE
                drawn bigint;
                lowest bigint;
                mark bigint;
            BEGIN
                SELECT CASE WHEN s.is_called THEN s.last_value ELSE s.last_value - 1 END INTO drawn
                FROM \(meta.changeSequence) AS s;
                SELECT min((l.classid::bigint << 32) | l.objid::bigint) INTO lowest FROM pg_catalog.pg_locks AS l
                WHERE l.locktype = 'advisory' AND l.objsubid = 1 AND l.mode = 'ShareLock' AND l.granted
                    AND l.database = (SELECT d.oid FROM pg_catalog.pg_database AS d
                        WHERE d.datname = current_database());
                mark := least(drawn, lowest - 1);
                RETURN QUERY
                    WITH top AS (SELECT coalesce(max(x.seq), 0) AS visible FROM \(meta.changes) AS x)
                    SELECT c.server_seq, c.client_id, c.client_seq, c.hlc, c.model, c.object_key, c.op, c.property,
                        c.value, c.element, c."position", c.map_key, mark::text, (top.visible > mark)::text
                    FROM top LEFT JOIN LATERAL (
                        SELECT g.seq, g.seq::text AS server_seq, g.client_id, g.client_seq::text AS client_seq,
                            g.hlc, g.model, g.object_key::text AS object_key, g.op, g.property,
                            g.value::text AS value, g.element, g."position", g.map_key
                        FROM \(meta.changes) AS g
                        WHERE g.seq > after_seq AND g.seq <= mark
                            AND (g.model = ANY(shared_models) OR (g.model = ANY(owned_models) AND g.owner_id = reader))
                        ORDER BY g.seq LIMIT page_size) AS c ON true
                    ORDER BY c.seq;
            END
            $function$
            """
        ]
    }
}
