#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StrataStorage

/// The store behind one managed `List`: the elements of one list column of one object, read and written in place
/// through the object's ``ObjectRow``, so with its way of reporting failures (a database's lists are
/// ``ManagedListStorage``; a migration's are its rows' lists).
///
/// The list's stored values, decoded, are kept with the row's ``ObjectRow/listStamp`` they were read at, and
/// used while the stamp stays: a list is stored as one value, so reading element *i* alone decodes the whole list,
/// and iterating, indexing and slicing would otherwise cost O(*n*) per element (a 40,000-element loop took 28 s).
final class RowList<Row: ObjectRow, Element: ListElement>: ManagedListAccessor {
    let row: Row
    let column: Int
    /// The stored values as last read, and the row's list stamp then.
    private var cache: (stamp: UInt64, values: [StorageValue])?

    init(row: Row, column: Int) {
        self.row = row
        self.column = column
    }

    /// The stored form of `element`: a primitive as is, an object as a link (the row says which objects it links).
    private func storageValue(_ element: Element) throws -> StorageValue {
        let value = element.persistedValue
        if case .object(let object) = value {
            if row.isMixed(column) { return try row.mixedLink(to: object, column: column) }
            return .link(try row.linkKey(to: object, column: column))
        }
        guard let stored = ValueConversion.storageValue(value) else {
            throw row.unstorable("a value of type \(Element.self) cannot be stored in \(row.describe(column))")
        }
        return stored
    }

    /// The element `value` stands for, or `nil` (reported) when it is not one.
    private func element(from value: StorageValue) -> Element? {
        let persisted: PersistedValue
        if case .link(let key) = value,
            let object = row.linkedObject(column, key: key, as: Element.self as? Object.Type)
        {
            persisted = .object(object)
        } else if case .typedLink(let table, let key) = value {
            persisted = row.mixedObject(table: table, key: key).map { .object($0) } ?? .null
        } else {
            persisted = ValueConversion.persistedValue(value)
        }
        guard let element = Element.fromPersistedValue(persisted) else {
            row.reportMismatch("\(row.describe(column)) holds \(value), not a \(Element.self)", in: column)
            return nil
        }
        return element
    }

    /// What a list element that could not be read stands in as, when the row carries on after a failure (a
    /// migration records it and is abandoned, but the app's code is running and needs some element now, and a
    /// damaged file must not crash it).
    private func placeholder() -> Element {
        let zeros: [PersistedValue] = [
            .null, .int(0), .bool(false), .float(0), .double(0), .string(""), .data(Data()),
            .date(ValueConversion.date(0)), .uuid(Row.zeroUUID),
        ]
        for zero in zeros {
            if let element = Element.fromPersistedValue(zero) { return element }
        }
        if let nowhere = row.linkedObject(column, key: ObjectKey(-1), as: Element.self as? Object.Type),
            let element = Element.fromPersistedValue(.object(nowhere))
        {
            return element
        }
        // Every ListElement is one of the kinds above; a new kind must be added there.
        fatalError("Strata: \(Element.self) has no placeholder value for a list element that could not be read")
    }

    /// The stored values if they were read at the row's current list stamp. Call inside `readList`'s body.
    private func cachedValues() -> [StorageValue]? {
        guard let stamp = row.listStamp, let cache, cache.stamp == stamp else { return nil }
        return cache.values
    }

    var count: Int {
        row.readList(column) { table, columnKey in
            if let values = cachedValues() { return values.count }
            // Read from the list's header, without decoding it: appending in a loop asks for the count each time.
            return try table.listCount(row.key, column: columnKey)
        } ?? 0
    }

    func element(at index: Int) -> Element {
        let value = row.readList(column) { table, columnKey -> StorageValue? in
            var values = cachedValues()
            if values == nil, let stamp = row.listStamp {
                let read = try table.list(row.key, column: columnKey)
                cache = (stamp, read)
                values = read
            }
            if let values, values.indices.contains(index) { return values[index] }
            // No stamp to keep the values with (a migration's row), or an index the list does not have: the table
            // reads the one element, and reports a bad index.
            return try table.listElement(row.key, column: columnKey, at: index)
        }
        return value.flatMap(element(from:)) ?? placeholder()
    }

    /// Replaces every element with `elements`, in one write of the list (not one per element).
    func replaceAll(with elements: [Element]) {
        row.changeList(column) { table, columnKey in
            let values = try elements.map(storageValue)
            try table.set(row.key, column: columnKey, to: .list(values))
        }
    }

    func replaceElement(at index: Int, with element: Element) {
        row.changeList(column) { try $0.listSet(row.key, column: $1, at: index, to: try storageValue(element)) }
    }

    func insert(_ element: Element, at index: Int) {
        row.changeList(column) { try $0.listInsert(row.key, column: $1, try storageValue(element), at: index) }
    }

    func removeElement(at index: Int) {
        row.changeList(column) { try $0.listRemove(row.key, column: $1, at: index) }
    }

    func moveElement(from source: Int, to destination: Int) {
        row.changeList(column) { try $0.listMove(row.key, column: $1, from: source, to: destination) }
    }

    func removeAll() {
        row.changeList(column) { try $0.listClear(row.key, column: $1) }
    }
}
