/// The description of an index the catalog records.
public struct IndexSpec: Hashable, Sendable {
    /// Stable identity in the table.
    public let key: IndexKey
    /// The indexed columns, in order (more than one for a compound index).
    public let columns: [ColumnKey]
    /// Whether two objects may not share the same values (the primary key's index is unique).
    public let isUnique: Bool
    /// Whether this is a full-text index over one string column (`FullTextEntry` describes its entries); such
    /// indexes are listed by `Table.fullTextIndexSpecs`, never by `Table.indexSpecs`.
    public var isFullText: Bool = false
    /// Whether a full-text index keeps its postings in blocks (`PostingBlock`), as every full-text index made
    /// since that layout does; `false` for one entry per (term, object) (`FullTextEntry`), which files written
    /// before it hold and which is read and kept up to date as it is.
    public var isPostingBlocks: Bool = false
    /// Whether a full-text index cuts runs of unspaced scripts (Chinese, Japanese, Thai, ...) into overlapping
    /// trigrams, as every full-text index made since that layout does (`TextTokenizer`); `false` for overlapping
    /// pairs, which older files hold and which is read and kept up to date as it is.
    public var isTrigrams: Bool = false
    /// Whether a posting-block full-text index lays its blocks out compactly (`PostingLayout.compact`: a short
    /// bound, frequencies packed into the key gaps, no token count per posting), as every full-text index made
    /// since that layout does; `false` for the wide layout, which older files hold and which is read and kept up
    /// to date as it is.
    public var isCompactPostings: Bool = false
    /// Whether a compact posting-block full-text index stores with each term's block a bound on its best BM25
    /// contribution (its highest term frequency and lowest document length: `PostingEntry/scoreBound`), which
    /// lets a ranked top-k step over blocks that cannot enter it, as every full-text index made since that layout
    /// does; `false` for blocks without it, which older files hold and which are read, ranked by scoring every
    /// match, and kept up to date as they are.
    public var isScoreBounds: Bool = false
}

/// An ordered index of (values, object key) entries in a `NodeTree`, kept exact by `Table` on every change.
final class SortedIndex {
    let spec: IndexSpec
    /// The index's nodes, without the entries still waiting in `pending`: for the code that only manages memory
    /// (flushing decoded leaves). Everything that reads or changes entries goes through `tree`.
    let nodes: IndexTree
    /// Entries added in this write transaction and not merged into `nodes` yet (see `PendingEntries`).
    ///
    /// A bulk insert adds entries in the order of its objects, which for most indexed values is no order at all:
    /// one descent and one insertion into the middle of a leaf per object, with leaves flushed and decoded again
    /// as memory limits require. The pending entries are appended to one buffer instead, and merged leaf by leaf,
    /// each leaf decoded once, when a read or a removal needs the index, when the transaction writes its nodes
    /// (commit, `Catalog.flush`), or when they reach ``pendingByteLimit``. For a unique index the buffer also
    /// answers who holds a value (``holder(of:)``), so checking each insert of a bulk load merges nothing.
    private var pending: PendingEntries
    /// The most memory the pending entries take before they are sorted and set aside (``runs``), or merged for a
    /// unique index: 64 MiB, a million unique 30-byte entries with their hash table, or about 2.7 million 20-byte
    /// entries (a set's index: five per object).
    static let pendingByteLimit = 64 << 20
    /// The limit this index applies: ``pendingByteLimit``, lowered by tests to fill buffers with a few entries.
    var bufferByteLimit = SortedIndex.pendingByteLimit
    /// Full buffers of pending entries, each sorted when it filled up, waiting to be merged into the tree with the
    /// buffer being filled, in one pass over the leaves (``SortedEntries/init(merging:)``).
    ///
    /// Merging each full buffer into the tree as it filled rewrote every leaf its entries touched: the entries of
    /// a set's index (five a person, each nickname's entries spread over the whole index) touched nearly all of
    /// them, so a million-person insert wrote the whole index three times. Not for a unique index, whose buffer
    /// answers ``holder(of:)``: its full buffer is merged.
    private var runs: [SortedEntries] = []
    /// The most buffers of pending entries held at once, the one being filled included: about 192 MiB, the five
    /// million entries of a million five-element sets. When the buffer being filled is the last one, every run
    /// is merged into the tree.
    static let pendingBufferLimit = 3
    /// The most decoded leaves a merge keeps before writing them out (about 1.5 MiB): a batch goes through the
    /// leaves in order, so each one is written once, and flushing every `Catalog.loadedLeafLimit` leaves rewrote
    /// the branches above them sixteen times as often.
    static let mergeLeafLimit = 256
    /// The buffer ``insertElements(of:key:)`` encodes an element's entry in when it is not a string without a zero
    /// byte (those are encoded in place), kept between calls.
    private var elementScratch: [UInt8] = []
    /// The buffer ``insertEntry(key:_:)`` encodes an entry in when it is not a lone string without a zero byte,
    /// kept between calls.
    private var entryScratch: [UInt8] = []
    /// The full-text changes of a posting-block index not written into its blocks yet (see `PostingChanges`).
    var postingChanges: PostingChanges
    /// The most changes `postingChanges` holds before they are written (rows of 12 bytes: about 50 MB).
    static let postingChangeLimit = 1 << 22
    /// The limit this index applies: ``postingChangeLimit``, lowered by tests to write many batches of a few texts.
    var postingChangeLimit = SortedIndex.postingChangeLimit
    /// The batches of posting changes written since the first one found the index empty in this write
    /// transaction, while more are to come (`nil` when the index was not empty then, or once the last batch is
    /// written): the last batch of a bulk load of several writes the index again with it
    /// (`SortedIndex.rewrite(adding:in:)`).
    var bulkSweeps: Int?
    /// A full-text index's BM25 statistics (its object count and average token count over the first `sample`
    /// objects), kept once read while the index cannot change (its reader writes nothing: a read transaction's
    /// version), so a ranked query does not walk the length blocks again (`Table.fullTextStatistics(_:sample:)`).
    var textStatistics: (sample: Int, documents: Int, averageLength: Double)?
    /// A full-text index's token counts in memory, kept once read while the index cannot change (as
    /// ``textStatistics``): `Table.fullTextLengthTable(_:)`.
    var lengthTable: DocumentLengthTable?
    /// Whether the index cannot change while this object reads it (its reader is a read transaction's version, not
    /// a writer): what ``textStatistics`` and ``lengthTable`` may be kept for.
    var isFixed: Bool { !(nodes.reader is NodeWriter) }

