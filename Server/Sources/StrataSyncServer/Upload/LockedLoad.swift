/// The function an upload starts with (`UploadTransaction`): it takes the batch's advisory locks, then reads what the
/// batch's decisions need, in one call, so one round trip.
///
/// The locks are *session-level* (`pg_advisory_lock`), one per distinct key, taken in the keys' order (so two uploads
/// naming the same objects wait for each other instead of deadlocking). They outlive the statement: the upload holds
/// them through its writes, which commit on their own (one statement, or one short transaction), and releases them in
/// its last statement (`UploadTransaction.finishStatement`). Session and transaction-level advisory locks on one key
/// exclude each other, so a server of an earlier version, which takes the same keys at transaction level, still
/// waits for this one and the other way round.
///
/// The read is a statement of its own after the locks, inside a `VOLATILE` PL/pgSQL function, which under
/// `READ COMMITTED` takes a new snapshot for each statement: it sees everything an upload that held one of these
/// locks committed before releasing it (a lock holder releases only after its writes committed). A single SQL
/// statement that locked and read would read on the snapshot taken at its start, before it waited, and could miss
/// the previous holder's writes.
///
/// The states and readings are looked up one wanted row at a time, each by its table's primary key: a `LATERAL`
/// subquery with `LIMIT 1` (which PostgreSQL cannot turn into a join), planned with sequential scans off (the
/// function's own `enable_seqscan`). A plain join of the tables with the `jsonb` rows got a hash join over a
/// sequential scan of both tables while they were new, and the function's cached plan kept it as they grew, so
/// every upload read every object and reading ever synced; a lookup planned while a table fits one page could
/// likewise keep scanning it (docs/SYNC.md, "`POST /v1/upload`").
///
/// It serves a whole group of uploads (`UploadGroups`): the locks, clients, objects and fields of all of them. Its
/// arguments changed from one client id (`client text`) to the group's (`wanted_clients jsonb`, rows of one id): the
/// new signature is a function of its own beside the old one, which a server of an earlier version still calls.
///
/// The rows are `UploadTransaction.Loaded`'s: `c` (a client's user, last change number and id), `o` (an object's
/// state: model, key, owner, created, deleted) and `v` (a reading: model, key, field, clock, removed).
struct LockedLoad {
    /// The server's tables.
    let meta: MetaTables

    /// The statement that creates the function (replaced at every start).
    var createStatements: [String] {
        let c = ParameterRows.column
        return [
            """
            CREATE OR REPLACE FUNCTION \(meta.lockLoadFunction)(lock_space integer, lock_names jsonb,
                wanted_clients jsonb, wanted_objects jsonb, wanted_fields jsonb)
            RETURNS TABLE (out_kind text, out_a text, out_b text, out_c text, out_d text, out_e text)
            LANGUAGE plpgsql VOLATILE SET enable_seqscan = off AS $function$
            DECLARE
                h integer;
            BEGIN
                FOR h IN SELECT DISTINCT hashtext(r.v->>0) FROM jsonb_array_elements(lock_names) AS r(v) ORDER BY 1
                LOOP
                    PERFORM pg_advisory_lock(lock_space, h);
                END LOOP;
                RETURN QUERY
                    SELECT 'c'::text, k.user_id, k.last_seq::text, k.client_id, NULL::text, NULL::text
                    FROM jsonb_array_elements(wanted_clients) AS r(v) CROSS JOIN LATERAL (
                        SELECT s.* FROM \(meta.clients) AS s WHERE s.client_id = \(c(0)) LIMIT 1) AS k
                    UNION ALL
                    SELECT 'o'::text, o.model, o.object_key, o.owner_id, o.created_hlc::text, o.deleted_hlc::text
                    FROM jsonb_array_elements(wanted_objects) AS r(v) CROSS JOIN LATERAL (
                        SELECT s.* FROM \(meta.objects) AS s WHERE s.model = \(c(0)) AND s.object_key = \(c(1))
                        LIMIT 1) AS o
                    UNION ALL
                    SELECT 'v'::text, v.model, v.object_key, v.field, v.hlc::text, v.removed::text
                    FROM jsonb_array_elements(wanted_fields) AS r(v) CROSS JOIN LATERAL (
                        SELECT s.* FROM \(meta.versions) AS s
                        WHERE s.model = \(c(0)) AND s.object_key = \(c(1)) AND s.field = \(c(2))
                        LIMIT 1) AS v;
            END
            $function$
            """
        ]
    }
}
