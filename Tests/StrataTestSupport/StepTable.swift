import Foundation
import StrataStorage

/// Content for tests that go through the table layer (compaction copies tables, not raw nodes): a table `Steps`
/// holding the newest `window` steps of a counter, one row each, keyed by its step, with a string derived from it,
/// the step as a decimal (hundredths), and a mixed value linking to the previous step's row (null once that row is
/// gone). Each step adds a row and deletes the oldest, so every version leaves garbage to compact (and a typed link
/// to null), and any process can check a version on its own.
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
            if let existing = catalog.table(named: "Steps") {
                table = existing
            } else {
                table = try catalog.createTable(named: "Steps")
                try table.addColumn(named: "text", type: .value(.string))
                try table.addColumn(named: "amount", type: .value(.decimal))
                try table.addColumn(named: "previous", type: .value(.mixed), nullable: true)
            }
            let (text, amount, previous) = try columns(of: table)
            let step = (try table.keys().last?.rawValue ?? 0) + 1
            try table.insert([
                (text, .string(self.text(of: step))), (amount, .decimal(self.amount(of: step))),
                (previous, step > 1 ? .typedLink(table.key, ObjectKey(step - 1)) : .null),
            ], key: ObjectKey(step))
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
        let (text, amount, previous) = try columns(of: table)
        let keys = try table.keys().map(\.rawValue)
        let step = keys.last ?? 0
        guard keys == Array(stride(from: max(1, step - window + 1), through: step, by: 1)) else {
            throw Mismatch(description: "rows \(keys) are not the last \(window) steps of step \(step)")
        }
        for key in keys {
            guard try table.string(ObjectKey(key), column: text) == self.text(of: key) else {
                throw Mismatch(description: "row \(key) does not hold its text")
            }
            guard try table.decimal(ObjectKey(key), column: amount) == self.amount(of: key) else {
                throw Mismatch(description: "row \(key) does not hold its amount")
            }
            let link: StorageValue = key == keys.first ? .null : .typedLink(table.key, ObjectKey(key - 1))
            guard try table.value(ObjectKey(key), column: previous) == link else {
                throw Mismatch(description: "row \(key) does not link to its previous row (or to nothing, the oldest)")
            }
        }
        return withExtendedLifetime(catalog) { step }
    }

    private static func columns(of table: Table) throws -> (text: ColumnKey, amount: ColumnKey, previous: ColumnKey) {
        guard let text = table.column(named: "text"), let amount = table.column(named: "amount"),
              let previous = table.column(named: "previous") else {
            throw Mismatch(description: "Steps lacks its text, amount or previous column")
        }
        return (text.key, amount.key, previous.key)
    }

    /// Step `step`'s amount: the step in hundredths, exact.
    private static func amount(of step: Int64) -> Decimal { Decimal(step) / 100 }

    /// Step `step`'s text: a length that varies, so rows move between clusters' variable blocks.
    private static func text(of step: Int64) -> String {
        "step \(step) " + String(repeating: "·", count: Int(step % 97))
    }
}