    /// The index's nodes with every pending entry merged: what reads, removals and flushes work on.
    var tree: IndexTree {
        get throws {
            try mergePending()
            return nodes
        }
    }
    /// The table's clusters when the index is implied by the object keys (see `SortedIndex+ObjectKeys.swift`):
    /// then `tree` stays empty.
    var impliedBy: ClusterTree?

    /// Whether the index is implied by the object keys, with no nodes of its own.
    var isImplied: Bool { impliedBy != nil }

    /// For each indexed column, whether it holds mixed (`any`) values, whose entries carry their kind; empty when
    /// none does.
    let mixed: [Bool]

    /// Whether the index's one column is a set, indexed by element: one entry per element (the element's
    /// encoding, then the object key), so an object appears once under each value its set holds.
    let indexesElements: Bool

    init(
        spec: IndexSpec, root: NodeRef, reader: NodeReader, table: String, impliedBy: ClusterTree? = nil,
        mixed: [Bool] = [], indexesElements: Bool = false
    ) {
        self.spec = spec
        self.mixed = mixed.contains(true) ? mixed : []
        self.indexesElements = indexesElements
        pending = PendingEntries(tracksHolders: spec.isUnique, endsWithKeys: !spec.isFullText)
        postingChanges = PostingChanges(trigrams: spec.isTrigrams)
        nodes = NodeTree(root: root, reader: reader, context: (), what: "index \(spec.key) of table '\(table)'")
        self.impliedBy = impliedBy
    }

    /// The encoding of `values` (the index's leading columns) as this index's entries begin.
    func encode(_ values: [StorageValue]) -> [UInt8] { IndexKeyEncoding.encode(values, mixed: mixed) }

    /// Adds an entry (nothing to do for an implied index: the object's key is its entry).
    func insert(_ values: [UInt8], key: ObjectKey) throws {
        try insert(entry: IndexKeyEncoding.entry(values: values, key: key))
    }

    /// Adds a whole entry (the values' encoding followed by the object key).
    func insert(entry: [UInt8]) throws {
        guard impliedBy == nil else { return }
        if keepsPostingBlocks { return try recordPosting(entry, present: true) }
        // Every entry of a unique index is checked with `holder(of:)` first; nulls may repeat, and the first holder
        // is the one kept.
        entry.withUnsafeBytes { pending.append($0) }
        if pending.footprint >= bufferByteLimit { try setAsidePending() }
    }

