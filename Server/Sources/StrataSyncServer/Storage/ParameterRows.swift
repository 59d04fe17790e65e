import StrataSyncWire

/// Rows handed to PostgreSQL as one `jsonb` parameter, an array of arrays of text (or null), so that one
/// statement writes or matches any number of rows:
///
/// ```sql
/// INSERT INTO t (a, b) SELECT (r.v->>0), (r.v->>1)::bigint FROM jsonb_array_elements($1::jsonb)
///     WITH ORDINALITY AS r(v, n) ORDER BY r.n
/// ```
///
/// Every value stays text, as with `SQLSession`'s single parameters, and `ColumnType.cast(_:)` converts it.
struct ParameterRows {
    /// The rows, each a list of column values.
    private(set) var rows: [[String?]] = []

    /// Whether there is no row.
    var isEmpty: Bool { rows.isEmpty }

    /// Adds a row.
    mutating func append(_ row: [String?]) { rows.append(row) }

    /// The `jsonb` parameter's text.
    var parameter: String {
        var writer = WireJSONWriter(capacity: 64 * rows.count + 16)
        writer.array { writer in
            for row in rows {
                writer.array { writer in
                    for value in row {
                        if let value { writer.string(value) } else { writer.null() }
                    }
                }
            }
        }
        return writer.text
    }

    /// The `FROM` item over parameter `$index`: alias `r`, each row `r.v`, its position `r.n` (from 1).
    static func source(_ index: Int) -> String {
        "jsonb_array_elements($\(index)::jsonb) WITH ORDINALITY AS r(v, n)"
    }

    /// Column `index` of the current row, as text.
    static func column(_ index: Int) -> String { "(r.v->>\(index))" }
}
