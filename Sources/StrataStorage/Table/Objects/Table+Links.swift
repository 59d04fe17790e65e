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
        context.specs.first { $0.type == .backlinks && $0.target == origin && $0.origin == column }
    }

    func addBacklink(to target: ObjectKey, from source: ObjectKey, column: ColumnSpec) throws {
        try changeBacklinks(of: target, column: column) { keys in
            keys.insert(source.rawValue, at: keys.partitionIndex { $0 > source.rawValue })
        }
    }

    func removeBacklink(to target: ObjectKey, from source: ObjectKey, column: ColumnSpec) throws {
        try changeBacklinks(of: target, column: column) { keys in
            if let index = keys.firstIndex(of: source.rawValue) { keys.remove(at: index) }
        }
    }

    private func changeBacklinks(of target: ObjectKey, column: ColumnSpec, _ change: (inout [Int64]) -> Void) throws {
        guard let targetKey = column.target, let table = catalog.table(targetKey),
              let spec = table.backlinkColumn(origin: key, column: column.key) else {
            throw StrataError.invalidArgument("link column '\(name).\(column.name)' has no backlinks in its target table")
        }
        let writer = try catalog.requireWriter("update backlinks")
        let index = try table.position(of: spec.key)
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
    /// set elements), without
    /// touching `target`'s backlinks: used while `target` is being deleted.
    func unlink(_ source: ObjectKey, column: ColumnKey, from target: ObjectKey) throws {
        let index = try position(of: column)
        switch try value(source, column: column) {
        case .link(let current) where current == target:
            try writeRaw(source, index, .null)
        case .list(let elements):
            let kept = elements.filter { $0 != .link(target) }
            if kept.count != elements.count { try writeRaw(source, index, .list(kept)) }
        case .map(var entries):
            // A map keeps its keys: the values that linked to `target` become nil.
            let keys = entries.filter { $0.value == .link(target) }.map(\.key)
            guard !keys.isEmpty else { break }
            for key in keys { entries[key] = .null }
            try writeRaw(source, index, .map(entries))
        default: break
        }
    }
}
