/// Bulk writes that bypass indexes and links: one cluster decoded per batch of values instead of per value. Migrations
/// fill whole columns with them (`MigrationSession`).
extension Table {
    /// One value to write with ``setUnindexedValues(_:)``: a column of an object and its new value.
    package struct UnindexedValue: Sendable {
        /// The object.
        package var key: ObjectKey
        /// The column, which must be neither indexed nor a link (nor a list of links).
        package var column: ColumnKey
        /// The new value, of the column's type.
        package var value: StorageValue

        /// Creates a value to write.
        package init(key: ObjectKey, column: ColumnKey, value: StorageValue) {
            self.key = key
            self.column = column
            self.value = value
        }
    }

    /// Whether ``setUnindexedValues(_:)`` can write `column`: it is not indexed and holds no links, so a change
    /// touches one cluster and nothing else.
    package func acceptsUnindexedValues(in column: ColumnKey) -> Bool {
        guard let spec = self.column(column), spec.type != .backlinks, !spec.type.mayLink else { return false }
        return !indexes.contains { $0.spec.columns.contains(column) }
    }

    /// Writes many values of unindexed, link-free columns, one cluster at a time: what a migration does when it
    /// fills a column for every object. `set(_:column:to:)` reshapes the tree after each value; this decodes each
    /// cluster once for all the changes that fall in it, so filling a column costs O(n) rather than O(n × cluster).
    ///
    /// Changes are applied in key order; later changes to the same cell win.
    /// - Throws: `StrataError.invalidArgument` for an indexed or link column, a value of the wrong type or a
    ///   missing object (nothing is written when a column or value is refused; a missing object is found while
    ///   writing, so the write transaction must then be rolled back).
    package func setUnindexedValues(_ changes: [UnindexedValue]) throws {
        let writer = try catalog.requireWriter("change table '\(name)'")
        var positions: [ColumnKey: Int] = [:]
        for change in changes where positions[change.column] == nil {
            guard acceptsUnindexedValues(in: change.column) else {
                throw StrataError.invalidArgument(
                    "column \(change.column) of table '\(name)' is indexed or holds links: set its values one by one")
            }
            positions[change.column] = try position(of: change.column)
        }
        for change in changes {
            guard let index = positions[change.column] else { continue }
            try check(change.value, for: context.specs[index])
        }
        if let log = catalog.changeLog {
            for change in changes where try contains(change.key) {
                try log.willChange(change.key, column: change.column, of: self)
            }
        }
        let sorted = changes.enumerated().sorted { ($0.element.key, $0.offset) < ($1.element.key, $1.offset) }.map(\.element)
        var next = 0
        while next < sorted.count {
            let first = sorted[next]
            let applied: Int = try tree.update(ByteOrder.key(first.key.rawValue)) { cluster in
                var current = next
                while current < sorted.count, let index = positions[sorted[current].column] {
                    let (row, present) = cluster.position(of: sorted[current].key.rawValue)
                    guard present else { break }
                    let freed = try cluster.columns[index].set(sorted[current].value, at: row)
                    if !freed.isNone { writer.free(freed) }
                    current += 1
                }
                return current - next
            }
            guard applied > 0 else { throw missing(first.key) }
            next += applied
            try trimIfNeeded()
        }
    }
}
