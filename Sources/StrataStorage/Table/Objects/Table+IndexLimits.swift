extension Table {
    /// At most `limit` of the objects ``lookup(_:equal:)`` returns, in index order: lets a query planner tell a
    /// selective lookup from a wide one without reading a wide one whole.
    public func lookup(_ index: IndexKey, equal values: [StorageValue], limit: Int) throws -> [ObjectKey] {
        try sortedIndex(index).keys(withPrefix: IndexKeyEncoding.encode(values), limit: limit)
    }

    /// At most `limit` of the objects ``lookup(_:leading:prefix:)`` returns, in index order.
    public func lookup(_ index: IndexKey, leading: [StorageValue] = [], prefix: String, limit: Int) throws -> [ObjectKey] {
        try sortedIndex(index).keys(withPrefix: IndexKeyEncoding.stringPrefix(prefix, after: leading), limit: limit)
    }
}
