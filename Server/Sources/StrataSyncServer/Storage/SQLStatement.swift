/// One statement and its text parameters (`$1`, `$2`, ...), built before it is sent, so that a caller can see how
/// many statements a piece of work takes before it runs them (`UploadTransaction` sends a lone statement without a
/// transaction block around it).
struct SQLStatement: Sendable {
    /// The statement's text.
    var text: String
    /// The parameters, each text or null.
    var parameters: [String?]

    /// Runs the statement on `sql`, ignoring what it returns.
    func run(_ sql: SQLSession) async throws {
        try await sql.execute(text, parameters)
    }
}
