import CSQLite

/// What every SQLite side of the benchmarks does with its connection: run SQL, prepare and step a statement, and
/// name SQLite's error, one copy for all of them.
protocol SQLiteStatements: AnyObject {
    /// The open connection.
    var db: OpaquePointer? { get }
}

extension SQLiteStatements {
    /// Runs `sql` (one or more statements without results).
    func execute(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        if sqlite3_exec(db, sql, nil, nil, &message) != SQLITE_OK {
            let text = message.map { String(cString: $0) } ?? "unknown error"
            sqlite3_free(message)
            throw BenchmarkError("SQLite: \(sql): \(text)")
        }
    }

    /// A prepared statement for `sql`, which the caller finalizes.
    func prepare(_ sql: String) throws -> OpaquePointer? {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK else { throw error(sql) }
        return statement
    }

    /// Steps `statement`, which must answer `expected` (`SQLITE_ROW` or `SQLITE_DONE`).
    func step(_ statement: OpaquePointer?, expecting expected: Int32) throws {
        let status = sqlite3_step(statement)
        guard status == expected else {
            throw BenchmarkError("SQLite step returned \(status): \(String(cString: sqlite3_errmsg(db)))")
        }
    }

    /// SQLite's last error, said of `what`.
    func error(_ what: String) -> BenchmarkError {
        BenchmarkError("SQLite: \(what): \(String(cString: sqlite3_errmsg(db)))")
    }
}