    /// Adds the entries of a set's elements for object `key` (an index that ``indexesElements``): each element's
    /// encoding and the key, written straight into the pending entries' buffer (`PendingEntries.appendElements`),
    /// with no array per element and no sort here (the pending entries are sorted, and repeats dropped, when they
    /// are merged).
    func insertElements(of set: StorageValue, key: ObjectKey) throws {
        guard impliedBy == nil, case .list(let elements) = set, !elements.isEmpty else { return }
        pending.appendElements(elements, key: key, scratch: &elementScratch)
        if pending.footprint >= bufferByteLimit { try setAsidePending() }
    }

    /// ``insertElements(of:key:)`` for a set of strings given as the bytes its column holds
    /// (`CollectionCodec.encodeStrings`): the elements' entries are copied from those bytes
    /// (`PendingEntries.appendStringSet`), with no second read of each `String`.
    func insertElements(ofStringSet set: UnsafeRawBufferPointer, key: ObjectKey) throws {
        guard impliedBy == nil, set.count > 0 else { return }
        try pending.appendStringSet(set, key: key, scratch: &elementScratch)
        if pending.footprint >= bufferByteLimit { try setAsidePending() }
    }

    /// Adds a new object's entry to a plain index (neither unique, nor full-text, nor over a set's elements), its
    /// columns' values read through `value`: a string column's entry (a string without a zero byte, nearly every
    /// one) is encoded straight into the pending entries' buffer; any other through ``entryScratch``, kept between
    /// calls. No array per object either way (a unique index's entry, checked before the row is placed, is the one
    /// still built as an array).
    func insertEntry(key: ObjectKey, _ value: (ColumnKey) throws -> StorageValue) throws {
        guard impliedBy == nil else { return }
        let columns = spec.columns
        let ordered = UInt64(bitPattern: key.rawValue) ^ 0x8000_0000_0000_0000
        if columns.count == 1, mixed.isEmpty, case .string(var text) = try value(columns[0]) {
            let direct = text.withUTF8 { utf8 -> Bool in
                guard !utf8.contains(0) else { return false }
                pending.append(maxCount: utf8.count + 11, orderedKey: ordered) { target in
                    let count = IndexKeyEncoding.storeString(utf8, at: target)
                    target.storeBytes(of: ordered.bigEndian, toByteOffset: count, as: UInt64.self)
                    return count + 8
                }
                return true
            }
            if direct {
                if pending.footprint >= bufferByteLimit { try setAsidePending() }
                return
            }
        }
        entryScratch.removeAll(keepingCapacity: true)
        for (offset, column) in columns.enumerated() {
            IndexKeyEncoding.append(try value(column), mixed: !mixed.isEmpty && mixed[offset], to: &entryScratch)
        }
        ByteOrder.withKey(key.rawValue) { entryScratch.append(contentsOf: $0) }
        entryScratch.withUnsafeBytes { pending.append($0) }
        if pending.footprint >= bufferByteLimit { try setAsidePending() }
    }

    /// Merges the pending entries into the tree, in order: each descent hands a leaf every entry that sorts
    /// before the next leaf (as many as keep it within one split of its size limit), so a leaf is decoded and
    /// written once per merge however many entries it takes.
    func mergePending() throws {
        if keepsPostingBlocks { try applyPostingChanges() }
        guard !pending.isEmpty || !runs.isEmpty else { return }
        var batches = runs
        runs = []
        if !pending.isEmpty {
            let taken = pending
            pending = PendingEntries(tracksHolders: spec.isUnique, endsWithKeys: !spec.isFullText)
            batches.append(taken.sorted())
        }
        try merge(sorted: batches.count == 1 ? batches[0] : SortedEntries(merging: batches))
    }

    /// Sorts the full pending buffer and sets it aside as a run (``runs``), or merges everything pending when the
    /// runs and the buffer reach ``pendingBufferLimit`` or the index is unique.
    private func setAsidePending() throws {
        guard !spec.isUnique, runs.count + 1 < SortedIndex.pendingBufferLimit else { return try mergePending() }
        runs.append(pending.sorted())
        pending.removeAll()
    }

    /// Merges `batch` (entries in byte order, without repeats) into the tree: each descent hands a leaf every entry
    /// that sorts before the next leaf (as many as keep it within one split of its size limit). With `sweep` (the
    /// posting blocks' writer, whose changes all go through the tree in order), a split keeps the leaf full.
    func merge(sorted batch: SortedEntries, sweep: Bool = false) throws {
        // In a write transaction the reader is the writer: merged leaves are written out as they pile up, to bound
        // memory.
        let writer = nodes.reader as? NodeWriter
        var start = 0
        while start < batch.count {
            start = try nodes.update(batch[start], bounded: { leaf, upper in
                leaf.merge(batch, from: start, below: upper, sweep: sweep)
            })
            if let writer, nodes.loadedLeaves > SortedIndex.mergeLeafLimit { _ = try nodes.flush(in: writer) }
        }
    }

