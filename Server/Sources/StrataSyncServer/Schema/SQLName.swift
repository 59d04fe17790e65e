/// Quoting of PostgreSQL identifiers, so model and property names keep their case and cannot inject SQL.
enum SQLName {
    /// `name` as a quoted identifier: `"Note"`, with embedded quotes doubled.
    static func quoted(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// `table` qualified by the PostgreSQL schema: `"schema"."table"`.
    static func qualified(_ schema: String, _ table: String) -> String {
        quoted(schema) + "." + quoted(table)
    }

    /// `text` as a SQL string literal, with embedded quotes doubled.
    static func literal(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }
}
