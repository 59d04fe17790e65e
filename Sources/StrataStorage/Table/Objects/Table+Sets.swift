extension Table {
    /// The elements of a set column, in set order (docs/FILE-FORMAT.md, "Column block").
    package func setElements(_ key: ObjectKey, column: ColumnKey) throws -> [StorageValue] {
        let kind = try setKind(column)
        let raw = try bytes(key, column) ?? []
        return try raw.withUnsafeBytes { try CollectionCodec.decodeSet($0, kind: kind, ref: .none) }
    }

    /// The number of elements of a set column, read from its header without decoding it.
    package func setCount(_ key: ObjectKey, column: ColumnKey) throws -> Int {
        _ = try setKind(column)
        return (try bytes(key, column) ?? []).withUnsafeBytes { CollectionCodec.count($0) }
    }

    /// Whether the set holds `element`.
    /// - Complexity: O(log n) element decodes (a binary search over the stored offsets).
    package func setContains(_ key: ObjectKey, column: ColumnKey, _ element: StorageValue) throws -> Bool {
        let kind = try setKind(column)
        let raw = try bytes(key, column) ?? []
        return try raw.withUnsafeBytes { try CollectionCodec.setContains($0, element, kind: kind) }
    }

    /// Adds `element` unless the set holds it already; returns whether it was added.
    @discardableResult
    package func setInsert(_ key: ObjectKey, column: ColumnKey, _ element: StorageValue) throws -> Bool {
        var elements = try setElements(key, column: column)
        let (index, found) = CollectionCodec.position(of: element, in: elements)
        guard !found else { return false }
        elements.insert(element, at: index)
        try set(key, column: column, to: .list(elements))
        return true
    }

    /// Removes `element` if the set holds it; returns whether it was there.
    @discardableResult
    package func setRemove(_ key: ObjectKey, column: ColumnKey, _ element: StorageValue) throws -> Bool {
        var elements = try setElements(key, column: column)
        let (index, found) = CollectionCodec.position(of: element, in: elements)
        guard found else { return false }
        elements.remove(at: index)
        try set(key, column: column, to: .list(elements))
        return true
    }

    /// The element kind of set column `column`; throws when it is not a set.
    private func setKind(_ column: ColumnKey) throws -> ValueKind {
        guard case .set(let kind) = self.column(column)?.type else {
            throw StrataError.invalidArgument(
                "column \(self.column(column)?.name ?? column.description) of table '\(name)' is not a set")
        }
        return kind
    }
}
