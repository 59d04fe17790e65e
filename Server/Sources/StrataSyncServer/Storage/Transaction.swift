import Logging
import PostgresNIO

/// Runs work in one PostgreSQL transaction, rethrowing the work's own error (a `SyncError` naming the refused
/// change, say) rather than PostgresNIO's wrapper, once the transaction is rolled back.
enum Transaction {
    /// Runs `body` on a connection inside `BEGIN` ... `COMMIT`; rolls back when it throws.
    static func run<T: Sendable>(
        _ client: PostgresClient, logger: Logger, _ body: (SQLSession) async throws -> T
    ) async throws -> T {
        do {
            return try await client.withTransaction(logger: logger) { connection in
                try await body(SQLSession(connection: connection, logger: logger))
            }
        } catch let error as PostgresTransactionError {
            if let cause = error.closureError, error.rollbackError == nil { throw cause }
            throw error
        }
    }
}
