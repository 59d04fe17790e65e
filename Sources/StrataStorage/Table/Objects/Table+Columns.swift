extension Table {
    /// Adds a column, giving every existing object `defaultValue` (or, without one, `nil` for an optional
    /// column, the type's zero value otherwise, an empty list for a list).
    ///
    /// A link or list-of-links column needs `target`; the engine adds the inverse backlinks column to the target.
    /// - Throws: `StrataError.invalidArgument` for a taken name, a missing target or a default of the wrong type.
    /// - Complexity: O(n): every cluster is rewritten.
    @discardableResult
    public func addColumn(
        named name: String, type: ColumnType, nullable: Bool = false, elementsNullable: Bool = false,
        target: TableKey? = nil, defaultValue: StorageValue? = nil
    ) throws -> ColumnKey {
        let writer = try catalog.requireWriter("add column '\(name)' to table '\(self.name)'")
        try Catalog.checkName(name, what: "column")
        guard column(named: name) == nil else {
            throw StrataError.invalidArgument("table '\(self.name)' already has a column named '\(name)'")
        }
        var targetTable: Table?
        switch type {
        case .backlinks:
            throw StrataError.invalidArgument("backlink columns are kept by the engine; add a link or list column instead")
        case .value(.typedLink), .list(.typedLink), .set(.typedLink), .map(.typedLink):
            throw StrataError.invalidArgument("column '\(self.name).\(name)' cannot hold typed links alone; use a mixed (any) column")
        case .value(.link), .list(.link), .set(.link), .map(.link):
            guard let target, let found = catalog.table(target) else {
                throw StrataError.invalidArgument("link column '\(self.name).\(name)' needs the key of an existing target table")
            }
            targetTable = found
        default:
            guard target == nil else { throw StrataError.invalidArgument("column '\(name)' of type \(type) takes no target table") }
        }
        let isLinkValue = type == .value(.link)
        let nullable = isLinkValue || (nullable && !isList(type))
        // A map's link values become nil when their target is deleted, so they are always nullable.
        let elementsNullable = elementsNullable || type == .map(.link)
        let fill: StorageValue
        switch type {
        case .list, .set: fill = defaultValue ?? .list([])
        case .map: fill = defaultValue ?? .map([:])
        case .value(let kind): fill = defaultValue ?? (nullable ? .null : StorageValue.zero(of: kind))
        case .backlinks: fill = .null
        }
        var spec = ColumnSpec(key: ColumnKey(rawValue: nextColumnKey), name: name, type: type, isNullable: nullable,
                              elementsNullable: elementsNullable, target: target, origin: nil, defaultValue: fill)
        try checkDefault(&spec)
        nextColumnKey += 1
        try appendColumn(spec, writer: writer)
        if let targetTable {
            let backlinks = ColumnSpec(
                key: ColumnKey(rawValue: targetTable.nextColumnKey), name: "@backlinks(\(key.rawValue).\(spec.key.rawValue))",
                type: .backlinks, isNullable: false, elementsNullable: false, target: key, origin: spec.key, defaultValue: .null)
            targetTable.nextColumnKey += 1
            try targetTable.appendColumn(backlinks, writer: writer)
        }
        return spec.key
    }

    /// Whether the column holds a collection (a list, set or map), which is never null itself.
    private func isList(_ type: ColumnType) -> Bool {
        type.elementKind != nil
    }

    private func checkDefault(_ spec: inout ColumnSpec) throws {
        let value = spec.defaultValue
        switch spec.type {
        case .value(.link):
            guard value.isNull else { throw StrataError.invalidArgument("link column '\(spec.name)' can only default to nil") }
        case .value(let kind):
            guard ValueCodec.accepts(value, kind: kind, nullable: spec.isNullable) else {
                throw StrataError.invalidArgument("default \(value) does not fit column '\(spec.name)' of type \(spec.type)")
            }
        case .list(let kind), .set(let kind):
            guard case .list(let elements) = value, kind != .link || elements.isEmpty,
                  elements.allSatisfy({ ValueCodec.accepts($0, kind: kind, nullable: spec.elementsNullable) }) else {
                throw StrataError.invalidArgument("default \(value) does not fit list column '\(spec.name)' of type \(spec.type)")
            }
            if case .set = spec.type { spec.defaultValue = .list(CollectionCodec.normalizedSet(elements)) }
        case .map(let kind):
            guard case .map(let entries) = value, kind != .link || entries.isEmpty,
                  entries.values.allSatisfy({ ValueCodec.accepts($0, kind: kind, nullable: spec.elementsNullable) }) else {
                throw StrataError.invalidArgument("default \(value) does not fit map column '\(spec.name)' of type \(spec.type)")
            }
        case .backlinks: break
        }
    }

    func appendColumn(_ spec: ColumnSpec, writer: NodeWriter) throws {
        context.specs.append(spec)
        try tree.updateEveryLeaf(in: writer) { cluster in
            let column = ColumnBuffer(spec: spec)
            for _ in 0..<cluster.rowCount { try column.append(spec.defaultValue) }
            cluster.columns.append(column)
        }
    }

    /// Removes a column and its data (and, for a link, the target's backlinks; indexes on it are dropped).
    /// - Throws: `StrataError.invalidArgument` for an unknown column or a backlinks column.
    /// - Complexity: O(n): every cluster is rewritten.
    package func removeColumn(_ column: ColumnKey) throws {
        let writer = try catalog.requireWriter("remove a column of table '\(name)'")
        let index = try position(of: column)
        let spec = context.specs[index]
        guard spec.type != .backlinks else {
            throw StrataError.invalidArgument("column '\(spec.name)' is kept by the engine; remove the link column it mirrors")
        }
        for sorted in indexes where sorted.spec.columns.contains(column) { try removeIndex(sorted.spec.key) }
        if primaryKey == column { primaryKey = nil }
        // The embedded objects the column owns lose their slots with it, and are deleted.
        var owned: [ObjectKey] = []
        if embeddedTarget(of: spec) != nil {
            try forEachKey { object in
                owned += Table.linkTargets(try value(object, column: column))
                return true
            }
        }
        try dropColumn(at: index, writer: writer)
        if spec.type.isLink, let target = spec.target, let targetTable = catalog.table(target),
           let backlinks = targetTable.columns.firstIndex(where: { $0.type == .backlinks && $0.target == key && $0.origin == column }) {
            try targetTable.dropColumn(at: backlinks, writer: writer)
            if targetTable.isEmbedded { try targetTable.deleteOrphans(owned) }
        }
        if spec.type.isMixed {
            // A mixed column's backlinks may be in any table (made where its values first linked).
            for targetTable in catalog.tables {
                if let backlinks = targetTable.columns.firstIndex(where: { $0.type == .backlinks && $0.target == key && $0.origin == column }) {
                    try targetTable.dropColumn(at: backlinks, writer: writer)
                }
            }
        }
    }

    private func dropColumn(at index: Int, writer: NodeWriter) throws {
        try tree.updateEveryLeaf(in: writer) { cluster in
            let removed = cluster.columns.remove(at: index)
            for blob in removed.blobs where !blob.external.isNone { writer.free(blob.external) }
        }
        context.specs.remove(at: index)
    }

    /// Renames a column; its key and data stay.
    package func renameColumn(_ column: ColumnKey, to newName: String) throws {
        try catalog.requireWriter("rename a column of table '\(name)'")
        try Catalog.checkName(newName, what: "column")
        let index = try position(of: column)
        guard self.column(named: newName) == nil else {
            throw StrataError.invalidArgument("table '\(name)' already has a column named '\(newName)'")
        }
        context.specs[index].name = newName
    }

    /// The next value of the sequence `name` (1, 2, 3, …), safe because only the single writer calls it.
    ///
    /// - Throws: `StrataError.invalidArgument` once the sequence has handed out `Int64.max` (an explicit primary key
    ///   of `Int.max` raises it there), instead of overflowing.
    package func nextSequenceValue(_ name: String) throws -> Int64 {
        try catalog.requireWriter("advance sequence '\(name)' of table '\(self.name)'")
        let current = sequences[name] ?? 0
        guard current < .max else {
            throw StrataError.invalidArgument(
                "sequence '\(name)' of table '\(self.name)' has reached \(Int64.max), the largest integer: it has no next value")
        }
        sequences[name] = current + 1
        return current + 1
    }

    /// The last value handed out by sequence `name` (0 if none).
    package func currentSequenceValue(_ name: String) -> Int64 { sequences[name] ?? 0 }

    /// Raises sequence `name` to at least `value` (for example after inserting explicit primary keys).
    package func raiseSequence(_ name: String, toAtLeast value: Int64) throws {
        try catalog.requireWriter("raise sequence '\(name)' of table '\(self.name)'")
        sequences[name] = max(sequences[name] ?? 0, value)
    }

    // MARK: Persisting

    func flush(in writer: NodeWriter) throws -> TableRecord {
        var record = TableRecord(key: key, name: name)
        record.primaryKey = primaryKey
        record.nextObjectKey = nextObjectKey
        record.sequences = sequences
        record.nextColumnKey = nextColumnKey
        record.nextIndexKey = nextIndexKey
        record.isEmbedded = isEmbedded
        record.columns = context.specs
        record.clusterRoot = try tree.flush(in: writer)
        record.indexes = try indexes.map { ($0.spec, try $0.tree.flush(in: writer), $0.isImplied) }
        return record
    }

    /// Writes decoded clusters and index leaves out when too many are held, to bound a transaction's memory.
    func trimIfNeeded() throws {
        guard let writer else { return }
        if tree.loadedLeaves > Catalog.loadedLeafLimit { _ = try tree.flush(in: writer) }
        for index in indexes where index.nodes.loadedLeaves > Catalog.loadedLeafLimit { _ = try index.nodes.flush(in: writer) }
    }

    func destroy(in writer: NodeWriter) throws {
        try tree.destroy(in: writer) { raw, ref in try ClusterView(raw, ref: ref).externalRefs() }
        for index in indexes { try index.destroy(in: writer) }
        indexes.removeAll()
    }
}
