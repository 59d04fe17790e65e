/// Several writes to different tables sent as one statement, each a data-modifying `WITH` item, so that they cost
/// one round trip to PostgreSQL instead of one each:
///
/// ```sql
/// WITH w1 AS (INSERT INTO a ... $1 ...), w2 AS (INSERT INTO b ... $2 ...) SELECT 1
/// ```
///
/// PostgreSQL runs every item, on one snapshot, in no set order: the items must not depend on each other's
/// effects (no two of them touch the same row, and none reads what another writes). Writes that must follow
/// another (an insert after a delete of the same row) go in separate statements.
struct CombinedStatement {
    private var parts: [String] = []
    /// The text parameters, bound as `$1`, `$2`, ...
    private(set) var parameters: [String?] = []

    /// Whether no write was added.
    var isEmpty: Bool { parts.isEmpty }

    /// Binds `value` and returns its placeholder's number.
    mutating func bind(_ value: String?) -> Int {
        parameters.append(value)
        return parameters.count
    }

    /// Adds one write (an `INSERT`, `UPDATE` or `DELETE` without `RETURNING`), its parameters bound with
    /// ``bind(_:)``.
    mutating func add(_ statement: String) { parts.append(statement) }

    /// The statement's text.
    var text: String {
        if parts.count == 1 { return parts[0] }
        let items = parts.enumerated().map { "w\($0.offset + 1) AS (\($0.element))" }
        return "WITH " + items.joined(separator: ",\n") + "\nSELECT 1"
    }

    /// The statement to send (`nil` when no write was added).
    var statement: SQLStatement? {
        parts.isEmpty ? nil : SQLStatement(text: text, parameters: parameters)
    }
}
