import Logging
import PostgresNIO

/// Runs work in one PostgreSQL transaction, rethrowing the work's own error (a `SyncError` naming the refused
/// change, say) once the transaction is rolled back.
///
/// `BEGIN`, `COMMIT` and `ROLLBACK` go through `SQLSession` like every other statement, inside the lender's guard
/// against the connection closing (`ConnectionClosures`; PostgresNIO's own `withTransaction` sends its `ROLLBACK`
/// unguarded). A connection that closed is not rolled back: PostgreSQL ended the transaction with it.
enum Transaction {
    /// Runs `body` on a connection inside `BEGIN` ... `COMMIT`; rolls back when it throws. Fails with
    /// `SyncError.Kind.unavailable` if the connection closes first (`ConnectionClosures`).
    static func run<T: Sendable>(
        _ client: PostgresClient, logger: Logger, _ body: @escaping @Sendable (SQLSession) async throws -> T
    ) async throws -> T {
        try await client.withConnection { connection in
            try await ConnectionClosures.shared.run(on: connection) {
                try await run(on: SQLSession(connection: connection, logger: logger), body)
            }
        }
    }

    /// Runs `body` inside `BEGIN` ... `COMMIT` on `sql`'s connection, which is then free for statements after the
    /// commit; rolls back when `body` throws.
    nonisolated(nonsending) static func run<T: Sendable>(
        on sql: SQLSession, _ body: (SQLSession) async throws -> T
    ) async throws -> T {
        try await sql.execute("BEGIN")
        let value: T
        do {
            value = try await body(sql)
        } catch {
            if !sql.connection.isClosed {
                do {
                    try await sql.execute("ROLLBACK")
                } catch let rollback {
                    sql.logger.warning(
                        "ROLLBACK failed after an error",
                        metadata: [
                            "error": "\(String(reflecting: error))",
                            "rollback": "\(String(reflecting: rollback))",
                        ])
                    throw rollback
                }
            }
            throw error
        }
        try await sql.execute("COMMIT")
        return value
    }
}
