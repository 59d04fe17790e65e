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
        try addFullTextIndex(on: column, postingBlocks: true, trigrams: true, compact: true, scoreBounds: true)
    }

    /// ``addFullTextIndex(on:)`` in any of the layouts files hold: posting blocks, or (`postingBlocks: false`) the
    /// one entry per (term, object) of files written before them; runs of unspaced scripts cut into trigrams, or
    /// (`trigrams: false`) into the pairs of files written before trigrams; posting blocks in the compact layout,
    /// or (`compact: false`) the wide one of files written before it (`PostingLayout`); compact blocks with a
    /// score bound each (`scoreBounds`, `IndexSpec.isScoreBounds`) or without, as files written before them hold.
    /// Tests use the older layouts to check that such indexes are still read and kept exact.
    @discardableResult
    package func addFullTextIndex(
        on column: ColumnKey, postingBlocks: Bool, trigrams: Bool, compact: Bool = false, scoreBounds: Bool = false
    ) throws -> IndexKey {
        let writer = try catalog.requireWriter("add a full-text index to table '\(name)'")
        let spec = context.specs[try position(of: column)]
        guard spec.type == .value(.string) else {
            throw StrataError.invalidArgument(
                "column '\(name).\(spec.name)' of type \(spec.type) cannot have a full-text index; "
                    + "only string columns can")
        }
        if let existing = fullTextIndex(on: column) { return existing.key }
        let indexSpec = IndexSpec(
            key: IndexKey(rawValue: nextIndexKey), columns: [column], isUnique: false, isFullText: true,
            isPostingBlocks: postingBlocks, isTrigrams: trigrams, isCompactPostings: postingBlocks && compact,
            isScoreBounds: postingBlocks && compact && scoreBounds)
        let index = SortedIndex(spec: indexSpec, root: .none, reader: reader, table: name)
        do {
            try forEachKey { key in
                if postingBlocks {
                    try index.insertText(try value(key, column: column), key: key)
                } else {
                    let text = try value(key, column: column)
                    for entry in FullTextEntry.entries(for: text, key: key, trigrams: trigrams) {
                        try index.insert(entry: entry)
                    }
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
    /// merged. With `among` (ascending keys), only the postings of those objects: a posting-block index then
    /// decodes only the blocks that may hold one of them (a phrase's words, once their keys are intersected).
    package func fullTextPostings(
        _ index: IndexKey, term: String, prefix: Bool, among: [ObjectKey]? = nil
    ) throws -> [FullTextPosting] {
        let sorted = try fullTextSortedIndex(index)
        let start = prefix ? FullTextEntry.termStartPrefix(term) : FullTextEntry.termPrefix(term)
        // One list per term, each in key order.
        var lists: [[FullTextPosting]] = []
        if sorted.keepsPostingBlocks {
            var previousTerm: [UInt8] = []
            var damaged = false
            // The next of `among` that a block may hold (back to the first at each new term).
            var next = 0
            let layout = sorted.postingLayout
            try sorted.forEachPostingBlock(withPrefix: start) { block in
                // A new term starts a new list (blocks of one term follow each other).
                if lists.isEmpty || !previousTerm.elementsEqual(block.term) {
                    lists.append([])
                    previousTerm = Array(block.term)
                    next = 0
                }
                if let among {
                    // Past the last wanted key: done with this term (a prefix's next terms start again).
                    if next >= among.count { return prefix }
                    // A block whose bound is below the next wanted key holds none of them: not decoded.
                    if among[next].rawValue > block.bound { return true }
                }
                let decoded = PostingBlock.forEachPosting(of: block.payload, layout: layout) { key in
                    guard let among else { return true }
                    while next < among.count, among[next].rawValue < key { next += 1 }
                    return next < among.count && among[next].rawValue == key
                } _: { posting in
                    lists[lists.count - 1].append(
                        FullTextPosting(
                            key: ObjectKey(posting.key), documentLength: posting.length, positions: posting.positions))
                }
                if !decoded { damaged = true }
                return decoded
            }
            if damaged { throw damagedFullText(index) }
            if layout == .compact {
                // The token counts come from the length blocks, once per object.
                for list in lists.indices {
                    let lengths = try documentLengths(sorted, of: lists[list].map(\.key))
                    for row in lists[list].indices { lists[list][row].documentLength = Int(lengths[row]) }
                }
            }
        } else {
            var damaged = false
            var previousTerm: [UInt8] = []
            try sorted.forEachEntry(from: start) { entry in
                guard SortedIndex.hasPrefix(entry, start) else { return false }
                guard let posting = FullTextEntry.posting(of: entry), let end = FullTextEntry.termEnd(of: entry) else {
                    damaged = true
                    return false
                }
                if lists.isEmpty || !previousTerm.elementsEqual(entry[0..<end]) {
                    lists.append([])
                    previousTerm = Array(entry[0..<end])
                }
                lists[lists.count - 1].append(posting)
                return true
            }
            if damaged { throw damagedFullText(index) }
            if let among {
                let wanted = Set(among)
                lists = lists.map { $0.filter { wanted.contains($0.key) } }
            }
        }
        return Self.mergedPostings(lists)
    }

    /// One posting per object of several lists in key order, the positions of an object's postings merged.
    private static func mergedPostings(_ lists: [[FullTextPosting]]) -> [FullTextPosting] {
        guard lists.count > 1 else { return lists.first ?? [] }
        var all = lists.flatMap { $0 }
        all.sort { $0.key.rawValue < $1.key.rawValue }
        var merged: [FullTextPosting] = []
        merged.reserveCapacity(all.count)
        for posting in all {
            if let last = merged.last, last.key == posting.key {
                merged[merged.count - 1].positions = (last.positions + posting.positions).sorted()
            } else {
                merged.append(posting)
            }
        }
        return merged
    }

    /// The object keys of the postings of `term` in a full-text index, ascending, without decoding lengths or
    /// positions (a posting-block index reads the keys' section of each block only). With `prefix`, of every
    /// term that starts with `term`.
    package func fullTextKeys(_ index: IndexKey, term: String, prefix: Bool) throws -> [ObjectKey] {
        let sorted = try fullTextSortedIndex(index)
        guard sorted.keepsPostingBlocks else {
            return try fullTextPostings(index, term: term, prefix: prefix).map(\.key)
        }
        let start = prefix ? FullTextEntry.termStartPrefix(term) : FullTextEntry.termPrefix(term)
        var keys: [Int64] = []
        var damaged = false
        let layout = sorted.postingLayout
        try sorted.forEachPostingBlock(withPrefix: start) { block in
            guard PostingBlock.appendKeys(of: block.payload, layout: layout, to: &keys) else {
                damaged = true
                return false
            }
            return true
        }
        if damaged { throw damagedFullText(index) }
        if prefix {
            keys.sort()
            var unique: [ObjectKey] = []
            unique.reserveCapacity(keys.count)
            for key in keys where unique.last?.rawValue != key { unique.append(ObjectKey(key)) }
            return unique
        }
        return keys.map { ObjectKey($0) }
    }

    /// The objects of `within` (ascending keys) that hold exactly `term` in a full-text index, ascending: the
    /// intersection of `within` with the term's postings, read from the keys' section of the blocks that may hold
    /// one of them only. The walk seeks (``SortedIndex/forEachPostingBlock(ofTerm:seeking:_:)``): blocks whose
    /// bound is below the next wanted key are stepped over undecoded, and past a few of them in a row the tree is
    /// descended again to that key's block, so a short list skips whole runs of a long one's blocks; the walk
    /// ends past the last wanted key.
    package func fullTextKeys(_ index: IndexKey, term: String, within: [ObjectKey]) throws -> [ObjectKey] {
        let sorted = try fullTextSortedIndex(index)
        guard !within.isEmpty else { return [] }
        guard sorted.keepsPostingBlocks else {
            return Self.intersection(within, try fullTextKeys(index, term: term, prefix: false))
        }
        var found: [ObjectKey] = []
        var blockKeys: [Int64] = []
        var next = 0
        var damaged = false
        let layout = sorted.postingLayout
        try sorted.forEachPostingBlock(
            ofTerm: FullTextEntry.termPrefix(term), seeking: { next < within.count ? within[next].rawValue : nil }
        ) { block in
            blockKeys.removeAll(keepingCapacity: true)
            guard PostingBlock.appendKeys(of: block.payload, layout: layout, to: &blockKeys) else {
                damaged = true
                return false
            }
            for key in blockKeys {
                while next < within.count, within[next].rawValue < key { next += 1 }
                if next == within.count { return false }
                if within[next].rawValue == key {
                    found.append(within[next])
                    next += 1
                    if next == within.count { return false }
                }
            }
            return true
        }
        if damaged { throw damagedFullText(index) }
        return found
    }

    /// The first `count` object keys holding exactly `term` in a full-text index, in key order, or (with
    /// `descending`) the last `count` from the highest down: a posting-block index reads its blocks from that end
    /// (backwards for `descending`, from the term's last block) and stops once it has them, so the newest matches
    /// of a word cost a block or two whatever the word's frequency.
    package func fullTextKeys(
        _ index: IndexKey, term: String, first count: Int, descending: Bool
    ) throws -> [ObjectKey] {
        let sorted = try fullTextSortedIndex(index)
        guard count > 0 else { return [] }
        guard sorted.keepsPostingBlocks else {
            let all = try fullTextKeys(index, term: term, prefix: false)
            return descending ? Array(all.suffix(count).reversed()) : Array(all.prefix(count))
        }
        var keys: [ObjectKey] = []
        var blockKeys: [Int64] = []
        var damaged = false
        let layout = sorted.postingLayout
        let body = { (block: PostingEntry) -> Bool in
            blockKeys.removeAll(keepingCapacity: true)
            guard PostingBlock.appendKeys(of: block.payload, layout: layout, to: &blockKeys) else {
                damaged = true
                return false
            }
            if descending {
                for key in blockKeys.reversed() where keys.count < count { keys.append(ObjectKey(key)) }
            } else {
                for key in blockKeys where keys.count < count { keys.append(ObjectKey(key)) }
            }
            return keys.count < count
        }
        let prefix = FullTextEntry.termPrefix(term)
        if descending {
            try sorted.forEachPostingBlockBackward(ofTerm: prefix, body)
        } else {
            try sorted.forEachPostingBlock(withPrefix: prefix, body)
        }
        if damaged { throw damagedFullText(index) }
        return keys
    }

    /// The keys in both ascending lists.
    private static func intersection(_ left: [ObjectKey], _ right: [ObjectKey]) -> [ObjectKey] {
        var result: [ObjectKey] = []
        var index = 0
        for key in left {
            while index < right.count, right[index] < key { index += 1 }
            if index == right.count { break }
            if right[index] == key { result.append(key) }
        }
        return result
    }

    /// The number of index entries of exactly `term` in a full-text index: its posting blocks (or, in the older
    /// layout, its postings), from the tree's subtree counts in two descents, no entry read. What tells a query
    /// which of its words is the rarest before it reads any list.
    package func fullTextEntryCount(_ index: IndexKey, term: String) throws -> Int {
        try fullTextSortedIndex(index).count(withPrefix: FullTextEntry.termPrefix(term)) ?? 0
    }

    /// The posting blocks of exactly `term` in key order, copied with their score bounds (their payloads side by
    /// side in one buffer), when the index keeps score bounds (`IndexSpec.isScoreBounds`); `nil` when it does not
    /// (ranking then scores every match). No block's postings are decoded: what a ranked top-k orders its blocks
    /// by before it decodes the best of them.
    package func fullTextScoredBlocks(_ index: IndexKey, term: String) throws -> ScoredPostingBlocks? {
        let sorted = try fullTextSortedIndex(index)
        guard sorted.keepsScoreBounds else { return nil }
        var blocks = ScoredPostingBlocks()
        var damaged = false
        try sorted.forEachPostingBlock(withPrefix: FullTextEntry.termPrefix(term)) { block in
            // Each posting takes a byte or more of the payload.
            guard block.scoreBound != nil, let count = PostingBlock.count(of: block.payload), count > 0,
                count <= block.payload.count
            else {
                damaged = true
                return false
            }
            blocks.append(block, count: count)
            return true
        }
        if damaged { throw damagedFullText(index) }
        return blocks
    }

    /// The number of postings of exactly `term` in a full-text index (its document frequency), read from the
    /// posting blocks' counts without decoding them.
    package func fullTextPostingCount(_ index: IndexKey, term: String) throws -> Int {
        let sorted = try fullTextSortedIndex(index)
        guard sorted.keepsPostingBlocks else { return try fullTextKeys(index, term: term, prefix: false).count }
        var total = 0
        var damaged = false
        try sorted.forEachPostingBlock(withPrefix: FullTextEntry.termPrefix(term)) { block in
            guard let count = PostingBlock.count(of: block.payload) else {
                damaged = true
                return false
            }
            total += count
            return true
        }
        if damaged { throw damagedFullText(index) }
        return total
    }

    /// The objects holding exactly `term` in a full-text index, ascending, with the term's frequency in each and
    /// their token counts (what BM25 needs of one word), without reading positions. Without `withLengths`, the
    /// token counts are given only where the postings hold them (an index in the compact layout gives none:
    /// its length blocks are read once for a query's matches, `fullTextStatistics(_:sample:lengthsOf:)`).
    package func fullTextFrequencies(
        _ index: IndexKey, term: String, withLengths: Bool = true
    ) throws -> (keys: [ObjectKey], frequencies: [Int32], lengths: [Int32]) {
        let sorted = try fullTextSortedIndex(index)
        var keys: [ObjectKey] = [], frequencies: [Int32] = [], lengths: [Int32] = []
        guard sorted.keepsPostingBlocks else {
            for posting in try fullTextPostings(index, term: term, prefix: false) {
                keys.append(posting.key)
                frequencies.append(Int32(truncatingIfNeeded: posting.positions.count))
                lengths.append(Int32(truncatingIfNeeded: posting.documentLength))
            }
            return (keys, frequencies, lengths)
        }
        var damaged = false
        let layout = sorted.postingLayout
        try sorted.forEachPostingBlock(withPrefix: FullTextEntry.termPrefix(term)) { block in
            guard
                PostingBlock.appendCounts(
                    of: block.payload, layout: layout, keys: &keys, lengths: &lengths, frequencies: &frequencies)
            else {
                damaged = true
                return false
            }
            return true
        }
        if damaged { throw damagedFullText(index) }
        // The compact layout keeps the token counts in the length blocks only.
        if layout == .compact, withLengths { lengths = try documentLengths(sorted, of: keys) }
        return (keys, frequencies, lengths)
    }

    /// The positions of exactly `term` in each object of `among` (ascending keys, every one holding the term),
    /// flat: object `i`'s positions are `positions[ends[i - 1]..<ends[i]]` (from 0 for the first), and its token
    /// count `lengths[i]`. Only the blocks that hold one of them are decoded, and no array is made per object.
    /// - Throws: `StrataError.invalidArgument` when an object of `among` has no posting of the term, or for
    ///   damaged entries.
    package func fullTextPositions(
        _ index: IndexKey, term: String, among: [ObjectKey]
    ) throws -> (positions: [Int32], ends: [Int32], lengths: [Int32]) {
        let found = try fullTextPositions(index, term: term, within: among)
        guard found.keys.count == among.count else {
            throw StrataError.invalidArgument(
                "full-text index \(index) of table '\(name)': \(among.count - found.keys.count) of the objects asked "
                    + "for have no posting of '\(term)'")
        }
        return (found.positions, found.ends, found.lengths)
    }

    /// The objects holding exactly `term`, among `within` (ascending keys) when given, with their positions flat
    /// as ``fullTextPositions(_:term:among:)`` gives them: `keys[i]`'s positions are
    /// `positions[ends[i - 1]..<ends[i]]`. A block whose bound is below the next wanted key is not decoded.
    /// Without `withLengths`, `lengths` is left empty (a compact index reads them from its length blocks, which a
    /// phrase that is only counted does not need).
    package func fullTextPositions(
        _ index: IndexKey, term: String, within among: [ObjectKey]?, withLengths: Bool = true
    ) throws -> (keys: [ObjectKey], positions: [Int32], ends: [Int32], lengths: [Int32]) {
        let sorted = try fullTextSortedIndex(index)
        var keys: [ObjectKey] = [], positions: [Int32] = [], ends: [Int32] = [], lengths: [Int32] = []
        if sorted.keepsPostingBlocks {
            var next = 0
            var damaged = false
            let layout = sorted.postingLayout
            let body = { (block: PostingEntry) -> Bool in
                guard
                    PostingBlock.appendPositions(
                        of: block.payload, layout: layout, among: among, next: &next, keys: &keys,
                        positions: &positions, ends: &ends, lengths: &lengths)
                else {
                    damaged = true
                    return false
                }
                return among.map { next < $0.count } ?? true
            }
            let term = FullTextEntry.termPrefix(term)
            if let among {
                // Only the blocks that may hold a wanted key, descending the tree again past runs of others.
                try sorted.forEachPostingBlock(
                    ofTerm: term, seeking: { next < among.count ? among[next].rawValue : nil }, body)
            } else {
                try sorted.forEachPostingBlock(withPrefix: term, body)
            }
            if damaged { throw damagedFullText(index) }
            if layout == .compact, withLengths { lengths = try documentLengths(sorted, of: keys) }
        } else {
            for posting in try fullTextPostings(index, term: term, prefix: false, among: among) {
                keys.append(posting.key)
                positions += posting.positions.map { Int32(truncatingIfNeeded: $0) }
                ends.append(Int32(truncatingIfNeeded: positions.count))
                lengths.append(Int32(truncatingIfNeeded: posting.documentLength))
            }
        }
        if !withLengths { lengths = [] }
        return (keys, positions, ends, lengths)
    }

    /// The objects holding exactly `term`, the word at `offset` in a phrase, each with the positions where the
    /// phrase may start there (the term's positions, `offset` earlier): where a phrase's narrowing starts, from its
    /// driving word (``fullTextNarrow(_:_:term:offset:)``).
    /// A posting-block index appends each block's postings whole (`PostingBlock.appendStarts`).
    package func fullTextPhraseStarts(_ index: IndexKey, term: String, offset: Int) throws -> PhraseStarts {
        let sorted = try fullTextSortedIndex(index)
        guard sorted.keepsPostingBlocks else {
            let found = try fullTextPositions(index, term: term, within: nil, withLengths: false)
            return PhraseStarts(keys: found.keys, positions: found.positions, ends: found.ends, offset: offset)
        }
        var starts = PhraseStarts()
        var damaged = false
        let layout = sorted.postingLayout
        let shift = Int32(truncatingIfNeeded: offset)
        try sorted.forEachPostingBlock(withPrefix: FullTextEntry.termPrefix(term)) { block in
            guard PostingBlock.appendStarts(of: block.payload, layout: layout, shift: shift, to: &starts) else {
                damaged = true
                return false
            }
            return true
        }
        if damaged { throw damagedFullText(index) }
        return starts
    }

    /// Narrows a phrase's `starts` by exactly `term`, the phrase's word at `offset`: the objects that hold it, each
    /// with the starts whose position `offset` further on is one of the term's there.
    ///
    /// A posting-block index walks only the term's blocks that may hold one of the objects (descending the tree
    /// past runs of others) and compares positions inside each block as it reads them
    /// (`PostingBlock.narrow(_:by:layout:shift:next:into:)`): the term's postings are never gathered.
    package func fullTextNarrow(
        _ index: IndexKey, _ starts: PhraseStarts, term: String, offset: Int
    ) throws -> PhraseStarts {
        guard starts.count > 0 else { return starts }
        let sorted = try fullTextSortedIndex(index)
        guard sorted.keepsPostingBlocks else {
            let found = try fullTextPositions(index, term: term, within: starts.keys, withLengths: false)
            return starts.narrowed(byKeys: found.keys, positions: found.positions, ends: found.ends, offset: offset)
        }
        var next = 0
        var damaged = false
        let layout = sorted.postingLayout
        let keys = starts.keys
        let kept = try starts.narrowed { kept in
            try sorted.forEachPostingBlock(
                ofTerm: FullTextEntry.termPrefix(term), seeking: { next < keys.count ? keys[next].rawValue : nil }
            ) { block in
                guard
                    PostingBlock.narrow(
                        starts, by: block.payload, layout: layout, shift: Int64(offset), next: &next, into: &kept)
                else {
                    damaged = true
                    return false
                }
                return next < keys.count
            }
        }
        if damaged { throw damagedFullText(index) }
        return kept
    }

    /// The token counts (BM25's document lengths) of the objects `keys` (ascending, each with text in the index)
    /// in a full-text index: a posting-block index reads them from its length blocks by a seeking walk that
    /// decodes only the blocks holding one of them.
    /// - Throws: `StrataError.invalidArgument` when an object has no document length in the index.
    package func fullTextDocumentLengths(_ index: IndexKey, of keys: [ObjectKey]) throws -> [Int32] {
        let sorted = try fullTextSortedIndex(index)
        if sorted.keepsPostingBlocks { return try documentLengths(sorted, of: keys) }
        var lengths: [Int32] = []
        lengths.reserveCapacity(keys.count)
        for key in keys {
            var found: Int?
            try sorted.forEachEntry(from: FullTextEntry.lengthPrefix + ByteOrder.key(key.rawValue)) { entry in
                guard SortedIndex.hasPrefix(entry, FullTextEntry.lengthPrefix) else { return false }
                found = FullTextEntry.length(of: entry).flatMap { $0.key == key ? $0.length : nil }
                return false
            }
            guard let found else {
                throw StrataError.invalidArgument(
                    "full-text index \(index) of table '\(name)' has no document length for object \(key)")
            }
            lengths.append(Int32(truncatingIfNeeded: found))
        }
        return lengths
    }

    /// How many objects have text with at least one token in a full-text index, and their average token count
    /// (over at most `sample` of them, in object-key order: BM25's average length need not be exact). In a read
    /// transaction (the index cannot change) they are read once and kept (`SortedIndex.textStatistics`): the
    /// walk over every length block is what a pruned top-k would otherwise spend most of its time on.
    package func fullTextStatistics(
        _ index: IndexKey, sample: Int = 4096
    ) throws -> (documents: Int, averageLength: Double) {
        let sorted = try fullTextSortedIndex(index)
        if sorted.isFixed, let kept = sorted.textStatistics, kept.sample == sample {
            return (kept.documents, kept.averageLength)
        }
        let found = try fullTextStatistics(index, sample: sample, lengthsOf: [])
        if sorted.isFixed { sorted.textStatistics = (sample, found.documents, found.averageLength) }
        return (found.documents, found.averageLength)
    }

    /// Every object's token count in a posting-block full-text index, in memory (`DocumentLengthTable`), read in
    /// one walk over the length blocks; in a read transaction (the index cannot change) read once and kept with
    /// the index for its version. `nil` for an index of one entry per (term, object).
    /// - Throws: `StrataError.invalidArgument` for damaged length blocks.
    package func fullTextLengthTable(_ index: IndexKey) throws -> DocumentLengthTable? {
        let sorted = try fullTextSortedIndex(index)
        guard sorted.keepsPostingBlocks else { return nil }
        if sorted.isFixed, let kept = sorted.lengthTable { return kept }
        var keys: [Int64] = [], lengths: [Int32] = []
        var damaged = false
        let layout = sorted.postingLayout
        try sorted.forEachPostingBlock(withPrefix: FullTextEntry.lengthPrefix) { block in
            var previous = keys.last
            var ascending = true
            let count = PostingBlock.forEachLength(of: block.payload, layout: layout) { key, length in
                // Keys ascend from block to block too.
                if let last = previous, key <= last {
                    ascending = false
                    return false
                }
                previous = key
                keys.append(key)
                lengths.append(Int32(clamping: length))
                return true
            }
            guard count != nil, ascending else {
                damaged = true
                return false
            }
            return true
        }
        if damaged { throw damagedFullText(index) }
        let table = DocumentLengthTable(keys: keys, lengths: lengths)
        if sorted.isFixed { sorted.lengthTable = table }
        return table
    }

    /// ``fullTextStatistics(_:sample:)`` and the token counts of the objects `keys` (ascending, each with text in
    /// the index), what ranking needs of the length entries: a posting-block index reads both in one walk over
    /// its length blocks in key order, beside `keys` (no descent per key), stopping in each block at its last
    /// wanted object and reading only the object count of a block that holds none.
    /// - Throws: `StrataError.invalidArgument` when an object of `keys` has no document length, or for damaged
    ///   blocks.
    package func fullTextStatistics(
        _ index: IndexKey, sample: Int = 4096, lengthsOf keys: [ObjectKey]
    ) throws -> (documents: Int, averageLength: Double, lengths: [Int32]) {
        let sorted = try fullTextSortedIndex(index)
        var total = 0, seen = 0
        guard sorted.keepsPostingBlocks else {
            let documents = try sorted.count(withPrefix: FullTextEntry.lengthPrefix) ?? 0
            try sorted.forEachEntry(from: FullTextEntry.lengthPrefix) { entry in
                guard SortedIndex.hasPrefix(entry, FullTextEntry.lengthPrefix), seen < sample,
                    let found = FullTextEntry.length(of: entry)
                else { return false }
                total += found.length
                seen += 1
                return true
            }
            let lengths = keys.isEmpty ? [] : try fullTextDocumentLengths(index, of: keys)
            return (documents, seen == 0 ? 0 : Double(total) / Double(seen), lengths)
        }
        var documents = 0
        var damaged = false, missing = false
        var lengths: [Int32] = []
        lengths.reserveCapacity(keys.count)
        var next = 0
        let layout = sorted.postingLayout
        try sorted.forEachPostingBlock(withPrefix: FullTextEntry.lengthPrefix) { block in
            let count: Int?
            if seen < sample {
                // The first `sample` objects' token counts give the average length.
                count = PostingBlock.forEachLength(of: block.payload, layout: layout) { _, length in
                    total += Int(truncatingIfNeeded: length)
                    seen += 1
                    return seen < sample
                }
            } else {
                count = PostingBlock.count(of: block.payload)
            }
            guard let count else {
                damaged = true
                return false
            }
            // The wanted objects' counts, the block read only as far as its last wanted object.
            if next < keys.count, keys[next].rawValue <= block.bound {
                guard
                    PostingBlock.appendLengths(
                        of: block.payload, layout: layout, bound: block.bound, keys: keys, next: &next, to: &lengths)
                else {
                    missing = true
                    return false
                }
            }
            documents += count
            return true
        }
        if damaged { throw damagedFullText(index) }
        guard !missing, lengths.count == keys.count else {
            throw missingLengths(sorted, keys.count - lengths.count, of: keys.count)
        }
        return (documents, seen == 0 ? 0 : Double(total) / Double(seen), lengths)
    }

    /// The number of entries (posting blocks, or entries of the older layout) and their encoded bytes in a
    /// full-text index, and the stored nodes (leaves and branches) that hold them with their payload bytes (what
    /// `strata info` shows: the entries' share of the nodes is how full the leaves are).
    package func fullTextSize(_ index: IndexKey) throws -> (entries: Int, bytes: Int, nodes: Int, nodeBytes: Int) {
        let sorted = try fullTextSortedIndex(index)
        var entries = 0, bytes = 0
        try sorted.forEachEntry(from: []) { entry in
            entries += 1
            bytes += entry.count
            return true
        }
        var nodes = 0, nodeBytes = 0
        let tree = try sorted.tree
        try tree.forEachNode { ref, _ in
            nodes += 1
            nodeBytes += try tree.reader.read(ref).count
        }
        return (entries, bytes, nodes, nodeBytes)
    }

    /// The entries of a full-text index in the one-per-(term, object) form of ``FullTextEntry``, in order: what
    /// `verify` compares with the entries the objects' text gives. A posting-block index's blocks are decoded and
    /// checked on the way: keys that ascend, each block's keys above the previous block's bound and at most its
    /// own (a block keeps its bound when its last object is removed), an open block only last.
    func fullTextEntries(_ index: SortedIndex) throws -> [[UInt8]] {
        guard index.keepsPostingBlocks else {
            var entries: [[UInt8]] = []
            try index.forEachEntry(from: []) { entry in
                entries.append(Array(entry))
                return true
            }
            return entries
        }
        var entries: [[UInt8]] = []
        var problem: String?
        var previousTerm: [UInt8] = []
        var previousBound: Int64?
        var previousWasOpen = false
        let layout = index.postingLayout
        // A compact index's term blocks keep no token count: the length blocks, which sort first (the empty
        // term), give each object's.
        var documentLengths: [Int64: Int] = [:]
        try index.forEachPostingBlock(withPrefix: []) { entry in
            let term = Array(entry.term)
            let isOpen = entry.isOpen
            let bound = entry.bound
            let isLengths = entry.isLengths
            guard var block = PostingBlock.decode(entry.payload, layout: layout, lengths: isLengths) else {
                problem = "a posting block that does not decode"
                return false
            }
            if layout == .compact {
                for row in block.postings.indices {
                    if isLengths {
                        documentLengths[block.postings[row].key] = block.postings[row].length
                    } else {
                        guard let length = documentLengths[block.postings[row].key] else {
                            problem = "a posting of an object without a document length"
                            return false
                        }
                        block.postings[row].length = length
                    }
                }
            }
            // A score bound may be loose, never below a posting's score: no frequency above it, no text shorter.
            if let score = entry.scoreBound {
                for posting in block.postings
                where posting.positions.count > Int(score.frequency) || posting.length < Int(score.length) {
                    problem = "a posting block whose score bound is below one of its postings"
                    return false
                }
            }
            let isSameTerm = term == previousTerm
            if isSameTerm, previousWasOpen {
                problem = "a block after its term's open block"
                return false
            }
            let first = block.postings[0].key, last = block.postings[block.postings.count - 1].key
            if (!isOpen && last > bound) || (isSameTerm && previousBound.map { first <= $0 } ?? false) {
                problem = "a posting block whose keys and bound disagree"
                return false
            }
            for posting in block.postings {
                var bytes = term + ByteOrder.key(posting.key)
                FullTextEntry.appendVarint(posting.length, to: &bytes)
                if !isLengths {
                    FullTextEntry.appendVarint(posting.positions.count, to: &bytes)
                    var previous = 0
                    for position in posting.positions {
                        FullTextEntry.appendVarint(position - previous, to: &bytes)
                        previous = position
                    }
                } else if !posting.positions.isEmpty {
                    problem = "a document length with positions"
                    return false
                }
                entries.append(bytes)
            }
            previousTerm = term
            previousBound = bound
            previousWasOpen = isOpen
            return true
        }
        if let problem {
            throw StrataError.invalidArgument("full-text index \(index.spec.key) of table '\(name)' holds \(problem)")
        }
        return entries
    }

    private func damagedFullText(_ index: IndexKey) -> StrataError {
        StrataError.invalidArgument("full-text index \(index) of table '\(name)' holds damaged entries")
    }

    private func fullTextSortedIndex(_ key: IndexKey) throws -> SortedIndex {
        let index = try sortedIndex(key)
        guard index.spec.isFullText else {
            throw StrataError.invalidArgument("index \(key) of table '\(name)' is not a full-text index")
        }
        return index
    }

    /// The token counts of the objects `keys` (ascending, each with text in the index) from the length blocks
    /// of posting-block index `index`, by a seeking walk that reads only the blocks holding one of them, each as
    /// far as its last wanted object.
    /// - Throws: `StrataError.invalidArgument` when an object has no document length, or for damaged blocks.
    private func documentLengths(_ index: SortedIndex, of keys: [ObjectKey]) throws -> [Int32] {
        var lengths: [Int32] = []
        lengths.reserveCapacity(keys.count)
        guard !keys.isEmpty else { return lengths }
        let layout = index.postingLayout
        var next = 0
        try index.forEachPostingBlock(
            ofTerm: FullTextEntry.lengthPrefix, seeking: { next < keys.count ? keys[next].rawValue : nil }
        ) { block in
            // A wanted object the block should hold but does not: the index is damaged.
            guard
                PostingBlock.appendLengths(
                    of: block.payload, layout: layout, bound: block.bound, keys: keys,
                    next: &next, to: &lengths)
            else { return false }
            return next < keys.count
        }
        guard lengths.count == keys.count else {
            throw missingLengths(index, keys.count - lengths.count, of: keys.count)
        }
        return lengths
    }

    /// The error for `missing` of `count` objects asked for that have no document length in `index`.
    private func missingLengths(_ index: SortedIndex, _ missing: Int, of count: Int) -> StrataError {
        StrataError.invalidArgument(
            "full-text index \(index.spec.key) of table '\(name)' holds damaged document lengths: "
                + "\(missing) of \(count) objects have none")
    }
}
