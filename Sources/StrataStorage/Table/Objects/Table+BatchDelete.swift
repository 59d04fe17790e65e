/// Deleting many objects of a table at once, and reading many rows in one walk of the clusters.
///
/// Deleting objects one by one finds each row from the tree's root for every column it reads and once more to
/// remove it, and moves every later row of the cluster for each removal. A batch (a cascade's objects of one
/// table, `deleteAll`, the orphans an owner leaves) is sorted first, so that each cluster is read once, in place,
/// for every doomed row it holds (index values, links, backlinks), then decoded and rewritten once with all of
/// those rows dropped in one pass (`ClusterBuffer.remove(rows:)`). Index entries are removed in index order and
/// the backlinks of each surviving target are rewritten once however many doomed objects linked to it.
extension Table {
    /// Deletes the objects of `keys` (in any order; repeats and keys the table does not hold are skipped) as
    /// the one-object `delete(_:alongWith:)` deletes one: every link to them from other objects is nullified,
    /// their index entries and outgoing backlinks are dropped, and embedded objects they alone owned go with them.
    ///
    /// Links between two objects of the batch, or between an object of the batch and one for which `alongWith`
    /// is true (deleted by the caller before the write ends), are left as they are, since both ends go.
    package func delete(_ keys: [ObjectKey], alongWith deleted: ((TableKey, ObjectKey) -> Bool)?) throws {
        let writer = try catalog.requireWriter("delete from table '\(name)'")
        let doomed = Table.ascendingWithoutRepeats(keys)
        guard !doomed.isEmpty else { return }
        let table = self.key
        let goes = { (target: TableKey, object: ObjectKey) -> Bool in
            if target == table, Table.holds(doomed, object) { return true }
            return deleted?(target, object) ?? false
        }
        var gathered = try gatherDeletions(of: doomed, goes: goes)
        if let log = catalog.changeLog {
            for key in gathered.present { try log.willDelete(key, of: self) }
        }
        // Index entries in each index's order, so consecutive removals find their leaf decoded already.
        for (offset, sorted) in gathered.indexes.enumerated() {
            gathered.entries[offset].sort { ByteOrder.compare($0, $1) < 0 }
            for entry in gathered.entries[offset] { try sorted.remove(entry: entry) }
        }
        try removeBacklinks(gathered.backlinks)
        for unlink in gathered.unlinks {
            try unlink.origin.unlink(unlink.source, column: unlink.column, from: LinkTarget(table: table, key: unlink.target))
        }
        try removeRows(gathered.present, writer: writer)
        let specs = context.specs
        for (index, targets) in gathered.owned.sorted(by: { $0.key < $1.key }) {
            if let owned = embeddedTarget(of: specs[index]) { try owned.deleteOrphans(targets) }
        }
        try trimIfNeeded()
    }

    /// What deleting `doomed` (ascending) must change besides their rows, read in one walk of the clusters.
    private struct Deletions {
        /// The table's indexes that keep entries of their own (not implied by the object keys).
        var indexes: [SortedIndex]
        /// Per index of `indexes`, the doomed objects' entries.
        var entries: [[[UInt8]]]
        /// Backlinks to drop from objects that stay: the target, the doomed object linking to it, and the storage
        /// position of the link column.
        var backlinks: [(target: LinkTarget, source: ObjectKey, column: Int)] = []
        /// Links to doomed objects from objects that stay: the linking table, object and column, and the doomed key.
        var unlinks: [(origin: Table, source: ObjectKey, column: ColumnKey, target: ObjectKey)] = []
        /// Embedded objects the doomed objects link to, by the storage position of the owning column.
        var owned: [Int: [ObjectKey]] = [:]
        /// The doomed keys the table holds, ascending.
        var present: [ObjectKey] = []
    }

