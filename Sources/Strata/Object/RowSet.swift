import StrataStorage

/// The store behind one managed ``MutableSet``: the elements of one set column of one object, read and written in
/// place through the object's ``ObjectRow`` (a database's sets are ``ManagedSetStorage``; a migration's are its
/// rows' sets). The elements decoded last are kept with the row's ``ObjectRow/listStamp``, as ``RowList`` does,
/// so iterating decodes the set once.
final class RowSet<Row: ObjectRow, Element: ListElement>: ManagedSetAccessor {
    let row: Row
    let column: Int
    /// The stored values as last read, and the row's list stamp then.
    private var cache: (stamp: UInt64, values: [StorageValue])?

    init(row: Row, column: Int) {
        self.row = row
        self.column = column
    }

    /// The stored elements in set order, from the cache while the stamp stays. Call inside `readList`'s body.
    private func values(_ table: Table, _ columnKey: ColumnKey) throws -> [StorageValue] {
        if let stamp = row.listStamp, let cache, cache.stamp == stamp { return cache.values }
        let read = try table.setElements(row.key, column: columnKey)
        if let stamp = row.listStamp { cache = (stamp, read) }
        return read
    }

    var count: Int {
        row.readList(column) { table, columnKey in try table.setCount(row.key, column: columnKey) } ?? 0
    }

    func element(at index: Int) -> Element {
        let value = row.readList(column) { table, columnKey -> StorageValue? in
            let values = try values(table, columnKey)
            guard values.indices.contains(index) else {
                throw StrataError.invalidArgument(
                    "index \(index) is outside set \(row.describe(column)) of \(values.count) elements")
            }
            return values[index]
        }
        return value.flatMap { row.element(from: $0, column: column, as: Element.self) }
            ?? row.placeholderElement(column: column, as: Element.self)
    }

    /// All elements, in set order.
    var elements: [Element] {
        let stored = row.readList(column) { try values($0, $1) } ?? []
        return stored.compactMap { row.element(from: $0, column: column, as: Element.self) }
    }

    func contains(_ element: Element) -> Bool {
        let value = element.persistedValue
        // An unmanaged object, or one of another database, is in no stored set.
        if case .object(let object) = value {
            if row.isMixed(column) {
                // A set<any> holds typed links: the object's own (a managed object of this database only).
                guard object.managedAccessor != nil, let linked = object as? Object,
                    let stored = try? row.mixedLink(to: linked, column: column)
                else { return false }
                return row.readList(column) { try $0.setContains(row.key, column: $1, stored) } ?? false
            }
            guard let linked = object.managedAccessor as? Row,
                row.linkedRow(column, key: linked.key)?.layout.name == linked.layout.name
            else { return false }
            return row.readList(column) { try $0.setContains(row.key, column: $1, .link(linked.key)) } ?? false
        }
        guard let stored = ValueConversion.storageValue(value) else { return false }
        return row.readList(column) { try $0.setContains(row.key, column: $1, stored) } ?? false
    }

    func insert(_ element: Element) {
        row.changeList(column) { table, columnKey in
            try table.setInsert(row.key, column: columnKey, try row.storedElement(element, column: column))
        }
    }

    func remove(_ element: Element) {
        if case .object(let object) = element.persistedValue, object.managedAccessor == nil { return }
        row.changeList(column) { table, columnKey in
            try table.setRemove(row.key, column: columnKey, try row.storedElement(element, column: column))
        }
    }

    func replaceAll(with elements: [Element]) {
        row.changeList(column) { table, columnKey in
            let values = try elements.map { try row.storedElement($0, column: column) }
            try table.set(row.key, column: columnKey, to: .list(values))
        }
    }
}