    /// Frees the index's nodes (pending entries are dropped with them).
    func destroy(in writer: NodeWriter) throws {
        pending = PendingEntries(tracksHolders: spec.isUnique, endsWithKeys: !spec.isFullText)
        runs = []
        postingChanges.removeAll()
        try nodes.destroy(in: writer) { _, _ in [] }
    }

    /// Removes an entry (nothing to do for an implied index).
    func remove(_ values: [UInt8], key: ObjectKey) throws {
        guard impliedBy == nil else { return }
        let entry = IndexKeyEncoding.entry(values: values, key: key)
        _ = try tree.update(entry) { $0.remove(entry) }
    }

    /// Removes a whole entry (the values' encoding followed by the object key, or a full-text entry).
    func remove(entry: [UInt8]) throws {
        guard impliedBy == nil else { return }
        if keepsPostingBlocks { return try recordPosting(entry, present: false) }
        _ = try tree.update(entry) { $0.remove(entry) }
    }

    /// Collects the postings of a newly inserted object's text for a posting-block index (its entries, without
    /// making them one by one).
    func insertText(_ text: StorageValue, key: ObjectKey) throws {
        postingChanges.recordText(text, key: key)
        if postingChanges.count >= postingChangeLimit { try applyPostingChanges(holdingOpenBlocks: true) }
    }

    /// Collects a full-text entry's change for the posting blocks, written once `postingChanges` is full or the
    /// index is read or flushed.
    private func recordPosting(_ entry: [UInt8], present: Bool) throws {
        guard postingChanges.record(entry, present: present) else {
            throw StrataError.invalidArgument("index \(spec.key) was handed bytes that are not a full-text entry")
        }
        if postingChanges.count >= postingChangeLimit { try applyPostingChanges(holdingOpenBlocks: true) }
    }

    /// Visits entries ≥ `lower` in order until `body` returns `false`.
    func forEachEntry(from lower: [UInt8], _ body: (UnsafeRawBufferPointer) throws -> Bool) throws {
        if let impliedBy { return try forEachImpliedEntry(of: impliedBy, from: lower, body) }
        let tree = try self.tree
        try lower.withUnsafeBytes { target in
            try tree.forEachLeaf(from: lower) { location in
                try IndexLeafEntries(location, in: tree).forEach(from: target, body)
            }
        }
    }

    /// The first object key whose entry starts with `prefix`, found by one descent to the leaf that would hold
    /// it (the point-lookup path of `find(primaryKey:)` and of unique checks).
    func firstKey(withPrefix prefix: [UInt8]) throws -> ObjectKey? {
        if impliedBy != nil { return try keys(withPrefix: prefix, limit: 1).first }
        return try firstKey(withPrefix: prefix, in: try tree)
    }

    /// The object holding `values` (the encoding of all the index's columns, as `encode` gives it) in a unique
    /// index, or `nil`: the pending entries' holder, else the first match in `nodes`, so a uniqueness check merges
    /// no pending entry. Only for all the columns: the pending entries' holders are kept by all of them.
    func holder(of values: [UInt8]) throws -> ObjectKey? {
        guard impliedBy == nil, spec.isUnique else { return try firstKey(withPrefix: values) }
        if let held = values.withUnsafeBytes({ pending.holder(of: $0) }) { return held }
        return try firstKey(withPrefix: values, in: nodes)
    }

    /// `firstKey(withPrefix:)` in `tree` (the index's nodes, with or without the pending entries merged).
    private func firstKey(withPrefix prefix: [UInt8], in tree: IndexTree) throws -> ObjectKey? {
        let answer = try prefix.withUnsafeBytes { target -> (found: ObjectKey?, isFinal: Bool) in
            guard let (location, isLast) = try tree.locateWithEdge(target) else { return (nil, true) }
            var found: ObjectKey?
            // Only the first entry ≥ the prefix decides: it matches, or nothing does.
            let reachedEnd = try IndexLeafEntries(location, in: tree).forEach(from: target) { entry in
                if entry.count >= target.count + 8, SortedIndex.hasPrefix(entry, target) {
                    found = IndexKeyEncoding.objectKey(ofEntry: entry)
                }
                return false
            }
            // Every entry of that leaf sorts before the prefix: the match, if any, opens the next leaf.
            return (found, !reachedEnd || isLast)
        }
        if answer.isFinal { return answer.found }
        var found: ObjectKey?
        try prefix.withUnsafeBytes { target in
            try tree.forEachLeaf(from: prefix) { location in
                try IndexLeafEntries(location, in: tree).forEach(from: target) { entry in
                    if entry.count >= target.count + 8, SortedIndex.hasPrefix(entry, target) {
                        found = IndexKeyEncoding.objectKey(ofEntry: entry)
                    }
                    return false
                }
            }
        }
        return found
    }

