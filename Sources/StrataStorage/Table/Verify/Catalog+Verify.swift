extension Catalog {
    /// Checks every structural invariant of the table layer and throws at the first broken one:
    /// clusters hold strictly increasing keys and one block of the right kind per column; tree counts match;
    /// every link and list element points at an existing object; backlinks are exactly the inverse of the links;
    /// every index holds exactly one entry per object with the object's current values; unique indexes hold no
    /// duplicate values. In a write transaction, pending changes are flushed first (as `flush()` does).
    /// - Throws: `StrataError.corruptFile` naming the table, object and column.
    /// - Complexity: O(n log n) over all objects, links and index entries.
    package func verify() throws {
        if writer != nil { try flush() }
        var expectedBacklinks: [TableKey: [ColumnKey: [ObjectKey: [Int64]]]] = [:]
        for table in tables {
            try table.verifyClusters()
            for spec in table.columns where spec.type.isLink {
                guard let targetKey = spec.target, let target = self.table(targetKey),
                      target.backlinkColumn(origin: table.key, column: spec.key) != nil else {
                    throw table.broken("link column '\(spec.name)' has no target table or no backlinks column")
                }
            }
            for spec in table.columns where spec.type.mayLink {
                try table.forEachKey { source in
                    for destination in table.linkTargets(try table.value(source, column: spec.key), of: spec) {
                        guard let target = self.table(destination.table), try target.contains(destination.key) else {
                            throw table.broken("object \(source) links through '\(spec.name)' to missing \(destination.key) "
                                + "of table \(destination.table)")
                        }
                        guard let mirror = target.backlinkColumn(origin: table.key, column: spec.key) else {
                            throw table.broken("'\(spec.name)' links to table '\(target.name)', which has no backlinks column for it")
                        }
                        expectedBacklinks[destination.table, default: [:]][mirror.key, default: [:]][destination.key, default: []]
                            .append(source.rawValue)
                    }
                    return true
                }
            }
        }
        for table in tables {
            for spec in table.columns where spec.type == .backlinks {
                let expected = expectedBacklinks[table.key]?[spec.key] ?? [:]
                try table.forEachKey { key in
                    let actual = Table.linkTargets(try table.value(key, column: spec.key)).map(\.rawValue)
                    guard actual == (expected[key] ?? []).sorted() else {
                        throw table.broken("object \(key) has backlinks \(actual) in '\(spec.name)', "
                            + "but the links say \((expected[key] ?? []).sorted())")
                    }
                    return true
                }
            }
            try table.verifyIndexes()
        }
    }

    /// Calls `body` with every node reachable from the root (catalog, metadata, branches, clusters, long values,
    /// index nodes), each exactly once. The pager's verifier uses it to check that pages are covered exactly once.
    /// In a write transaction, call `flush()` first: the visitor walks what has been written.
    package func forEachNode(_ body: (NodeRef) throws -> Void) throws {
        let root = writer?.root ?? reader.root
        guard !root.isNone else { return }
        try body(root)
        let contents = try CatalogCodec.decode(try reader.read(root), ref: root)
        if !contents.metadata.isNone { try body(contents.metadata) }
        for record in contents.tables {
            let clusters = ClusterTree(root: record.clusterRoot, reader: reader,
                                                   context: ClusterContext(specs: record.columns), what: "clusters of '\(record.name)'")
            try clusters.forEachNode { ref, isLeaf in
                try body(ref)
                if isLeaf { for extra in try ClusterView(try reader.read(ref), ref: ref).externalRefs() { try body(extra) } }
            }
            for (spec, indexRoot, _) in record.indexes {
                let index = SortedIndex(spec: spec, root: indexRoot, reader: reader, table: record.name)
                try index.tree.forEachNode { ref, _ in try body(ref) }
            }
        }
    }
}

extension Table {
    func broken(_ detail: String) -> StrataError {
        .corruptFile(path: StrataError.unnamedFile, location: "table '\(name)'", detail: detail)
    }

