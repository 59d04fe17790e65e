extension Table {
    /// The keys of the objects whose column `column` of table `origin` links to `key`, ascending, once per link
    /// (an object whose list holds `key` twice appears twice).
    /// - Complexity: O(links to the object).
    package func backlinks(of key: ObjectKey, from origin: TableKey, column: ColumnKey) throws -> [ObjectKey] {
        guard let spec = backlinkColumn(origin: origin, column: column) else {
            throw StrataError.invalidArgument("no link column \(column) of table \(origin) points at table '\(name)'")
        }
        return Table.linkTargets(try value(key, column: spec.key))
    }

    /// The objects whose column `column` of table `origin` links to any of `keys`, once per link, in the order of
    /// `keys` (each key's backlinks ascending): ``backlinks(of:from:column:)`` for many objects at once.
    ///
    /// Each backlink list is read where it lies, without decoding it into an array of its own; `keys` in ascending
    /// order (as an index returns the objects of one value) find most rows in the cluster read for the one before.
    /// - Complexity: O(keys + links), plus a descent per cluster the keys fall in.
    package func backlinks(of keys: [ObjectKey], from origin: TableKey, column: ColumnKey) throws -> [ObjectKey] {
        var result: [ObjectKey] = []
        result.reserveCapacity(keys.count)
        try forEachBacklinkList(of: keys, from: origin, column: column) { raw in
            guard raw.count >= 4 else { return }
            let count = Int(raw.loadUnaligned(as: UInt32.self).littleEndian)
            guard raw.count >= 4 + count * 8 else { throw backlinksDamage(raw.count, count) }
            for offset in 0..<count {
                let key = raw.loadUnaligned(fromByteOffset: 4 + offset * 8, as: Int64.self)
                result.append(ObjectKey(Int64(littleEndian: key)))
            }
        }
        return result
    }

    /// How many of `keys` at least one object links to through column `column` of table `origin`, read as
    /// ``backlinks(of:from:column:)`` reads, without collecting the linking objects.
    package func linkedCount(of keys: [ObjectKey], from origin: TableKey, column: ColumnKey) throws -> Int {
        var total = 0
        try forEachBacklinkList(of: keys, from: origin, column: column) { raw in
            if raw.count >= 4, raw.loadUnaligned(as: UInt32.self) != 0 { total += 1 }
        }
        return total
    }

    /// Runs `body` on the stored backlinks (`ValueCodec.encodeBacklinks`'s bytes, empty for none) of each of
    /// `keys` in the column mirroring `column` of `origin`.
    private func forEachBacklinkList(
        of keys: [ObjectKey], from origin: TableKey, column: ColumnKey, _ body: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        guard let spec = backlinkColumn(origin: origin, column: column) else {
            throw StrataError.invalidArgument("no link column \(column) of table \(origin) points at table '\(name)'")
        }
        let index = try position(of: spec.key)
        for key in keys {
            switch try locate(key) {
            case .none: throw missing(key)
            case .loaded(let cluster, let row):
                let buffer = cluster.columns[index]
                if buffer.isNull(row) { try body(UnsafeRawBufferPointer(start: nil, count: 0)); continue }
                try blobBytes(buffer.blobs[row]).withUnsafeBytes(body)
            case .stored(let view, let row):
                let block = try storedBlock(view, index)
                if block.isNull(row) { try body(UnsafeRawBufferPointer(start: nil, count: 0)); continue }
                try withBlob(block, row, body)
            }
        }
    }

    private func backlinksDamage(_ length: Int, _ count: Int) -> StrataError {
        StrataError.corruptFile(
            path: StrataError.unnamedFile, location: "table '\(name)', backlinks",
            detail: "\(length) bytes cannot hold \(count) backlinks")
    }

    /// How many links point at `key`, over every link and list column of every table.
    package func backlinkCount(of key: ObjectKey) throws -> Int {
        var total = 0
        for spec in context.specs where spec.type == .backlinks {
            total += Table.linkTargets(try value(key, column: spec.key)).count
        }
        return total
    }

    /// The backlinks column mirroring `column` of table `origin`.
    func backlinkColumn(origin: TableKey, column: ColumnKey) -> ColumnSpec? {
        backlinkPosition(origin: origin, column: column).map { context.specs[$0] }
    }

    /// The storage position of the backlinks column mirroring `column` of table `origin`: what an insert with an
    /// embedded object writes, found without copying a column's description (its name, its default) per insert.
    func backlinkPosition(origin: TableKey, column: ColumnKey) -> Int? {
        let specs = context.specs
        for position in specs.indices
        where specs[position].type == .backlinks && specs[position].target == origin && specs[position].origin == column {
            return position
        }
        return nil
    }

    func addBacklink(to target: LinkTarget, from source: ObjectKey, column: ColumnSpec) throws {
        try changeBacklinks(of: target, column: column) { keys in
            keys.insert(source.rawValue, at: keys.partitionIndex { $0 > source.rawValue })
        }
    }

    func removeBacklink(to target: LinkTarget, from source: ObjectKey, column: ColumnSpec) throws {
        try changeBacklinks(of: target, column: column) { keys in
            if let index = keys.firstIndex(of: source.rawValue) { keys.remove(at: index) }
        }
    }

    /// Drops one backlink of `target` per element of `sources` (links from `column` of this table), rewriting the
    /// target's backlinks once: a batched delete's removals of one surviving object.
    func removeBacklinks(to target: LinkTarget, from sources: [ObjectKey], column: ColumnSpec) throws {
        try changeBacklinks(of: target, column: column) { keys in
            for source in sources {
                if let index = keys.firstIndex(of: source.rawValue) { keys.remove(at: index) }
            }
        }
    }

    private func changeBacklinks(of link: LinkTarget, column: ColumnSpec, _ change: (inout [Int64]) -> Void) throws {
        let target = link.key
        guard let table = catalog.table(link.table) else {
            throw StrataError.invalidArgument("'\(name).\(column.name)' links to table \(link.table), which does not exist")
        }
        let writer = try catalog.requireWriter("update backlinks")
        var mirror = table.backlinkColumn(origin: key, column: column.key)
        if mirror == nil, column.type.isMixed {
            mirror = try table.addMixedBacklinks(origin: self, column: column, writer: writer)
        }
        guard let spec = mirror else {
            throw StrataError.invalidArgument("link column '\(name).\(column.name)' has no backlinks in its target table")
        }
        let index = try table.position(of: spec.key)
        if let log = catalog.changeLog, try table.contains(target) {
            try log.willChange(target, column: spec.key, of: table)
        }
        var found = false
        try table.tree.update(ByteOrder.key(target.rawValue)) { cluster in
            let (row, present) = cluster.position(of: target.rawValue)
            guard present else { return }
            found = true
            let buffer = cluster.columns[index]
            let old = buffer.blobs[row]
            var keys = try table.blobBytes(old).withUnsafeBytes { try ValueCodec.decodeBacklinks($0, ref: old.external) }
            change(&keys)
            buffer.replaceBlob(at: row, with: Blob(ValueCodec.encodeBacklinks(keys)))
            if !old.external.isNone { writer.free(old.external) }
        }
        guard found else { throw table.missing(target) }
    }

    /// Removes every link from `source`'s column `column` to `target` (nils a link and map values; drops list and
    /// set elements; nils mixed values and mixed list elements, which stay in their list; drops mixed set
    /// elements), without touching `target`'s backlinks: used while `target` is being deleted.
    func unlink(_ source: ObjectKey, column: ColumnKey, from target: LinkTarget) throws {
        let index = try position(of: column)
        let typed = StorageValue.typedLink(target.table, target.key)
        switch try value(source, column: column) {
        case .link(let current) where current == target.key:
            try writeRaw(source, index, .null)
        case let current where current == typed:
            // A mixed column may be indexed (links and lists never are): its entry follows the value.
            for sorted in indexes where sorted.spec.columns.contains(column) {
                try sorted.remove(sorted.encode(try indexValues(sorted, key: source, override: nil)), key: source)
                try sorted.insert(sorted.encode(try indexValues(sorted, key: source, override: (column, .null))), key: source)
            }
            try writeRaw(source, index, .null)
        case .list(let elements):
            if elements.contains(typed) {
                // A mixed list keeps the element's place; a set (of distinct values) drops it.
                if case .set = self.column(column)?.type {
                    try writeRaw(source, index, .list(elements.filter { $0 != typed }))
                } else {
                    try writeRaw(source, index, .list(elements.map { $0 == typed ? .null : $0 }))
                }
            } else {
                let kept = elements.filter { $0 != .link(target.key) }
                if kept.count != elements.count { try writeRaw(source, index, .list(kept)) }
            }
        case .map(var entries):
            // A map keeps its keys: the values that linked to `target` become nil.
            let keys = entries.filter { $0.value == .link(target.key) || $0.value == typed }.map(\.key)
            guard !keys.isEmpty else { break }
            for key in keys { entries[key] = .null }
            try writeRaw(source, index, .map(entries))
        default: break
        }
    }

    /// Adds the backlinks column for the mixed column `column` of `origin` to this table: made the first time a
    /// mixed value links here, so a table nothing links to through mixed values carries no such column.
    private func addMixedBacklinks(origin: Table, column: ColumnSpec, writer: NodeWriter) throws -> ColumnSpec {
        let spec = ColumnSpec(
            key: ColumnKey(rawValue: nextColumnKey), name: "@backlinks(\(origin.key.rawValue).\(column.key.rawValue))",
            type: .backlinks, isNullable: false, elementsNullable: false, target: origin.key, origin: column.key,
            defaultValue: .null)
        nextColumnKey += 1
        try appendColumn(spec, writer: writer)
        return spec
    }

    /// The objects a value of the link, list-of-links or mixed column `spec` links to (in list order, or key order
    /// for a map, with repeats); none for a column of another type.
    func linkTargets(_ value: StorageValue, of spec: ColumnSpec) -> [LinkTarget] {
        if spec.type.isLink {
            guard let table = spec.target else { return [] }
            return Table.linkTargets(value).map { LinkTarget(table: table, key: $0) }
        }
        guard spec.type.isMixed else { return [] }
        switch value {
        case .typedLink(let table, let key): return [LinkTarget(table: table, key: key)]
        case .list(let elements):
            return elements.compactMap {
                if case .typedLink(let table, let key) = $0 { return LinkTarget(table: table, key: key) } else { return nil }
            }
        case .map(let entries):
            return entries.sorted { $0.key < $1.key }.compactMap {
                if case .typedLink(let table, let key) = $0.value { return LinkTarget(table: table, key: key) }
                return nil
            }
        default: return []
        }
    }
}

/// An object a link points at: its table and its key.
struct LinkTarget: Hashable {
    /// The table holding the object.
    var table: TableKey
    /// The object's key.
    var key: ObjectKey
}
