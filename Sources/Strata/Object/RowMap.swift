import StrataStorage

/// The store behind one managed ``Map``: the entries of one map column of one object, read and written in place
/// through the object's ``ObjectRow`` (a database's maps are ``ManagedMapStorage``; a migration's are its rows'
/// maps).
final class RowMap<Row: ObjectRow, Value: ListElement>: ManagedMapAccessor {
    let row: Row
    let column: Int

    init(row: Row, column: Int) {
        self.row = row
        self.column = column
    }

    var count: Int {
        row.readList(column) { table, columnKey in try table.mapCount(row.key, column: columnKey) } ?? 0
    }

    var entries: [(key: String, value: Value)] {
        let stored = row.readList(column) { try $0.mapEntries(row.key, column: $1) } ?? [:]
        return stored.sorted { MapKeyOrder.precedes($0.key, $1.key) }.compactMap { entry in
            row.element(from: entry.value, column: column, as: Value.self).map { (key: entry.key, value: $0) }
        }
    }

    func value(for key: String) -> Value? {
        guard let stored = row.readList(column, { try $0.mapValue(row.key, column: $1, for: key) }) else { return nil }
        return row.element(from: stored, column: column, as: Value.self)
    }

    func setValue(_ value: Value, for key: String) {
        row.changeList(column) { table, columnKey in
            try table.mapSet(row.key, column: columnKey, for: key, to: try row.storedElement(value, column: column))
        }
    }

    func removeValue(for key: String) {
        row.changeList(column) { try $0.mapRemove(row.key, column: $1, for: key) }
    }

    func replaceAll(with entries: [String: Value]) {
        row.changeList(column) { table, columnKey in
            let values = try entries.mapValues { try row.storedElement($0, column: column) }
            try table.set(row.key, column: columnKey, to: .map(values))
        }
    }
}