    /// Keys ascending across clusters, blocks present with the right kind and row count, counts consistent.
    func verifyClusters() throws {
        var previous: Int64?
        var total = 0
        try forEachCluster { cluster in
            guard cluster.count > 0 else { throw broken("cluster \(cluster.view.ref) is empty") }
            for row in 0..<cluster.count {
                let key = cluster.view.key(at: row)
                if let previous, key <= previous { throw broken("object keys are not ascending at \(ObjectKey(key))") }
                previous = key
                // The one key with no successor may equal the next key (see `Table.insert(row:explicitKey:)`).
                guard key < nextObjectKey || key == .max && nextObjectKey == .max else {
                    throw broken("object \(ObjectKey(key)) is not below the next key \(nextObjectKey)")
                }
            }
            for (index, spec) in columns.enumerated() {
                let block = try storedBlock(cluster.view, index)
                if block.kind == .variable {
                    for row in 0..<block.count {
                        let raw = try withBlob(block, row) { Array($0) }
                        switch spec.type {
                        case .list(let kind): _ = try raw.withUnsafeBytes { try ValueCodec.decodeList($0, kind: kind, ref: cluster.view.ref) }
                        case .backlinks: _ = try raw.withUnsafeBytes { try ValueCodec.decodeBacklinks($0, ref: cluster.view.ref) }
                        case .set, .map: try raw.withUnsafeBytes { try CollectionCodec.checkOrder($0, type: spec.type, ref: cluster.view.ref) }
                        case .value(.string):
                            guard String(validating: raw, as: UTF8.self) != nil else {
                                throw broken("object \(cluster.key(at: row)) has invalid UTF-8 in '\(spec.name)'")
                            }
                        default: break
                        }
                    }
                }
            }
            total += cluster.count
            return true
        }
        let counted = try count()
        guard counted == total else { throw broken("the tree counts \(counted) objects but its clusters hold \(total)") }
        _ = try tree.verifyShape { raw, ref in
            let view = try ClusterView(raw, ref: ref)
            guard view.rowCount > 0 else { return (0, [], []) }
            return (view.rowCount, ByteOrder.key(view.key(at: 0)), ByteOrder.key(view.key(at: view.rowCount - 1)))
        }
    }

    /// Each index holds exactly the entries the table's rows produce, and unique ones no duplicate values.
    func verifyIndexes() throws {
        if let primaryKey, index(on: [primaryKey])?.isUnique != true {
            throw broken("the primary key column has no unique index")
        }
        for index in indexes {
            var expected: [[UInt8]] = []
            // Values a unique index has seen: a uniqueness rule's values with a null in them may repeat (nulls
            // never collide); the primary key's never.
            var seen: Set<[UInt8]> = []
            try forEachKey { key in
                let values = try indexValues(index, key: key, override: nil)
                if index.spec.isUnique, refusesEqual(index, values: values), !seen.insert(index.encode(values)).inserted {
                    throw broken("unique index \(index.spec.key) holds the value \(values) twice")
                }
                expected += indexEntries(index, values: values, key: key)
                return true
            }
            expected.sort { ByteOrder.compare($0, $1) < 0 }
            var actual: [[UInt8]] = []
            if index.spec.isFullText {
                actual = try fullTextEntries(index)
            } else {
                try index.forEachEntry(from: []) { entry in
                    actual.append(Array(entry))
                    return true
                }
            }
            guard actual == expected else {
                throw broken("index \(index.spec.key) holds \(actual.count) entries that differ from the \(expected.count) its rows give")
            }
            // An implied index has no nodes: matching the rows above is all there is to check.
            if index.isImplied { continue }
            var stored = actual.count
            if index.keepsPostingBlocks { stored = try fullTextSize(index.spec.key).entries }
            guard try index.tree.count() == stored else {
                throw broken("index \(index.spec.key) miscounts its entries")
            }
            _ = try index.tree.verifyShape { raw, ref in
                let view = try IndexLeafView(raw, ref: ref)
                guard view.count > 0 else { return (0, [], []) }
                return (view.count, Array(try view.entry(0)), Array(try view.entry(view.count - 1)))
            }
        }
    }
}
