import StrataStorage

/// Content for tests that go through the table layer (compaction copies tables, not raw nodes): a table `Steps`
/// holding the newest `window` steps of a counter, one row each, keyed by its step, with a string derived from it.
/// Each step adds a row and deletes the oldest, so every version leaves garbage to compact, and any process can
/// check a version on its own.
package enum StepTable {
    /// How many rows a version keeps.
    package static let window: Int64 = 10

    /// A content error: the rows are not the window of any step.
    package struct Mismatch: Error, CustomStringConvertible {
        /// What was wrong.
        package let description: String
    }

    /// Commits the next step (adds its row and deletes the row `window` steps back); returns it.
    package static func advance(_ store: Store) throws -> Int64 {
        let writer = try store.beginWrite()
        do {
            let catalog = try Catalog(writer: writer)
            let table: Table
            let text: ColumnKey
            if let existing = catalog.table(named: "Steps") {
                (table, text) = (existing, try textColumn(of: existing))
            } else {
                table = try catalog.createTable(named: "Steps")
                text = try table.addColumn(named: "text", type: .value(.string))
            }
            let step = (try table.keys().last?.rawValue ?? 0) + 1
            try table.insert([(text, .string(self.text(of: step)))], key: ObjectKey(step))
            if step > window { try table.delete(ObjectKey(step - window)) }
            try catalog.flush()
            try writer.commit()
            return step
        } catch {
            writer.rollback()
            throw error
        }
    }

    /// The newest version's step (0 for a store without the table), after checking that its rows are exactly the
    /// window ending there, each with its own text.
    package static func read(_ store: Store) throws -> Int64 {
        let reader = try store.beginRead()
        defer { reader.end() }
        let catalog = try Catalog(reader: reader)
        guard let table = catalog.table(named: "Steps") else { return 0 }
        let text = try textColumn(of: table)
        let keys = try table.keys().map(\.rawValue)
        let step = keys.last ?? 0
        guard keys == Array(stride(from: max(1, step - window + 1), through: step, by: 1)) else {
            throw Mismatch(description: "rows \(keys) are not the last \(window) steps of step \(step)")
        }
        for key in keys where try table.string(ObjectKey(key), column: text) != self.text(of: key) {
            throw Mismatch(description: "row \(key) does not hold its text")
        }
        return withExtendedLifetime(catalog) { step }
    }

    private static func textColumn(of table: Table) throws -> ColumnKey {
        guard let column = table.column(named: "text") else { throw Mismatch(description: "Steps has no text column") }
        return column.key
    }

    /// Step `step`'s text: a length that varies, so rows move between clusters' variable blocks.
    private static func text(of step: Int64) -> String {
        "step \(step) " + String(repeating: "·", count: Int(step % 97))
    }
}