    private func gatherDeletions(of doomed: [ObjectKey], goes: (TableKey, ObjectKey) -> Bool) throws -> Deletions {
        let specs = context.specs
        let indexes = self.indexes.filter { !$0.isImplied }
        let indexColumns = try indexes.map { try $0.spec.columns.map { try position(of: $0) } }
        var result = Deletions(indexes: indexes, entries: Array(repeating: [], count: indexes.count))
        let links = context.linkPositions.map { (index: $0, owns: embeddedTarget(of: specs[$0]) != nil) }
        let backlinks: [(index: Int, origin: Table, column: ColumnKey)] = specs.indices.compactMap { index in
            let spec = specs[index]
            guard spec.type == .backlinks, let origin = spec.target.flatMap({ catalog.table($0) }),
                let column = spec.origin
            else { return nil }
            return (index, origin, column)
        }
        try forEachRow(of: doomed) { key, location in
            result.present.append(key)
            for (offset, sorted) in indexes.enumerated() {
                let values = try indexColumns[offset].map { try value(at: location, column: $0) }
                result.entries[offset] += indexEntries(sorted, values: values, key: key)
            }
            for link in links {
                let targets: [LinkTarget]
                if let keys = try linkKeys(at: location, column: link.index), let target = specs[link.index].target {
                    targets = keys.map { LinkTarget(table: target, key: $0) }
                } else {
                    targets = linkTargets(try value(at: location, column: link.index), of: specs[link.index])
                }
                for target in targets where !goes(target.table, target.key) {
                    result.backlinks.append((target, key, link.index))
                }
                if link.owns, !targets.isEmpty { result.owned[link.index, default: []] += targets.map(\.key) }
            }
            for backlink in backlinks {
                // Ascending, once per link: a source whose list holds the object twice is unlinked once.
                var previous: ObjectKey?
                let sources = try linkKeys(at: location, column: backlink.index) ?? []
                for source in sources where source != previous {
                    previous = source
                    if goes(backlink.origin.key, source) { continue }
                    result.unlinks.append((backlink.origin, source, backlink.column, key))
                }
            }
        }
        return result
    }

    /// Drops the backlinks of `removals`, each target's backlinks rewritten once for all its doomed sources.
    private func removeBacklinks(_ removals: [(target: LinkTarget, source: ObjectKey, column: Int)]) throws {
        guard !removals.isEmpty else { return }
        let specs = context.specs
        let sorted = removals.sorted {
            ($0.target.table.rawValue, $0.target.key.rawValue, $0.column) < ($1.target.table.rawValue, $1.target.key.rawValue, $1.column)
        }
        var start = 0
        while start < sorted.count {
            var end = start + 1
            while end < sorted.count, sorted[end].target == sorted[start].target, sorted[end].column == sorted[start].column {
                end += 1
            }
            try removeBacklinks(to: sorted[start].target, from: sorted[start..<end].map(\.source), column: specs[sorted[start].column])
            start = end
        }
    }

    /// Removes the rows of `keys` (ascending, each held by the table): each cluster is decoded and changed once.
    private func removeRows(_ keys: [ObjectKey], writer: NodeWriter) throws {
        var next = 0
        while next < keys.count {
            try ByteOrder.withKey(keys[next].rawValue) { ordered in
                try tree.update(ordered, bounded: { cluster, bound in
                    var rows: [Int] = []
                    var from = 0
                    while next < keys.count {
                        let key = keys[next].rawValue
                        // Keys from the bound on belong to later clusters.
                        if let bound, ByteOrder.withKey(key, { bound.compare($0) <= 0 }) { break }
                        next += 1
                        let row = cluster.keys[from...].partitionIndex { $0 >= key }
                        guard row < cluster.keys.count, cluster.keys[row] == key else { continue }
                        rows.append(row)
                        from = row + 1
                    }
                    for ref in cluster.remove(rows: rows) { writer.free(ref) }
                })
            }
            try trimIfNeeded()
        }
    }

