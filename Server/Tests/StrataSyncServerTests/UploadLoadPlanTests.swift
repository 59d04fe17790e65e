import PostgresNIO
import XCTest

@testable import StrataSyncServer

/// The read an upload starts with (`LockedLoad`) looks up the objects and readings it names by primary key: it
/// never scans the state tables, whatever their size when the function's plan was made (a fresh, never analyzed
/// table got a hash join over a sequential scan, which the function's cached plan then kept as the tables grew, so
/// that every upload read every object and reading ever synced). The tables here hold one page: small enough that
/// a scan looks cheaper than the index to the planner.
final class UploadLoadPlanTests: XCTestCase {
    func testTheLoadReadsTheNamedRowsByTheirKeysWithoutScanningTheTables() async throws {
        try await TestPostgres.withDatabase { client, schema in
            let harness = try await StoreHarness.make(client, schema: schema)
            try await harness.upload(
                (1...40).map { StoreHarness.createNote("n\($0)", seq: $0, hlc: Fixtures.hlc(100 + $0, "c1")) },
                client: "c1", user: "alice")
            let meta = MetaTables(schema: schema)
            var objects = ParameterRows()
            var fields = ParameterRows()
            for key in ["n7", "n30", "missing"] {
                objects.append(["Note", key])
                fields.append(["Note", key, "title"])
            }
            fields.append(["Note", "n7", "no such field"])
            var clientRows = ParameterRows()
            clientRows.append(["c1"])
            clientRows.append(["never uploaded"])
            var locks = ParameterRows()
            locks.append(["client\u{1F}c1"])
            locks.append([ObjectPlan.id(model: "Note", key: "n7")])
            let scansSQL = """
                SELECT relname::text, seq_scan::text FROM pg_catalog.pg_stat_xact_user_tables
                WHERE schemaname = $1 AND relname IN ('strata_sync_objects', 'strata_sync_versions')
                ORDER BY relname
                """
            let (rows, before, after) = try await client.withConnection { connection in
                let sql = SQLSession(connection: connection, logger: TestPostgres.logger)
                // The connection's counts not yet reported may include its earlier work: the calls' own scans are
                // the difference, in one transaction.
                try await sql.execute("BEGIN")
                let before = try await sql.rows(scansSQL, [schema])
                // Seven calls: PL/pgSQL plans the first five for their parameters, then keeps a generic plan.
                var rows: [[String?]] = []
                for _ in 1...7 {
                    rows = try await sql.rows(
                        "SELECT * FROM \(meta.lockLoadFunction)(\(meta.objectLockSpace), $1::jsonb, $2::jsonb, "
                            + "$3::jsonb, $4::jsonb)",
                        [locks.parameter, clientRows.parameter, objects.parameter, fields.parameter])
                }
                let after = try await sql.rows(scansSQL, [schema])
                try await sql.execute("ROLLBACK")
                try await sql.execute("SELECT pg_advisory_unlock_all()")
                return (rows, before, after)
            }
            XCTAssertEqual(before.count, 2, "no statistics for the state tables: \(before)")
            XCTAssertEqual(after, before, "the load scanned a state table instead of looking its rows up by key")
            let found = rows.map { row in row.prefix(3).map { $0 ?? "-" }.joined(separator: " ") }.sorted()
            XCTAssertEqual(
                found,
                ["c alice 40", "o Note n30", "o Note n7", "v Note n30", "v Note n7"],
                "the client's record, the two stored objects and their titles' readings, nothing of the others")
            let titles = rows.filter { $0[0] == "v" }.map { $0[3] }
            XCTAssertEqual(titles, ["title", "title"])
        }
    }
}
