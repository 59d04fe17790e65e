extension Catalog {
    /// Copies everything this catalog holds into `destination`, the empty catalog of another store's write
    /// transaction: tables, columns, objects with their keys, lists, links (backlinks are rebuilt by the
    /// engine), indexes, primary keys, sequences and metadata. The copy is compact: it holds only live data.
    ///
    /// - Throws: `StrataError.invalidArgument` when `destination` is not empty or not writable; read errors of
    ///   this catalog (a damaged file).
    package func copy(into destination: Catalog) throws {
        guard destination.tables.isEmpty else {
            throw StrataError.invalidArgument("a catalog copy needs an empty destination; it has tables")
        }
        var copies: [TableKey: Table] = [:]
        for table in tables {
            let copy = try destination.createTable(named: table.name)
            try copy.setEmbedded(table.isEmbedded)
            copies[table.key] = copy
        }
        func copyOf(_ key: TableKey?) -> TableKey? { key.flatMap { copies[$0]?.key } }

        for table in tables {
            guard let copy = copies[table.key] else { continue }
            for spec in table.columns where spec.type != .backlinks {
                try copy.addColumn(
                    named: spec.name, type: spec.type, nullable: spec.isNullable,
                    elementsNullable: spec.elementsNullable, target: copyOf(spec.target),
                    defaultValue: spec.type.isLink ? nil : spec.defaultValue)
            }
        }
        // Objects first, links second: a link may point at an object of a table copied later.
        for table in tables {
            guard let copy = copies[table.key] else { continue }
            let values = table.columns.filter { $0.type != .backlinks && !$0.type.mayLink }
            try table.forEachKey { key in
                let row = try values.map { spec -> (ColumnKey, StorageValue) in
                    (try column(named: spec.name, in: copy), try table.value(key, column: spec.key))
                }
                try copy.insert(row, key: key)
                return true
            }
        }
        for table in tables {
            guard let copy = copies[table.key] else { continue }
            for spec in table.columns where spec.type.mayLink {
                let target = try column(named: spec.name, in: copy)
                try table.forEachKey { key in
                    let value = Catalog.retarget(try table.value(key, column: spec.key)) { copyOf($0) ?? $0 }
                    if value != .null, value != .list([]), value != .map([:]) { try copy.set(key, column: target, to: value) }
                    return true
                }
            }
            if let primaryKey = table.primaryKey, let name = table.column(primaryKey)?.name {
                try copy.setPrimaryKey(try column(named: name, in: copy))
            }
            for index in table.indexSpecs where !(index.isUnique && index.columns == [table.primaryKey].compactMap { $0 }) {
                let columns = try index.columns.map { key -> ColumnKey in
                    guard let name = table.column(key)?.name else {
                        throw NodeDamage.error(.none, "index of table '\(table.name)'", "names a missing column \(key)")
                    }
                    return try column(named: name, in: copy)
                }
                try copy.addIndex(on: columns, unique: index.isUnique)
            }
            for index in table.fullTextIndexSpecs {
                guard let name = index.columns.first.flatMap({ table.column($0)?.name }) else {
                    throw NodeDamage.error(.none, "full-text index of table '\(table.name)'", "names a missing column")
                }
                try copy.addFullTextIndex(on: try column(named: name, in: copy))
            }
            for (name, value) in table.sequences { try copy.raiseSequence(name, toAtLeast: value) }
        }
        for key in try metadataKeys() { try destination.setMetadata(try metadata(forKey: key), forKey: key) }
    }

    /// `value` with the table keys of its typed links (alone or in a list) mapped through `table`.
    private static func retarget(_ value: StorageValue, _ table: (TableKey) -> TableKey) -> StorageValue {
        switch value {
        case .typedLink(let origin, let key): return .typedLink(table(origin), key)
        case .list(let elements): return .list(elements.map { retarget($0, table) })
        case .map(let entries): return .map(entries.mapValues { retarget($0, table) })
        default: return value
        }
    }

    private func column(named name: String, in table: Table) throws -> ColumnKey {
        guard let spec = table.column(named: name) else {
            throw StrataError.invalidArgument("the copy of table '\(table.name)' has no column '\(name)'")
        }
        return spec.key
    }
}