    /// Runs `body` on the row of each of `keys` (ascending, distinct) that the table holds, in key order: one
    /// descent to the first key's cluster, then the clusters in order, each read once (in place when stored).
    func forEachRow(of keys: [ObjectKey], _ body: (ObjectKey, RowLocation) throws -> Void) throws {
        guard let first = keys.first else { return }
        var next = 0
        try tree.forEachLeaf(from: ByteOrder.key(first.rawValue)) { location in
            switch location {
            case .loaded(let cluster):
                guard let last = cluster.keys.last else { return true }
                var from = 0
                while next < keys.count, keys[next].rawValue <= last {
                    let key = keys[next].rawValue
                    next += 1
                    let row = cluster.keys[from...].partitionIndex { $0 >= key }
                    guard row < cluster.keys.count, cluster.keys[row] == key else { continue }
                    from = row + 1
                    try body(ObjectKey(key), .loaded(cluster, row))
                }
            case .stored(let ref):
                let view = try ClusterView(try reader.read(ref), ref: ref)
                guard view.rowCount > 0 else { return true }
                let last = view.key(at: view.rowCount - 1)
                var anchor: (row: Int, key: Int64)?
                while next < keys.count, keys[next].rawValue <= last {
                    let key = keys[next].rawValue
                    next += 1
                    guard let row = view.row(of: key, after: anchor) else { continue }
                    anchor = (row, key)
                    try body(ObjectKey(key), .stored(view, row))
                }
            }
            return next < keys.count
        }
    }

    /// The keys among `keys` (in any order) that the table holds, ascending and without repeats, found in one walk.
    package func existingKeys(among keys: [ObjectKey]) throws -> [ObjectKey] {
        var found: [ObjectKey] = []
        try forEachRow(of: Table.ascendingWithoutRepeats(keys)) { key, _ in found.append(key) }
        return found
    }

    /// Runs `body` with the objects column `column` (a link, list, set or map of links) of each of `keys` links
    /// to (in any order; repeats and keys the table does not hold are skipped), in ascending key order, reading
    /// each cluster once; links and lists of links are read from their bytes without making values.
    package func forEachLinks(of keys: [ObjectKey], column: ColumnKey, _ body: ([ObjectKey]) throws -> Void) throws {
        let index = try position(of: column)
        try forEachRow(of: Table.ascendingWithoutRepeats(keys)) { _, location in
            if let linked = try linkKeys(at: location, column: index) {
                try body(linked)
            } else {
                try body(Table.linkTargets(try value(at: location, column: index)))
            }
        }
    }

    /// The objects a link, list-of-links or backlinks column holds in a located row (in order, with repeats,
    /// nulls skipped), read from the stored bytes without making values; `nil` for any other column (sets, maps
    /// and mixed values go through ``value(at:column:)``).
    func linkKeys(at location: RowLocation, column index: Int) throws -> [ObjectKey]? {
        let spec = context.specs[index]
        switch spec.type {
        case .value(.link):
            guard case .link(let key) = try value(at: location, column: index) else { return [] }
            return [key]
        case .list(.link), .backlinks:
            let isList = spec.type != .backlinks
            switch location {
            case .none: return []
            case .loaded(let cluster, let row):
                let buffer = cluster.columns[index]
                if buffer.isNull(row) { return [] }
                return try blobBytes(buffer.blobs[row]).withUnsafeBytes { try Table.linkKeys($0, isList: isList, spec) }
            case .stored(let view, let row):
                let block = try storedBlock(view, index)
                if block.isNull(row) { return [] }
                return try withBlob(block, row) { try Table.linkKeys($0, isList: isList, spec) }
            }
        default:
            return nil
        }
    }

