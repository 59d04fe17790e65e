extension Table {
    /// The elements of a list column (links as `.link`).
    package func list(_ key: ObjectKey, column: ColumnKey) throws -> [StorageValue] {
        guard case .list(let elements) = try value(key, column: column) else { throw notAList(column) }
        return elements
    }

    /// The number of elements of a list column, read from the list's header without decoding it.
    package func listCount(_ key: ObjectKey, column: ColumnKey) throws -> Int {
        guard case .list = self.column(column)?.type else { throw notAList(column) }
        guard let raw = try bytes(key, column), raw.count >= 4 else { return 0 }
        return Int(UInt32(raw[0]) | UInt32(raw[1]) << 8 | UInt32(raw[2]) << 16 | UInt32(raw[3]) << 24)
    }

    /// The element at `index`.
    package func listElement(_ key: ObjectKey, column: ColumnKey, at index: Int) throws -> StorageValue {
        let elements = try list(key, column: column)
        try checkIndex(index, count: elements.count, column)
        return elements[index]
    }

    /// Inserts `value` at `index` (0...count).
    package func listInsert(_ key: ObjectKey, column: ColumnKey, _ value: StorageValue, at index: Int) throws {
        var elements = try list(key, column: column)
        try checkIndex(index, count: elements.count + 1, column)
        elements.insert(value, at: index)
        try set(key, column: column, to: .list(elements))
    }

    /// Appends `value`.
    package func listAppend(_ key: ObjectKey, column: ColumnKey, _ value: StorageValue) throws {
        var elements = try list(key, column: column)
        elements.append(value)
        try set(key, column: column, to: .list(elements))
    }

    /// Removes the element at `index`.
    package func listRemove(_ key: ObjectKey, column: ColumnKey, at index: Int) throws {
        var elements = try list(key, column: column)
        try checkIndex(index, count: elements.count, column)
        elements.remove(at: index)
        try set(key, column: column, to: .list(elements))
    }

    /// Moves the element at `from` so that it ends at `to`.
    package func listMove(_ key: ObjectKey, column: ColumnKey, from: Int, to: Int) throws {
        var elements = try list(key, column: column)
        try checkIndex(from, count: elements.count, column)
        try checkIndex(to, count: elements.count, column)
        let element = elements.remove(at: from)
        elements.insert(element, at: to)
        try set(key, column: column, to: .list(elements))
    }

    /// Replaces the element at `index`.
    package func listSet(_ key: ObjectKey, column: ColumnKey, at index: Int, to value: StorageValue) throws {
        var elements = try list(key, column: column)
        try checkIndex(index, count: elements.count, column)
        elements[index] = value
        try set(key, column: column, to: .list(elements))
    }

    /// Removes every element.
    package func listClear(_ key: ObjectKey, column: ColumnKey) throws {
        try set(key, column: column, to: .list([]))
    }

    private func checkIndex(_ index: Int, count: Int, _ column: ColumnKey) throws {
        guard index >= 0, index < count else {
            let name = self.column(column)?.name ?? column.description
            throw StrataError.invalidArgument("index \(index) is outside list '\(self.name).\(name)' of \(count) elements")
        }
    }

    private func notAList(_ column: ColumnKey) -> StrataError {
        .invalidArgument("column \(self.column(column)?.name ?? column.description) of table '\(name)' is not a list")
    }
}
