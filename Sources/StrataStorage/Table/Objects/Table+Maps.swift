extension Table {
    /// The entries of a map column (docs/FILE-FORMAT.md, "Column block").
    package func mapEntries(_ key: ObjectKey, column: ColumnKey) throws -> [String: StorageValue] {
        let kind = try mapKind(column)
        let raw = try bytes(key, column) ?? []
        return try raw.withUnsafeBytes { try CollectionCodec.decodeMap($0, kind: kind, ref: .none) }
    }

    /// The number of entries of a map column, read from its header without decoding it.
    package func mapCount(_ key: ObjectKey, column: ColumnKey) throws -> Int {
        _ = try mapKind(column)
        return (try bytes(key, column) ?? []).withUnsafeBytes { CollectionCodec.count($0) }
    }

    /// The value under `mapKey`, or `nil` when the map has no such key (a present key may hold `.null`).
    /// - Complexity: O(log n) key comparisons (a binary search over the stored offsets).
    package func mapValue(_ key: ObjectKey, column: ColumnKey, for mapKey: String) throws -> StorageValue? {
        let kind = try mapKind(column)
        let raw = try bytes(key, column) ?? []
        return try raw.withUnsafeBytes { try CollectionCodec.mapValue($0, key: mapKey, kind: kind) }
    }

    /// Sets the value under `mapKey` (adding the key when it is new).
    package func mapSet(_ key: ObjectKey, column: ColumnKey, for mapKey: String, to value: StorageValue) throws {
        var entries = try mapEntries(key, column: column)
        entries[mapKey] = value
        try set(key, column: column, to: .map(entries))
    }

    /// Removes `mapKey` and its value; returns the value it held, `nil` when there was no such key.
    @discardableResult
    package func mapRemove(_ key: ObjectKey, column: ColumnKey, for mapKey: String) throws -> StorageValue? {
        var entries = try mapEntries(key, column: column)
        guard let removed = entries.removeValue(forKey: mapKey) else { return nil }
        try set(key, column: column, to: .map(entries))
        return removed
    }

    /// The element kind of map column `column`; throws when it is not a map.
    private func mapKind(_ column: ColumnKey) throws -> ValueKind {
        guard case .map(let kind) = self.column(column)?.type else {
            throw StrataError.invalidArgument(
                "column \(self.column(column)?.name ?? column.description) of table '\(name)' is not a map")
        }
        return kind
    }
}