    /// The keys of a stored list of links (`count u32`, then per element a presence byte and 8 bytes when present)
    /// or backlinks (`count u32`, then 8 bytes a key).
    private static func linkKeys(_ raw: UnsafeRawBufferPointer, isList: Bool, _ spec: ColumnSpec) throws -> [ObjectKey] {
        guard raw.count >= 4 else { return [] }
        let count = Int(UInt32(littleEndian: raw.loadUnaligned(as: UInt32.self)))
        var keys: [ObjectKey] = []
        keys.reserveCapacity(count)
        var offset = 4
        for _ in 0..<count {
            if isList {
                guard offset < raw.count else { break }
                let present = raw[offset] != 0
                offset += 1
                if !present { continue }
            }
            guard offset + 8 <= raw.count else {
                throw StrataError.corruptFile(path: StrataError.unnamedFile, location: "column '\(spec.name)'",
                                              detail: "\(raw.count) bytes cannot hold \(count) links")
            }
            keys.append(ObjectKey(Int64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: Int64.self))))
            offset += 8
        }
        return keys
    }

    /// The value of the column at storage `index` in a located row, as ``value(_:column:)`` gives it.
    func value(at location: RowLocation, column index: Int) throws -> StorageValue {
        let spec = context.specs[index]
        switch location {
        case .none:
            return .null
        case .loaded(let cluster, let row):
            let buffer = cluster.columns[index]
            if buffer.usesWords { return Table.decode(word: buffer.isNull(row) ? nil : buffer.words[row], spec) }
            if buffer.isNull(row) { return try decode(bytes: nil, spec) }
            return try blobBytes(buffer.blobs[row]).withUnsafeBytes { try decode(bytes: $0, spec) }
        case .stored(let view, let row):
            let block = try storedBlock(view, index)
            if block.kind != .variable, block.kind != .fixed16 {
                return Table.decode(word: block.isNull(row) ? nil : block.word(row), spec)
            }
            if block.isNull(row) { return try decode(bytes: nil, spec) }
            return try withBlob(block, row) { try decode(bytes: $0, spec) }
        }
    }

    /// A fixed-width column's value from its raw word (`nil` = null).
    private static func decode(word: UInt64?, _ spec: ColumnSpec) -> StorageValue {
        guard let word, case .value(let kind) = spec.type else { return .null }
        return ValueCodec.value(word: word, kind: kind)
    }

    /// A variable-size or 16-byte column's value from its stored bytes (`nil` = null), as ``value(_:column:)``
    /// decodes them.
    private func decode(bytes raw: UnsafeRawBufferPointer?, _ spec: ColumnSpec) throws -> StorageValue {
        let empty = UnsafeRawBufferPointer(start: nil, count: 0)
        switch spec.type {
        case .value(let kind):
            guard let raw else { return .null }
            guard let value = ValueCodec.value(bytes: raw, kind: kind) else {
                throw StrataError.corruptFile(path: StrataError.unnamedFile, location: "table '\(name)', column '\(spec.name)'",
                                              detail: "the stored bytes are not a valid \(kind)")
            }
            return value
        case .list(let kind):
            return .list(try ValueCodec.decodeList(raw ?? empty, kind: kind, ref: .none))
        case .backlinks:
            return .list(try ValueCodec.decodeBacklinks(raw ?? empty, ref: .none).map { .link(ObjectKey($0)) })
        case .set(let kind):
            return .list(try CollectionCodec.decodeSet(raw ?? empty, kind: kind, ref: .none))
        case .map(let kind):
            return .map(try CollectionCodec.decodeMap(raw ?? empty, kind: kind, ref: .none))
        }
    }

    /// `keys` sorted ascending without repeats (as they are, when they already are).
    static func ascendingWithoutRepeats(_ keys: [ObjectKey]) -> [ObjectKey] {
        var previous = Int64.min
        var ordered = true
        for (offset, key) in keys.enumerated() {
            if offset > 0, key.rawValue <= previous {
                ordered = false
                break
            }
            previous = key.rawValue
        }
        if ordered { return keys }
        var sorted = keys.sorted()
        var last: ObjectKey?
        sorted.removeAll { key in
            defer { last = key }
            return key == last
        }
        return sorted
    }

    /// Whether the ascending `keys` hold `key` (a binary search).
    static func holds(_ keys: [ObjectKey], _ key: ObjectKey) -> Bool {
        let index = keys.partitionIndex { $0.rawValue >= key.rawValue }
        return index < keys.count && keys[index] == key
    }
}
