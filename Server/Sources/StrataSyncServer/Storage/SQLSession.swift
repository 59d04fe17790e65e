import Logging
import PostgresNIO

/// A PostgreSQL connection (usually inside a transaction) with the two calls the server makes: run a statement,
/// and read rows whose every column the query casts to text.
///
/// Binding every parameter as text and reading every column as text keeps one code path for every schema type;
/// `ColumnType` holds the casts.
struct SQLSession {
    /// The connection, lent by `PostgresClient` for the length of one transaction.
    let connection: PostgresConnection
    /// Where queries log.
    let logger: Logger

    /// Runs `sql` with text parameters `$1...`, ignoring what it returns (which need not be text).
    func execute(_ sql: String, _ parameters: [String?] = []) async throws {
        let sequence = try await query(sql, parameters)
        for try await _ in sequence {}
    }

    /// Runs `sql` with text parameters and returns its rows, each column as text (`nil` for null).
    /// Every selected column must be text (cast with `::text`).
    func rows(_ sql: String, _ parameters: [String?] = []) async throws -> [[String?]] {
        let sequence = try await query(sql, parameters)
        var result: [[String?]] = []
        for try await row in sequence {
            var columns: [String?] = []
            for cell in row {
                columns.append(try cell.decode(String?.self))
            }
            result.append(columns)
        }
        return result
    }

    /// The first column of the first row, or `nil` when there is no row or it is null.
    func value(_ sql: String, _ parameters: [String?] = []) async throws -> String? {
        try await rows(sql, parameters).first?.first ?? nil
    }

    /// Sends `sql`. Whoever lent the connection guards the whole of its use against the connection closing under
    /// a statement (`ConnectionClosures`, once per lend rather than once per statement).
    private func query(_ sql: String, _ parameters: [String?]) async throws -> PostgresRowSequence {
        try await connection.query(PostgresQuery(unsafeSQL: sql, binds: Self.bindings(parameters)), logger: logger)
    }

    private static func bindings(_ parameters: [String?]) -> PostgresBindings {
        var bindings = PostgresBindings(capacity: parameters.count)
        for parameter in parameters {
            if let parameter { bindings.append(parameter) } else { bindings.appendNull() }
        }
        return bindings
    }
}
