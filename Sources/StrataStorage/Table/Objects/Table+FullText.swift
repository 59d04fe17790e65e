extension Table {
    /// The full-text indexes of the table (each over one string column).
    public var fullTextIndexSpecs: [IndexSpec] { indexes.filter(\.spec.isFullText).map(\.spec) }

    /// The full-text index over `column`, if any.
    public func fullTextIndex(on column: ColumnKey) -> IndexSpec? {
        indexes.first { $0.spec.isFullText && $0.spec.columns == [column] }?.spec
    }

    /// Adds a full-text index over a `string` (or `string?`) column and fills it from the table (`TextTokenizer`
    /// says how text becomes terms); the existing one when there is one.
    /// - Throws: `StrataError.invalidArgument` for a column that is not a string column.
    /// - Complexity: O(n log n) over the tokens of the table's texts.
    @discardableResult
    public func addFullTextIndex(on column: ColumnKey) throws -> IndexKey {
        let writer = try catalog.requireWriter("add a full-text index to table '\(name)'")
        let spec = context.specs[try position(of: column)]
        guard spec.type == .value(.string) else {
            throw StrataError.invalidArgument(
                "column '\(name).\(spec.name)' of type \(spec.type) cannot have a full-text index; "
                    + "only string columns can")
        }
        if let existing = fullTextIndex(on: column) { return existing.key }
        let indexSpec = IndexSpec(
            key: IndexKey(rawValue: nextIndexKey), columns: [column], isUnique: false, isFullText: true)
        let index = SortedIndex(spec: indexSpec, root: .none, reader: reader, table: name)
        do {
            try forEachKey { key in
                for entry in FullTextEntry.entries(for: try value(key, column: column), key: key) {
                    try index.insert(entry: entry)
                }
                if index.nodes.loadedLeaves > Catalog.loadedLeafLimit { _ = try index.nodes.flush(in: writer) }
                return true
            }
        } catch {
            try index.destroy(in: writer)
            throw error
        }
        nextIndexKey += 1
        indexes.append(index)
        return indexSpec.key
    }

    /// The postings of `term` (already folded, as `TextTokenizer.fold` folds) in a full-text index, in object-key
    /// order; with `prefix`, of every term that starts with `term`, one posting per object with their positions
    /// merged.
    package func fullTextPostings(_ index: IndexKey, term: String, prefix: Bool) throws -> [FullTextPosting] {
        let sorted = try fullTextSortedIndex(index)
        let start = prefix ? FullTextEntry.termStartPrefix(term) : FullTextEntry.termPrefix(term)
        var postings: [FullTextPosting] = []
        var damaged = false
        try sorted.forEachEntry(from: start) { entry in
            guard SortedIndex.hasPrefix(entry, start) else { return false }
            guard let posting = FullTextEntry.posting(of: entry) else {
                damaged = true
                return false
            }
            postings.append(posting)
            return true
        }
        if damaged {
            throw StrataError.invalidArgument("full-text index \(index) of table '\(name)' holds damaged entries")
        }
        guard prefix, postings.count > 1 else { return postings }
        var merged: [ObjectKey: FullTextPosting] = [:]
        for posting in postings {
            if var existing = merged[posting.key] {
                existing.positions = (existing.positions + posting.positions).sorted()
                merged[posting.key] = existing
            } else {
                merged[posting.key] = posting
            }
        }
        return merged.values.sorted { $0.key.rawValue < $1.key.rawValue }
    }

    /// How many objects have text with at least one token in a full-text index, and their average token count
    /// (over at most `sample` of them, in object-key order: BM25's average length need not be exact).
    package func fullTextStatistics(
        _ index: IndexKey, sample: Int = 4096
    ) throws -> (documents: Int, averageLength: Double) {
        let sorted = try fullTextSortedIndex(index)
        let documents = try sorted.count(withPrefix: FullTextEntry.lengthPrefix) ?? 0
        var total = 0, seen = 0
        try sorted.forEachEntry(from: FullTextEntry.lengthPrefix) { entry in
            guard SortedIndex.hasPrefix(entry, FullTextEntry.lengthPrefix), seen < sample,
                let found = FullTextEntry.length(of: entry)
            else { return false }
            total += found.length
            seen += 1
            return true
        }
        return (documents, seen == 0 ? 0 : Double(total) / Double(seen))
    }

    /// The number of entries and the encoded bytes of a full-text index's entries (what `strata info` shows).
    package func fullTextSize(_ index: IndexKey) throws -> (entries: Int, bytes: Int) {
        let sorted = try fullTextSortedIndex(index)
        var entries = 0, bytes = 0
        try sorted.forEachEntry(from: []) { entry in
            entries += 1
            bytes += entry.count
            return true
        }
        return (entries, bytes)
    }

    private func fullTextSortedIndex(_ key: IndexKey) throws -> SortedIndex {
        let index = try sortedIndex(key)
        guard index.spec.isFullText else {
            throw StrataError.invalidArgument("index \(key) of table '\(name)' is not a full-text index")
        }
        return index
    }
}
