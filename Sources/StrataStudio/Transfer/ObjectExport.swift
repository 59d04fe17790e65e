import Strata
import StrataStorage

/// Writes objects of one model as JSON (the snapshots' form, docs/VALUES.md) or CSV: what `strata export` and the
/// studio's export share.
package enum ObjectExport {
    /// The two formats.
    package enum Format: String, Sendable, CaseIterable {
        case json, csv
    }

    /// The objects `keys` of `table`, in their order, as `format`.
    package static func write(
        _ keys: [ObjectKey], of table: Table, catalog: Catalog, format: Format, pretty: Bool = false
    ) throws -> [UInt8] {
        let writer = RowJSONWriter(catalog: catalog)
        switch format {
        case .json:
            var text = JSONText(pretty: pretty)
            try writer.writeArray(keys, of: table, into: &text)
            text.raw("\n")
            return text.bytes
        case .csv:
            let columns = RowEncoder.visibleColumns(table)
            var text = CSVText()
            text.row(columns.map(\.name))
            for key in keys {
                text.row(try columns.map { spec in
                    CSVText.cell(try writer.json(try table.value(key, column: spec.key), of: spec, in: table))
                })
            }
            return text.bytes
        }
    }

    /// The keys of `table` that `filter` (a predicate, `nil` for all) selects, in key order: the app's query
    /// engine over the file's stored schema (``StoredQuery``), so the predicate selects what it would in the app.
    package static func keys(of table: Table, catalog: Catalog, filter: String?) throws -> [ObjectKey] {
        try StoredQuery(table: table, catalog: catalog, predicate: filter).keys()
    }
}
