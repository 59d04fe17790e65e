extension Table {
    /// Inserts an object and returns its key. Columns not in `values` get their default.
    ///
    /// Unique indexes (the primary key) are checked before anything changes; links must point at existing
    /// objects; every index and the targets' backlinks are updated.
    /// - Parameters:
    ///   - values: (column, value) pairs; a list column takes `.list`, a link `.link` or `.null`.
    ///   - key: an explicit key (it must be free); by default the table's next key.
    /// - Throws: `StrataError.duplicatePrimaryKey`, or `StrataError.invalidArgument` for a value of the wrong
    ///   type, an unknown column or a link to a missing object.
    @discardableResult
    public func insert(_ values: [(ColumnKey, StorageValue)] = [], key explicitKey: ObjectKey? = nil) throws -> ObjectKey {
        try catalog.requireWriter("insert into table '\(name)'")
        let keys = context.keys
        let checks = context.valueChecks
        if values.count == keys.count, zip(values, keys).allSatisfy({ $0.0 == $1 }) {
            // Every column, in storage order: the values make the row without a copy of the defaults.
            var row: [StorageValue] = []
            row.reserveCapacity(values.count)
            for (index, (_, value)) in values.enumerated() {
                try checkValue(value, at: index, checks)
                row.append(value)
            }
            return try insert(row: row, explicitKey: explicitKey)
        }
        var row = context.defaultRow
        for (column, value) in values {
            guard let index = keys.firstIndex(of: column) else { throw unknownColumn(column) }
            try checkValue(value, at: index, checks)
            row[index] = value
        }
        return try insert(row: row, explicitKey: explicitKey)
    }

    /// Inserts an object whose values come in the order of `columns`, and returns its key: what the object layer
    /// calls with a model's properties in their declared order. Columns not in `columns` get their default.
    ///
    /// Behaves as ``insert(_:key:)``; the positions of `columns` are worked out once and kept while the caller
    /// passes the same columns, so a bulk insert does not look each column up for each object.
    /// - Throws: as ``insert(_:key:)``, and `StrataError.invalidArgument` when `values` and `columns` differ in
    ///   length.
    @discardableResult
    public func insert(_ values: [StorageValue], into columns: [ColumnKey], key explicitKey: ObjectKey? = nil) throws -> ObjectKey {
        try catalog.requireWriter("insert into table '\(name)'")
        guard values.count == columns.count else {
            throw StrataError.invalidArgument(
                "insert into table '\(name)' got \(values.count) values for \(columns.count) columns; pass one value per column")
        }
        let (positions, isWholeRow) = try positions(of: columns)
        let checks = context.valueChecks
        if isWholeRow {
            // The values are the row: no copy of the defaults to fill in.
            for (index, value) in values.enumerated() { try checkValue(value, at: index, checks) }
            return try insert(row: values, explicitKey: explicitKey)
        }
        // The spare row, given back once placed: no copy of the defaults per object.
        var row = takeDefaultRow()
        for (value, index) in zip(values, positions) {
            try checkValue(value, at: index, checks)
            row[index] = value
        }
        let key = try insert(row: row, explicitKey: explicitKey)
        giveBack(row: &row)
        return key
    }

    /// Inserts a whole row (a value for every column, in storage order, already checked).
    ///
    /// - Parameters:
    ///   - freshLinks: storage positions of single-link columns whose targets are embedded objects inserted right
    ///     after this row, with their backlink to it (``insert(_:into:embedding:)``): not checked, not claimed,
    ///     their backlinks not written here.
    ///   - backlink: for such an embedded object, the storage position of its backlinks column and its owner's
    ///     key, written with the row instead of by a second descent.
    func insert(
        row: [StorageValue], explicitKey: ObjectKey?, freshLinks: [Int] = [],
        backlink: (position: Int, owner: Int64)? = nil
    ) throws -> ObjectKey {
        var row = row
        var objectKey = explicitKey ?? ObjectKey(nextObjectKey)
        var keyIsPrimaryKey = false
        if let implied = impliedPrimaryKeyIndex {
            // The key is the primary-key value; a value that cannot be a key, or another key asked for, ends the
            // index being implied.
            if case .int(let number) = row[try position(of: implied.spec.columns[0])], number >= 0,
                number <= SortedIndex.largestImpliedValue, explicitKey == nil || explicitKey?.rawValue == number
            {
                objectKey = ObjectKey(number)
                keyIsPrimaryKey = true
            } else {
                try implied.materialize(in: try catalog.requireWriter("insert into table '\(name)'"))
            }
        }
        // Entries of the unique and full-text indexes (an implied index's entry is the object's key, checked
        // below). A plain index's entry, and a set's element entries, are encoded straight into the index's
        // pending buffer once the row is placed (see below): no array per object.
        var entries: [(SortedIndex, [UInt8])] = []
        // Texts for posting-block indexes, which take a text whole rather than an entry per term.
        var texts: [(SortedIndex, StorageValue)] = []
        // Whether a plain or element index waits for the row to be placed.
        var placedIndexes = false
        // A set of strings under an element index, encoded once: the column takes these bytes as they are and the
        // index reads its elements' entries back from them (`SortedIndex.insertElements(ofStringSet:key:)`).
        var encodedSet: (position: Int, blob: Blob)?
        for index in indexes where !index.isImplied {
            if index.spec.isFullText {
                let text = row[try position(of: index.spec.columns[0])]
                if index.keepsPostingBlocks {
                    texts.append((index, text))
                    continue
                }
                for entry in FullTextEntry.entries(for: text, key: objectKey, trigrams: index.spec.isTrigrams) {
                    entries.append((index, entry))
                }
                continue
            }
            if index.indexesElements || !index.spec.isUnique {
                // Its columns looked up now, so that an unknown one refuses the insert before anything changes.
                for column in index.spec.columns { _ = try position(of: column) }
                placedIndexes = true
                if index.indexesElements, encodedSet == nil {
                    let position = try position(of: index.spec.columns[0])
                    if context.valueChecks[position]?.kind == .string, case .list(let elements) = row[position],
                        !elements.isEmpty, let bytes = CollectionCodec.encodeStrings(elements)
                    {
                        encodedSet = (position, Blob(bytes))
                    }
                }
                continue
            }
            // A unique index's entry, checked against the index before anything changes: encoded straight from
            // the row into one array with room for the key (no array of values, no concatenation per object).
            var entry: [UInt8] = []
            entry.reserveCapacity(48)
            let mixed = index.mixed
            for (offset, column) in index.spec.columns.enumerated() {
                IndexKeyEncoding.append(row[try position(of: column)], mixed: !mixed.isEmpty && mixed[offset], to: &entry)
            }
            if index.spec.isUnique, let holder = try index.holder(of: entry) {
                // Values are worked out only on a collision: a uniqueness rule lets values with a null collide.
                let values = try indexValues(index, row: row)
                if refusesEqual(index, values: values) {
                    throw uniquenessError(index, values: values, holder: holder)
                }
            }
            ByteOrder.withKey(objectKey.rawValue) { entry.append(contentsOf: $0) }
            entries.append((index, entry))
        }
        let linkPositions = context.linkPositions
        let specs = linkPositions.isEmpty ? [] : context.specs
        // A null links to nothing: nothing to normalize, check, claim or back-link (a person without an address).
        for index in linkPositions where !row[index].isNull && (freshLinks.isEmpty || !freshLinks.contains(index)) {
            // Only a set is rewritten: assigning any element would copy the caller's row on every insert.
            if case .set = specs[index].type { row[index] = Table.normalized(row[index], for: specs[index]) }
            try checkTargets(row[index], specs[index])
            if let owned = embeddedTarget(of: specs[index]) {
                try checkClaims(Table.linkTargets(row[index]), of: owned, by: objectKey, column: specs[index])
            }
        }
        let rawKey = objectKey.rawValue
        try ByteOrder.withKey(rawKey) { ordered in
            // A key past every key so far (the table's next key, or an increasing primary key) goes at the end of
            // the last cluster, found without comparing keys on the way down.
            if rawKey >= nextObjectKey {
                let appended: Void? = try tree.updateLast(ordered) { cluster in
                    if let last = cluster.keys.last, last >= rawKey { return nil }
                    try Table.place(
                        row, key: rawKey, in: cluster, at: cluster.rowCount, backlink: backlink, encodedSet: encodedSet)
                    return ()
                }
                if appended != nil { return }
            }
            try tree.update(ordered) { cluster in
                let (position, found) = cluster.position(of: rawKey)
                // Found in the leaf the insert descends to anyway: nothing has changed yet, so refusing here is
                // clean.
                if found {
                    if keyIsPrimaryKey { throw StrataError.duplicatePrimaryKey(type: name, key: "\(rawKey)") }
                    throw StrataError.invalidArgument("table '\(name)' already has an object with key \(objectKey)")
                }
                try Table.place(row, key: rawKey, in: cluster, at: position, backlink: backlink, encodedSet: encodedSet)
            }
        }
        // `Int64.max` has no successor: the table's next key stays there, and a later insert without a key is then
        // refused as a duplicate instead of overflowing.
        nextObjectKey = max(nextObjectKey, rawKey == .max ? .max : rawKey + 1)
        catalog.changeLog?.inserted(objectKey, into: key)
        for (index, entry) in entries { try index.insert(entry: entry) }
        if placedIndexes {
            for index in indexes where !index.isImplied && !index.spec.isFullText {
                if index.indexesElements {
                    let position = try position(of: index.spec.columns[0])
                    if let encodedSet, encodedSet.position == position {
                        try encodedSet.blob.withBytes { try index.insertElements(ofStringSet: $0, key: objectKey) }
                    } else {
                        try index.insertElements(of: row[position], key: objectKey)
                    }
                } else if !index.spec.isUnique {
                    try index.insertEntry(key: objectKey) { row[try position(of: $0)] }
                }
            }
        }
        for (index, text) in texts { try index.insertText(text, key: objectKey) }
        for index in linkPositions where !row[index].isNull && (freshLinks.isEmpty || !freshLinks.contains(index)) {
            for target in linkTargets(row[index], of: specs[index]) { try addBacklink(to: target, from: objectKey, column: specs[index]) }
        }
        try trimIfNeeded()
        return objectKey
    }

    /// Puts a new object's row into a decoded cluster at `position`, with its one backlink when it is an embedded
    /// object inserted with its owner, and the bytes of a set encoded already (`encodedSet`) in place of encoding
    /// that column's value.
    private static func place(
        _ row: [StorageValue], key: Int64, in cluster: ClusterBuffer, at position: Int,
        backlink: (position: Int, owner: Int64)?, encodedSet: (position: Int, blob: Blob)?
    ) throws {
        let isAppend = position == cluster.rowCount
        cluster.lastInsertWasAppend = isAppend
        if isAppend { cluster.keys.append(key) } else { cluster.keys.insert(key, at: position) }
        for (index, column) in cluster.columns.enumerated() {
            if let encodedSet, encodedSet.position == index {
                column.insert(encoded: encodedSet.blob, isNull: false, at: position)
            } else if let backlink, backlink.position == index {
                // Placed as the row's value rather than put over an empty one after it: replacing a row decoded
                // the column's stored block, which the last cluster of a bulk insert has after every write-out.
                column.insert(
                    encoded: Blob(ValueCodec.encodeBacklink(backlink.owner)), isNull: row[index].isNull, at: position)
            } else {
                try column.insert(row[index], at: position)
            }
        }
    }

    /// Sets one column of an object, keeping indexes and backlinks exact.
    /// - Throws: `StrataError.invalidArgument` for a wrong type, a missing object or link target, a backlinks
    ///   column; `StrataError.duplicatePrimaryKey` when the primary key's index would hold the value twice,
    ///   `StrataError.uniquenessViolation` when another unique index would (values with a null never collide).
    public func set(_ key: ObjectKey, column: ColumnKey, to value: StorageValue) throws {
        try catalog.requireWriter("change table '\(name)'")
        let index = try position(of: column)
        let spec = context.specs[index]
        guard spec.type != .backlinks else {
            throw StrataError.invalidArgument("column '\(spec.name)' is kept by the engine and cannot be set")
        }
        try check(value, for: spec)
        let value = Table.normalized(value, for: spec)
        let touched = indexes.filter { $0.spec.columns.contains(column) }
        guard spec.type.mayLink || !touched.isEmpty else {
            try writeRaw(key, index, value)
            try trimIfNeeded()
            return
        }
        let old = try self.value(key, column: column)
        if old == value { return }
        // A new primary-key value no longer equals the object's key.
        for sorted in touched where sorted.isImplied { try sorted.materialize(in: try catalog.requireWriter("change table '\(name)'")) }
        var oldEntries: [[[UInt8]]] = []
        var newEntries: [[[UInt8]]] = []
        for sorted in touched {
            let before = try indexValues(sorted, key: key, override: nil)
            let after = try indexValues(sorted, key: key, override: (column, value))
            if sorted.spec.isUnique { try checkUnique(sorted, values: after, excluding: key) }
            var removed = indexEntries(sorted, values: before, key: key)
            var added = indexEntries(sorted, values: after, key: key)
            if sorted.spec.isFullText || sorted.indexesElements {
                // Postings whose bytes stay the same (a term at the same positions in text of the same length),
                // and the elements a set keeps, are left in place.
                let kept = Set(removed).intersection(added)
                removed.removeAll { kept.contains($0) }
                added.removeAll { kept.contains($0) }
            }
            oldEntries.append(removed)
            newEntries.append(added)
        }
        var removed: [LinkTarget] = []
        var added: [LinkTarget] = []
        let owned = spec.type.isLink ? embeddedTarget(of: spec) : nil
        if spec.type.mayLink {
            try checkTargets(value, spec)
            removed = linkTargets(old, of: spec)
            for target in linkTargets(value, of: spec) {
                if let match = removed.firstIndex(of: target) { removed.remove(at: match) } else { added.append(target) }
            }
            // Refused before anything changes: the write then leaves the table as it was.
            if let owned { try checkClaims(added.map(\.key), of: owned, by: key, column: spec) }
        }
        try writeRaw(key, index, value)
        for (offset, sorted) in touched.enumerated() {
            for entry in oldEntries[offset] { try sorted.remove(entry: entry) }
            for entry in newEntries[offset] { try sorted.insert(entry: entry) }
        }
        if spec.type.mayLink {
            for target in removed { try removeBacklink(to: target, from: key, column: spec) }
            for target in added { try addBacklink(to: target, from: key, column: spec) }
            if let owned { try owned.deleteOrphans(removed.map(\.key)) }
        }
        try trimIfNeeded()
    }

    /// Deletes an object: removes it from every list that holds it, nils every link to it (through its
    /// backlinks, so O(links)), drops its index entries and its outgoing backlinks.
    /// - Throws: `StrataError.invalidArgument` when the object does not exist.
    public func delete(_ key: ObjectKey) throws {
        try delete(key, alongWith: nil)
    }

    /// Deletes an object as one of many that the caller deletes together: links between the object and objects
    /// for which `alongWith` is true (each deleted by the caller before the write ends) are left as they are
    /// rather than unlinked one by one, since both ends go. A cascade of n objects then costs n row removals
    /// instead of also rewriting the backlinks and lists that the cascade deletes anyway.
    /// - Throws: `StrataError.invalidArgument` when the object does not exist.
    package func delete(_ key: ObjectKey, alongWith deleted: ((TableKey, ObjectKey) -> Bool)?) throws {
        let writer = try catalog.requireWriter("delete from table '\(name)'")
        guard try contains(key) else { throw missing(key) }
        try catalog.changeLog?.willDelete(key, of: self)
        let specs = context.specs
        for sorted in indexes {
            for entry in indexEntries(sorted, values: try indexValues(sorted, key: key, override: nil), key: key) {
                try sorted.remove(entry: entry)
            }
        }
        var orphans: [(table: Table, keys: [ObjectKey])] = []
        for spec in specs where spec.type.mayLink {
            let targets = linkTargets(try value(key, column: spec.key), of: spec)
            for target in targets where !(target.table == self.key && target.key == key) {
                if let deleted, deleted(target.table, target.key) { continue }
                try removeBacklink(to: target, from: key, column: spec)
            }
            // The object's embedded objects go with it, once its row is gone.
            if let owned = embeddedTarget(of: spec), !targets.isEmpty { orphans.append((owned, targets.map(\.key))) }
        }
        for spec in specs where spec.type == .backlinks {
            guard let originKey = spec.target, let origin = catalog.table(originKey), let originColumn = spec.origin else { continue }
            var sources = Table.linkTargets(try value(key, column: spec.key))
            sources = sources.enumerated().filter { $0.offset == 0 || sources[$0.offset - 1] != $0.element }.map(\.element)
            for source in sources where !(origin === self && source == key) {
                if let deleted, deleted(originKey, source) { continue }
                try origin.unlink(source, column: originColumn, from: LinkTarget(table: self.key, key: key))
            }
        }
        try tree.update(ByteOrder.key(key.rawValue)) { cluster in
            let (row, found) = cluster.position(of: key.rawValue)
            guard found else { return }
            cluster.keys.remove(at: row)
            for column in cluster.columns {
                let external = column.remove(at: row)
                if !external.isNone { writer.free(external) }
            }
        }
        for (owned, targets) in orphans { try owned.deleteOrphans(targets) }
        try trimIfNeeded()
    }

    // MARK: Internals

    /// Writes a value into the object's cluster, without index or backlink upkeep.
    func writeRaw(_ key: ObjectKey, _ index: Int, _ value: StorageValue) throws {
        let writer = try catalog.requireWriter("change table '\(name)'")
        if let log = catalog.changeLog { try log.willChange(key, column: context.keys[index], of: self) }
        if try patchStored(key, index, value, in: writer) { return }
        var found = false
        try tree.update(ByteOrder.key(key.rawValue)) { cluster in
            let (row, present) = cluster.position(of: key.rawValue)
            guard present else { return }
            found = true
            let old = try cluster.columns[index].set(value, at: row)
            if !old.isNone { writer.free(old) }
        }
        guard found else { throw missing(key) }
    }

    /// Writes a fixed-width value (or a null) into the object's stored cluster by patching a copy of the node's
    /// bytes (`ClusterPatch`), when nothing of the cluster tree is decoded for change. Returns `false`, having
    /// changed nothing, when the change needs the general path (which decodes and re-encodes the cluster).
    private func patchStored(_ key: ObjectKey, _ index: Int, _ value: StorageValue, in writer: NodeWriter) throws -> Bool {
        guard !tree.isLoaded else { return false }
        let kind = context.blockKinds[index]
        guard kind != .variable, kind != .fixed16 else { return false }
        let word: UInt64?
        if value.isNull {
            word = nil
        } else {
            guard let encoded = ValueCodec.word(value, kind: context.specs[index].kind) else { return false }
            word = encoded
        }
        let column = context.keys[index]
        return try ByteOrder.withKey(key.rawValue) { ordered in
            try tree.patch(ordered, in: writer) { raw, ref in
                try ClusterPatch.edits(setting: key.rawValue, column: column, hint: index, kind: kind, to: word, in: raw, ref: ref)
            }
        }
    }

    /// Checks a value for the column at storage position `index`: single values and the elements of lists and
    /// sets against the cached kinds, maps and mistakes through ``check(_:for:)`` (which builds the error).
    @inline(__always)
    func checkValue(
        _ value: StorageValue, at index: Int, _ checks: [(kind: ValueKind, nullable: Bool, elements: Bool)?]
    ) throws {
        if let check = checks[index] {
            if !check.elements {
                if ValueCodec.accepts(value, kind: check.kind, nullable: check.nullable) { return }
            } else if case .list(let elements) = value,
                elements.allSatisfy({ ValueCodec.accepts($0, kind: check.kind, nullable: check.nullable) })
            {
                return
            }
        }
        try check(value, for: context.specs[index])
    }

    func check(_ value: StorageValue, for spec: ColumnSpec) throws {
        let fits: Bool
        switch spec.type {
        case .value(let kind): fits = ValueCodec.accepts(value, kind: kind, nullable: spec.isNullable)
        case .list(let kind):
            if case .list(let elements) = value {
                fits = elements.allSatisfy { ValueCodec.accepts($0, kind: kind, nullable: spec.elementsNullable && kind != .link) }
            } else {
                fits = false
            }
        case .backlinks: fits = false
        case .set(let kind):
            if case .list(let elements) = value {
                fits = elements.allSatisfy { ValueCodec.accepts($0, kind: kind, nullable: spec.elementsNullable && kind != .link) }
            } else {
                fits = false
            }
        case .map(let kind):
            if case .map(let entries) = value {
                fits = entries.values.allSatisfy { ValueCodec.accepts($0, kind: kind, nullable: spec.elementsNullable) }
            } else {
                fits = false
            }
        }
        guard fits else {
            throw StrataError.invalidArgument("column '\(spec.name)' of table '\(name)' holds \(spec.type)"
                + "\(spec.isNullable ? "?" : ""), not \(value); pass a value of the column's type")
        }
    }

    /// A set column's value in set order without repeats (so its backlinks count each element once); any other
    /// value as is.
    static func normalized(_ value: StorageValue, for spec: ColumnSpec) -> StorageValue {
        guard case .set = spec.type, case .list(let elements) = value else { return value }
        return .list(CollectionCodec.normalizedSet(elements))
    }

    /// The object keys a link value, list-of-links or set-of-links value (in its order, with repeats) or
    /// map-of-links value (in key order) points at.
    static func linkTargets(_ value: StorageValue) -> [ObjectKey] {
        switch value {
        case .link(let key): return [key]
        case .list(let elements): return elements.compactMap { if case .link(let key) = $0 { return key } else { return nil } }
        case .map(let entries):
            return entries.sorted { $0.key < $1.key }.compactMap { if case .link(let key) = $0.value { return key } else { return nil } }
        default: return []
        }
    }

    private func checkTargets(_ value: StorageValue, _ spec: ColumnSpec) throws {
        if spec.type.isMixed {
            for target in linkTargets(value, of: spec) {
                guard let table = catalog.table(target.table) else {
                    throw StrataError.invalidArgument("'\(name).\(spec.name)' cannot link to table \(target.table): there is no such table")
                }
                guard try table.contains(target.key) else {
                    throw StrataError.invalidArgument(
                        "'\(name).\(spec.name)' cannot link to \(target.key): table '\(table.name)' has no such object")
                }
            }
            return
        }
        guard let target = spec.target, let table = catalog.table(target) else {
            throw StrataError.invalidArgument("link column '\(spec.name)' of table '\(name)' has no target table")
        }
        for key in Table.linkTargets(value) where !(try table.contains(key)) {
            throw StrataError.invalidArgument("'\(name).\(spec.name)' cannot link to \(key): table '\(table.name)' has no such object")
        }
    }
}
