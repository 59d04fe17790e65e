import PostgresNIO

/// Tells the failures that come from PostgreSQL being unreachable (connection refused or lost, the server shutting
/// down or starting up) from the others, so that the server answers them with 503, which clients retry, rather
/// than 500.
enum PostgresFailure {
    /// SQLSTATE classes and codes that mean the connection, not the request, failed: 08 (connection exception),
    /// 57P01 to 57P03 (admin shutdown, crash shutdown, cannot connect now), 53300 (too many connections).
    private static let unavailableStates: Set<String> = ["57P01", "57P02", "57P03", "53300"]

    /// SQLSTATE codes of a request PostgreSQL refused for now and may take when it comes again, with what to tell
    /// the client and the operator: nothing of the refused transaction committed, and uploads are idempotent.
    private static let transientStates: [String: String] = [
        // An upload locks every object it changes (`UploadTransaction`); many large uploads at once (devices
        // catching up after a time offline) can fill PostgreSQL's shared lock table.
        "53200": "PostgreSQL ran out of shared memory (its lock table is full: raise max_locks_per_transaction, "
            + "docs/SYNC.md)",
        "40001": "PostgreSQL could not serialize the transaction",
        "40P01": "PostgreSQL found a deadlock",
    ]

    /// Why PostgreSQL refused `error`'s request for now (a full lock table, a deadlock, a serialization failure),
    /// or nil when it is not such a refusal: the server answers it with 503, which clients retry, and logs it.
    static func transientReason(_ error: any Error) -> String? {
        if let causes = causes(of: error) { return causes.lazy.compactMap(transientReason).first }
        guard let error = error as? PSQLError, error.code == .server, let state = error.serverInfo?[.sqlState] else {
            return nil
        }
        return transientStates[state]
    }

    /// Whether `error` says PostgreSQL could not be reached or dropped the connection.
    static func isUnavailable(_ error: any Error) -> Bool {
        if let causes = causes(of: error) { return causes.contains(where: isUnavailable) }
        guard let error = error as? PSQLError else { return false }
        switch error.code {
        case .server:
            guard let state = error.serverInfo?[.sqlState] else { return false }
            return state.hasPrefix("08") || unavailableStates.contains(state)
        case .serverClosedConnection, .clientClosedConnection, .connectionError, .uncleanShutdown, .poolClosed,
            .listenFailed:
            return true
        default:
            return false
        }
    }

    /// The errors a failed transaction wraps (its `BEGIN`, body, `COMMIT`, `ROLLBACK`), or nil for any other error.
    private static func causes(of error: any Error) -> [any Error]? {
        guard let error = error as? PostgresTransactionError else { return nil }
        return [error.beginError, error.closureError, error.commitError, error.rollbackError].compactMap { $0 }
    }
}
