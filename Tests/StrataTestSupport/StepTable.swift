import Foundation
import StrataStorage

/// Content for tests that go through the table layer (compaction copies tables, not raw nodes; power-loss and kill
/// tests check whole tables): a table `Steps` holding the newest `window` steps of a counter, one row each, keyed by
/// its step, with values of every kind the object layer stores there:
///
/// - `text`, a string derived from the step; `amount`, the step as a decimal (hundredths); `oid`, an ObjectId
///   derived from the step;
/// - `previous`, a mixed value linking to the previous step's row (null once that row is gone);
/// - `marks`, a `set<any>` of the step, its text's first word, its amount, its ObjectId and a link to the previous
///   row (dropped once that row is gone);
/// - `extras`, a `map<any>` of the step, a null, the amount and a link to the previous row (null once it is gone);
/// - `spot`, a link to an embedded `Spot` row naming the step's city (deleted with its owner).
///
/// Each step adds a row and deletes the oldest, so every version leaves garbage to compact (and links to unlink),
/// and any process can check a version on its own.
package enum StepTable {
    /// How many rows a version keeps.
    package static let window: Int64 = 10

    /// A content error: the rows are not the window of any step.
    package struct Mismatch: Error, CustomStringConvertible {
        /// What was wrong.
        package let description: String
    }

    /// The columns of `Steps` and of its embedded `Spot` table.
    private struct Columns {
        let steps: Table
        let spots: Table
        let text, amount, previous, oid, marks, extras, spot, city: ColumnKey

        init(_ catalog: Catalog) throws {
            guard let steps = catalog.table(named: "Steps"), let spots = catalog.table(named: "Spot") else {
                throw Mismatch(description: "the catalog lacks the Steps or the Spot table")
            }
            func column(_ table: Table, _ name: String) throws -> ColumnKey {
                guard let column = table.column(named: name) else {
                    throw Mismatch(description: "\(table.name) lacks its \(name) column")
                }
                return column.key
            }
            self.steps = steps
            self.spots = spots
            text = try column(steps, "text")
            amount = try column(steps, "amount")
            previous = try column(steps, "previous")
            oid = try column(steps, "oid")
            marks = try column(steps, "marks")
            extras = try column(steps, "extras")
            spot = try column(steps, "spot")
            city = try column(spots, "city")
        }
    }

    /// Commits the next step (adds its row and deletes the row `window` steps back); returns it.
    package static func advance(_ store: Store) throws -> Int64 {
        let writer = try store.beginWrite()
        do {
            let catalog = try Catalog(writer: writer)
            if catalog.table(named: "Steps") == nil { try createTables(catalog) }
            let columns = try Columns(catalog)
            let table = columns.steps
            let step = (try table.keys().last?.rawValue ?? 0) + 1
            let spot = try columns.spots.insert([(columns.city, .string(city(of: step)))])
            let link: StorageValue = step > 1 ? .typedLink(table.key, ObjectKey(step - 1)) : .null
            try table.insert([
                (columns.text, .string(self.text(of: step))), (columns.amount, .decimal(self.amount(of: step))),
                (columns.previous, link), (columns.oid, .objectId(try objectId(of: step))),
                (columns.marks, .list(try marks(of: step, link: link))),
                (columns.extras, .map(try extras(of: step, link: link))), (columns.spot, .link(spot)),
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

    private static func createTables(_ catalog: Catalog) throws {
        let spots = try catalog.createTable(named: "Spot")
        try spots.setEmbedded(true)
        try spots.addColumn(named: "city", type: .value(.string))
        let table = try catalog.createTable(named: "Steps")
        try table.addColumn(named: "text", type: .value(.string))
        try table.addColumn(named: "amount", type: .value(.decimal))
        try table.addColumn(named: "previous", type: .value(.mixed), nullable: true)
        try table.addColumn(named: "oid", type: .value(.objectId))
        try table.addColumn(named: "marks", type: .set(.mixed), elementsNullable: true)
        try table.addColumn(named: "extras", type: .map(.mixed), elementsNullable: true)
        try table.addColumn(named: "spot", type: .value(.link), target: spots.key)
    }

    /// The newest version's step (0 for a store without the table), after checking that its rows are exactly the
    /// window ending there, each with its own values, and that each owns its own embedded spot and no other is left.
    package static func read(_ store: Store) throws -> Int64 {
        let reader = try store.beginRead()
        defer { reader.end() }
        let catalog = try Catalog(reader: reader)
        guard catalog.table(named: "Steps") != nil else { return 0 }
        let columns = try Columns(catalog)
        let table = columns.steps
        let keys = try table.keys().map(\.rawValue)
        let step = keys.last ?? 0
        guard keys == Array(stride(from: max(1, step - window + 1), through: step, by: 1)) else {
            throw Mismatch(description: "rows \(keys) are not the last \(window) steps of step \(step)")
        }
        for key in keys {
            let row = ObjectKey(key)
            guard try table.string(row, column: columns.text) == self.text(of: key) else {
                throw Mismatch(description: "row \(key) does not hold its text")
            }
            guard try table.decimal(row, column: columns.amount) == self.amount(of: key) else {
                throw Mismatch(description: "row \(key) does not hold its amount")
            }
            guard try table.value(row, column: columns.oid) == .objectId(try objectId(of: key)) else {
                throw Mismatch(description: "row \(key) does not hold its ObjectId")
            }
            let link: StorageValue = key == keys.first ? .null : .typedLink(table.key, ObjectKey(key - 1))
            guard try table.value(row, column: columns.previous) == link else {
                throw Mismatch(description: "row \(key) does not link to its previous row (or to nothing, the oldest)")
            }
            let marks = try table.value(row, column: columns.marks)
            guard case .list(let elements) = marks,
                  Set(elements.map(\.description)) == Set(try self.marks(of: key, link: link).map(\.description)),
                  elements.count == (link == .null ? 4 : 5) else {
                throw Mismatch(description: "row \(key) holds the marks \(marks)")
            }
            let extras = try table.value(row, column: columns.extras)
            guard extras == .map(try self.extras(of: key, link: link)) else {
                throw Mismatch(description: "row \(key) holds the extras \(extras)")
            }
            guard case .link(let spot) = try table.value(row, column: columns.spot),
                  try columns.spots.string(spot, column: columns.city) == city(of: key) else {
                throw Mismatch(description: "row \(key) does not own the spot of its city")
            }
        }
        guard try columns.spots.count() == keys.count else {
            throw Mismatch(description: "\(try columns.spots.count()) embedded spots for \(keys.count) rows")
        }
        return withExtendedLifetime(catalog) { step }
    }

    /// Step `step`'s amount: the step in hundredths, exact.
    private static func amount(of step: Int64) -> Decimal { Decimal(step) / 100 }

    /// Step `step`'s ObjectId: the step's bytes, big-endian, in its last eight bytes.
    private static func objectId(of step: Int64) throws -> ObjectId {
        try ObjectId(string: String(format: "5e%022llx", UInt64(step)))
    }

    /// Step `step`'s text: a length that varies, so rows move between clusters' variable blocks.
    private static func text(of step: Int64) -> String {
        "step \(step) " + String(repeating: "·", count: Int(step % 97))
    }

    /// Step `step`'s city: what its embedded spot holds.
    private static func city(of step: Int64) -> String { "city \(step % 13) of step \(step)" }

    /// Step `step`'s `set<any>` elements (in no particular order); `link` is null once the previous row is gone,
    /// and the set then drops that element.
    private static func marks(of step: Int64, link: StorageValue) throws -> [StorageValue] {
        let kept: [StorageValue] = [
            .int(step), .string("step"), .decimal(amount(of: step)), .objectId(try objectId(of: step)),
        ]
        return link == .null ? kept : kept + [link]
    }

    /// Step `step`'s `map<any>` entries; `link` is null once the previous row is gone, and the entry then holds null.
    private static func extras(of step: Int64, link: StorageValue) throws -> [String: StorageValue] {
        ["step": .int(step), "none": .null, "amount": .decimal(amount(of: step)), "previous": link]
    }
}