    /// Object keys of entries whose bytes start with `prefix`, in index order.
    func keys(withPrefix prefix: [UInt8], limit: Int = .max) throws -> [ObjectKey] {
        if impliedBy == nil, let found = try keysInOneLeaf(withPrefix: prefix, limit: limit) { return found.array }
        var result: [ObjectKey] = []
        try forEachEntry(from: prefix) { entry in
            guard entry.count >= prefix.count + 8, SortedIndex.hasPrefix(entry, prefix), result.count < limit else { return false }
            result.append(IndexKeyEncoding.objectKey(ofEntry: entry))
            return result.count < limit
        }
        return result
    }

    /// ``keys(withPrefix:limit:)`` of a prefix lent as raw bytes (encoded on the caller's stack), the first key
    /// inline: a lookup that finds one object allocates nothing. The prefix is copied into an array only when the
    /// matches go on past the leaf that holds it.
    func foundKeys(withPrefix prefix: UnsafeRawBufferPointer, limit: Int = .max) throws -> FoundKeys {
        if impliedBy == nil, let found = try keysInOneLeaf(withPrefix: prefix, limit: limit) { return found }
        return FoundKeys(try keys(withPrefix: Array(prefix), limit: limit))
    }

    /// ``keys(withPrefix:limit:)`` when the leaf that would hold `prefix` answers alone: its matches end inside it
    /// (or it is the tree's last leaf), as they do for nearly every equality lookup. `nil` when they may go on
    /// into the next leaf, which the caller then reads through ``forEachEntry(from:_:)``.
    ///
    /// One descent straight to the leaf, read where it lies: an equality lookup in a loop (`name == %@`) is this
    /// descent and a few comparisons, without the recursive leaf visit.
    private func keysInOneLeaf(withPrefix prefix: [UInt8], limit: Int) throws -> FoundKeys? {
        try prefix.withUnsafeBytes { try keysInOneLeaf(withPrefix: $0, limit: limit) }
    }

    /// ``keysInOneLeaf(withPrefix:limit:)`` of raw bytes.
    private func keysInOneLeaf(withPrefix target: UnsafeRawBufferPointer, limit: Int) throws -> FoundKeys? {
        guard limit > 0 else { return FoundKeys() }
        let tree = try self.tree
        guard let (location, isLast) = try tree.locateWithEdge(target) else { return FoundKeys() }
        var result = FoundKeys()
        let reachedEnd = try IndexLeafEntries(location, in: tree).forEach(from: target) { entry in
            guard entry.count >= target.count + 8, SortedIndex.hasPrefix(entry, target) else { return false }
            result.append(IndexKeyEncoding.objectKey(ofEntry: entry))
            return result.count < limit
        }
        // The leaf ended while its entries still matched (or before the first match): the next leaf may hold
        // more, unless there is none.
        return reachedEnd && !isLast ? nil : result
    }

    /// Object keys of entries between two encoded bounds, in index order.
    func keys(lower: [UInt8]?, lowerInclusive: Bool, upper: [UInt8]?, upperInclusive: Bool) throws -> [ObjectKey] {
        var result: [ObjectKey] = []
        try forEachEntry(from: lower ?? []) { entry in
            let values = UnsafeRawBufferPointer(rebasing: entry[..<max(0, entry.count - 8)])
            if let lower, !lowerInclusive, SortedIndex.hasPrefix(values, lower) { return true }
            if let upper {
                let order = upper.withUnsafeBytes { ByteOrder.compare(values, $0) }
                let inUpper = upperInclusive ? (order <= 0 || SortedIndex.hasPrefix(values, upper)) : (order < 0 && !SortedIndex.hasPrefix(values, upper))
                if !inUpper { return false }
            }
            result.append(IndexKeyEncoding.objectKey(ofEntry: entry))
            return true
        }
        return result
    }

    static func hasPrefix(_ bytes: UnsafeRawBufferPointer, _ prefix: [UInt8]) -> Bool {
        prefix.withUnsafeBytes { hasPrefix(bytes, $0) }
    }

    static func hasPrefix(_ bytes: UnsafeRawBufferPointer, _ prefix: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count >= prefix.count else { return false }
        return ByteOrder.compare(UnsafeRawBufferPointer(rebasing: bytes[..<prefix.count]), prefix) == 0
    }
}
