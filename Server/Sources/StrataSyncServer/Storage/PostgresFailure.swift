import PostgresNIO

/// Tells the failures that come from PostgreSQL being unreachable (connection refused or lost, the server shutting
/// down or starting up) from the others, so that the server answers them with 503, which clients retry, rather
/// than 500.
enum PostgresFailure {
    /// SQLSTATE classes and codes that mean the connection, not the request, failed: 08 (connection exception),
    /// 57P01 to 57P03 (admin shutdown, crash shutdown, cannot connect now), 53300 (too many connections).
    private static let unavailableStates: Set<String> = ["57P01", "57P02", "57P03", "53300"]

    /// Whether `error` says PostgreSQL could not be reached or dropped the connection.
    static func isUnavailable(_ error: any Error) -> Bool {
        if let error = error as? PostgresTransactionError {
            let causes: [(any Error)?] = [error.beginError, error.closureError, error.commitError, error.rollbackError]
            return causes.contains { $0.map(isUnavailable) ?? false }
        }
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
}
