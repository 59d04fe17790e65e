/// A full-text index in the posting-block layout (``PostingBlock``): its entries are blocks of a term's postings,
/// written from the changes a write transaction collects (``PostingChanges``).
extension SortedIndex {
    /// Whether the index keeps posting blocks (`IndexSpec.isPostingBlocks`); otherwise a full-text index keeps one
    /// entry per (term, object), the layout of files written before posting blocks.
    var keepsPostingBlocks: Bool { spec.isFullText && spec.isPostingBlocks }

    /// How the index lays out its posting blocks (`IndexSpec.isCompactPostings`).
    var postingLayout: PostingLayout { spec.isCompactPostings ? .compact : .wide }

    /// Whether the index's term blocks carry a score bound (`IndexSpec.isScoreBounds`, compact layout only:
    /// `PostingEntry/scoreBound`).
    var keepsScoreBounds: Bool { keepsPostingBlocks && spec.isCompactPostings && spec.isScoreBounds }

    /// The posting block `bytes` whose term ends at `termEnd`, parsed in the index's layout (``postingLayout``,
    /// with the score bound when it keeps them); `nil` for damaged bytes.
    func postingEntry(_ bytes: UnsafeRawBufferPointer, termEnd: Int) -> PostingEntry? {
        PostingEntry(bytes, termEnd: termEnd, layout: postingLayout, scoreBounds: keepsScoreBounds)
    }

    /// Writes the collected changes into the blocks, term by term: for each run of changed objects, the block that
    /// holds (or would take) the first of them is decoded once, changed, cut again into blocks of at most
    /// ``PostingBlock/maxPostings`` and removed; objects past a term's last block (every object of a term the
    /// index does not hold yet) make new blocks, encoded straight from the batch. No block is inserted one by one:
    /// the rewritten and new blocks are made in order (terms in byte order, a term's blocks by bound) and merged
    /// into the tree at the end in one ordered pass, each leaf taking all of its new entries at once; as a sweep,
    /// so a leaf that splits stays full (the pass never comes back to it) instead of splitting in half.
    ///
    /// With `holdingOpenBlocks` (a batch written because the changes filled their buffer, more to come in the same
    /// transaction), each term's open last block is held out of the tree (`PostingChanges.heldBlocks`) instead of
    /// written: the next batch appends to it in memory, where it would otherwise find it in the tree, read it back
    /// (its leaf often flushed meanwhile) and remove it. Reads and flushes apply without holding, which writes the
    /// held blocks too.
    ///
    /// The last batch of a bulk load (written without holding, after one or more held batches that started from
    /// an empty index) is not swept into the leaves the earlier batches filled: the index is written again with
    /// it, in one ordered pass into an empty tree (``rewrite(adding:in:)``).
    func applyPostingChanges(holdingOpenBlocks hold: Bool = false) throws {
        guard !postingChanges.isEmpty else {
            if !hold { bulkSweeps = nil }
            return
        }
        let writer = nodes.reader as? NodeWriter
        if writer != nil, bulkSweeps == nil, nodes.isEmpty { bulkSweeps = 0 }
        // The held blocks and the batch's terms are both in byte order: walked side by side.
        let held = postingChanges.takeHeldBlocks()
        var nextHeld = 0
        // The held blocks of terms this batch does not change, in order (written at the end unless held again).
        var untouched: [[UInt8]] = []
        func passHeld(below term: [UInt8]?) {
            while nextHeld < held.count, term.map({ ByteOrder.compare(held[nextHeld], $0) < 0 }) ?? true {
                if hold { postingChanges.hold(held[nextHeld]) } else { untouched.append(held[nextHeld]) }
                nextHeld += 1
            }
        }
        let batch = postingChanges.take()
        var written: [[UInt8]] = []
        for (t, term) in batch.terms.enumerated() {
            let rows = batch.rows(ofTerm: t)
            // A held block of a term sorts after the term's encoding alone (which it starts with), and before the
            // next term's.
            passHeld(below: term)
            var open: [UInt8]?
            if nextHeld < held.count, held[nextHeld].withUnsafeBytes({ SortedIndex.hasPrefix($0, term) }) {
                open = held[nextHeld]
                nextHeld += 1
            }
            // The rows at or past the held block's first key belong to it (the tree holds no key past them).
            var split = rows.upperBound
            if let open {
                let first = open.withUnsafeBytes {
                    postingEntry($0, termEnd: term.count).flatMap { PostingBlock.firstKey(of: $0.payload) }
                }
                guard let first else { throw damagedBlock }
                split = rows.first { batch.keys[$0] >= first } ?? rows.upperBound
            }
            var start = rows.lowerBound
            while start < split,
                let next = try apply(batch, rows: start..<split, term: term, hold: hold, written: &written)
            {
                start = next
            }
            try writeTail(batch, rows: start..<rows.upperBound, open: open, term: term, hold: hold, written: &written)
            if let writer, nodes.loadedLeaves > Catalog.loadedLeafLimit { _ = try nodes.flush(in: writer) }
        }
        passHeld(below: nil)
        if !untouched.isEmpty { written = Self.mergedInOrder(written, untouched) }
        let sweeps = bulkSweeps
        bulkSweeps = hold ? sweeps.map { $0 + 1 } : nil
        if !hold, let sweeps, sweeps > 0, let writer {
            try rewrite(adding: written, in: writer)
        } else {
            try merge(sorted: SortedEntries(inOrder: written), sweep: true)
        }
    }

    /// Writes the index again with the entries `written` (in byte order) added, in one ordered pass into an empty
    /// tree: its entries and `written` merged, the old nodes freed, every leaf but the last filled to its limit.
    ///
    /// A batch swept through leaves that are full already splits each leaf it adds to: the first part stays full
    /// and the rest, up to the next leaf, goes into a new leaf that stays partly filled. The last batch of the
    /// search benchmark's bulk load (every term's held open block, most of its 380,000 blocks, spread over the
    /// whole index) left a fifth of the leaves so, 13 % of the index's pages empty. Only after a bulk load into an
    /// index that was empty before it: every node freed here was written in this transaction, so its pages are
    /// taken again at once by the new leaves.
    private func rewrite(adding written: [[UInt8]], in writer: NodeWriter) throws {
        let entries = PackedEntries(
            reservingEntries: try nodes.count() + written.count, bytes: written.reduce(0) { $0 + $1.count })
        var next = 0
        try forEachEntry(from: []) { entry in
            while next < written.count {
                let order = written[next].withUnsafeBytes { ByteOrder.compare($0, entry) }
                if order > 0 { break }
                written[next].withUnsafeBytes { entries.append($0) }
                next += 1
                // The same entry in both is kept once.
                if order == 0 { return true }
            }
            entries.append(entry)
            return true
        }
        for entry in written[next...] { entry.withUnsafeBytes { entries.append($0) } }
        try nodes.destroy(in: writer) { _, _ in [] }
        try merge(sorted: SortedEntries(inOrder: entries), sweep: true)
    }

    /// Writes the changes of `rows` (of `batch`, one term's), which fall past the term's last block in the tree,
    /// into `open` (the term's held open block, if any) or new blocks: every block but the last is appended to
    /// `written` with its last key as bound; the last, open, too, or with `hold` held for the next batch.
    private func writeTail(
        _ batch: PostingBatch, rows: Range<Int>, open: [UInt8]?, term: [UInt8], hold: Bool,
        written: inout [[UInt8]]
    ) throws {
        var entries: [[UInt8]]
        let layout = postingLayout
        if let open, let appended = try appended(rows, of: batch, to: open, term: term, layout: layout) {
            entries = appended
        } else if let open {
            let block = try open.withUnsafeBytes { try decodedBlock($0, term: term) }
            let postings = Self.merged(block.postings, rows.map { (batch.keys[$0], batch.posting($0)) })
            entries = Self.entries(
                of: postings, term: term, lastBound: layout.openBound, layout: layout, scoreBounds: keepsScoreBounds)
        } else {
            guard !rows.isEmpty else { return }
            entries = batch.entries(
                of: rows, term: term, lastBound: layout.openBound, layout: layout, scoreBounds: keepsScoreBounds)
        }
        if hold, let last = entries.popLast() { postingChanges.hold(last) }
        written += entries
    }

    /// The entries of the held open block `open` of `term` with the postings of `rows` (of `batch`) appended,
    /// when that is all they do: a compact term block (not the lengths), rows that set postings (no removal), the
    /// first of them past the block's last key. What the next batch of a bulk load does to every term's held
    /// block: its postings are decoded into flat rows beside the batch's (no array per posting) and the rows cut
    /// into blocks and encoded as new postings are (``PostingBatch/entries(of:term:lastBound:layout:)``), the
    /// same bytes as decoding, merging and encoding the postings. `nil` otherwise (the caller merges them).
    /// - Throws: `StrataError.invalidArgument` for a block that does not decode.
    private func appended(
        _ rows: Range<Int>, of batch: PostingBatch, to open: [UInt8], term: [UInt8], layout: PostingLayout
    ) throws -> [[UInt8]]? {
        guard layout == .compact, term != FullTextEntry.lengthPrefix, let first = rows.first,
            !rows.contains(where: batch.isRemoval)
        else { return nil }
        var keys: [ObjectKey] = [], positions: [Int32] = [], ends: [Int32] = [], lengths: [Int32] = []
        var next = 0
        // The held block's postings keep no token count: its stored floor stands for theirs (a true floor still).
        var floor: Int32 = 0
        let decoded = open.withUnsafeBytes { bytes in
            postingEntry(bytes, termEnd: term.count).map { entry in
                floor = entry.scoreBound?.length ?? 0
                return PostingBlock.appendPositions(
                    of: entry.payload, layout: layout, among: nil, next: &next, keys: &keys, positions: &positions,
                    ends: &ends, lengths: &lengths)
            }
        }
        guard decoded == true, let last = keys.last else { throw damagedBlock }
        guard last.rawValue < batch.keys[first] else { return nil }
        var joined = PostingBatch()
        joined.keys.reserveCapacity(keys.count + rows.count)
        var start = 0
        for (row, key) in keys.enumerated() {
            joined.append(key: key.rawValue, length: floor, positions: positions[start..<Int(ends[row])])
            start = Int(ends[row])
        }
        for row in rows {
            joined.append(
                key: batch.keys[row], length: batch.lengths[row], positions: batch.positions[batch.positions(of: row)])
        }
        return joined.entries(
            of: 0..<joined.keys.count, term: term, lastBound: layout.openBound, layout: layout,
            scoreBounds: keepsScoreBounds)
    }

    /// The entries of `postings` (ascending keys) of `term` in `layout`, cut by `PostingBlock.chunks`: each
    /// block's bound is its last key, the last one's `lastBound`; with `scoreBounds`, each term block's score
    /// bound follows (`PostingBlock.scoreBound`).
    private static func entries(
        of postings: [PostingBlock.Posting], term: [UInt8], lastBound: [UInt8], layout: PostingLayout,
        scoreBounds: Bool
    ) -> [[UInt8]] {
        let blocks = PostingBlock.chunks(postings[...], layout: layout)
        return blocks.enumerated().map { offset, block in
            let isLast = offset == blocks.count - 1
            return block.entry(
                term: term, bound: isLast ? lastBound : layout.bound(block.postings[block.postings.count - 1].key),
                layout: layout, scoreBounds: scoreBounds)
        }
    }

    /// The postings of the block `entry` of `term` (its encoding), decoded in the index's layout. A term block
    /// with a score bound gives each posting the bound's token count (the compact layout keeps none per posting):
    /// the blocks made again from them keep a true floor, perhaps a loose one.
    /// - Throws: `StrataError.invalidArgument` for a block that does not decode.
    private func decodedBlock(_ entry: UnsafeRawBufferPointer, term: [UInt8]) throws -> PostingBlock {
        let layout = postingLayout
        guard let parsed = postingEntry(entry, termEnd: term.count),
            var block = PostingBlock.decode(parsed.payload, layout: layout, lengths: parsed.isLengths)
        else { throw damagedBlock }
        if let floor = parsed.scoreBound?.length {
            for row in block.postings.indices { block.postings[row].length = Int(floor) }
        }
        return block
    }

    /// The error for a posting block that does not decode.
    private var damagedBlock: StrataError {
        StrataError.invalidArgument("full-text index \(spec.key) holds a damaged posting block")
    }

    /// `left` and `right` (entries each in byte order, none in both) as one list in byte order.
    private static func mergedInOrder(_ left: [[UInt8]], _ right: [[UInt8]]) -> [[UInt8]] {
        var result: [[UInt8]] = []
        result.reserveCapacity(left.count + right.count)
        var i = 0, j = 0
        while i < left.count, j < right.count {
            if ByteOrder.compare(left[i], right[j]) < 0 {
                result.append(left[i])
                i += 1
            } else {
                result.append(right[j])
                j += 1
            }
        }
        result += left[i...]
        result += right[j...]
        return result
    }

    /// Applies the changes of `rows` (of `batch`, one term's from some row on) that fall in one block of `term` in
    /// the tree; returns where the next block's changes start, or `nil` when the first of them is past the term's
    /// last block in the tree (the caller writes those as the term's tail). The block is removed and its new
    /// blocks appended to `written` (in order); with `hold`, the last of them is held instead when it is the
    /// term's open block (see ``applyPostingChanges(holdingOpenBlocks:)``).
    private func apply(
        _ batch: PostingBatch, rows: Range<Int>, term: [UInt8], hold: Bool, written: inout [[UInt8]]
    ) throws -> Int? {
        let layout = postingLayout
        let target = term + layout.bound(batch.keys[rows.lowerBound])
        var found: [UInt8]?
        try target.withUnsafeBytes { lower in
            try nodes.forEachLeaf(from: target) { location in
                try IndexLeafEntries(location, reader: nodes.reader).forEach(from: lower) { entry in
                    if SortedIndex.hasPrefix(entry, term), entry.count > term.count { found = Array(entry) }
                    return false
                }
            }
        }
        guard let found else { return nil }
        let parsed = found.withUnsafeBytes { postingEntry($0, termEnd: term.count) }
        guard let parsed else { throw damagedBlock }
        let bound = Array(found[term.count..<parsed.boundEnd])
        let block = try found.withUnsafeBytes { try decodedBlock($0, term: term) }
        var end = rows.upperBound
        if !parsed.isOpen {
            end = rows.first { batch.keys[$0] > parsed.bound } ?? rows.upperBound
        }
        _ = try nodes.update(found) { $0.remove(found) }
        let postings = Self.merged(block.postings, (rows.lowerBound..<end).map { (batch.keys[$0], batch.posting($0)) })
        var entries = Self.entries(
            of: postings, term: term, lastBound: bound, layout: layout, scoreBounds: keepsScoreBounds)
        if hold, parsed.isOpen, let last = entries.popLast() { postingChanges.hold(last) }
        written += entries
        return end
    }

    /// `postings` (ascending keys) with `changes` (ascending keys) applied: a posting set or replaced, or removed.
    private static func merged(
        _ postings: [PostingBlock.Posting], _ changes: [(key: Int64, posting: PostingBlock.Posting?)]
    ) -> [PostingBlock.Posting] {
        var result: [PostingBlock.Posting] = []
        result.reserveCapacity(postings.count + changes.count)
        var index = 0
        for change in changes {
            while index < postings.count, postings[index].key < change.key {
                result.append(postings[index])
                index += 1
            }
            if index < postings.count, postings[index].key == change.key { index += 1 }
            if let posting = change.posting { result.append(posting) }
        }
        result += postings[index...]
        return result
    }

    /// Visits the posting blocks whose term starts with `prefix` (the encoded term, or a term prefix), in order,
    /// parsed as far as their payloads, until `body` returns `false`.
    func forEachPostingBlock(withPrefix prefix: [UInt8], _ body: (_ block: PostingEntry) throws -> Bool) throws {
        var damaged = false
        try forEachEntry(from: prefix) { entry in
            guard SortedIndex.hasPrefix(entry, prefix) else { return false }
            guard let end = FullTextEntry.termEnd(of: entry), let block = postingEntry(entry, termEnd: end)
            else {
                damaged = true
                return false
            }
            return try body(block)
        }
        if damaged {
            throw StrataError.invalidArgument("full-text index \(spec.key) holds an entry that is not a posting block")
        }
    }

    /// How many blocks in a row a seeking walk (``forEachPostingBlock(ofTerm:seeking:_:)``) steps over, each
    /// below the wanted key, before it descends the tree again to the wanted key's block.
    static let blocksSteppedBeforeSeeking = 4

    /// Visits the posting blocks of exactly `term` (its encoding, `00 00` included) that may hold the keys
    /// `target` asks for, in order, until `body` returns `false` or `target` says `nil` (no key wanted any more).
    ///
    /// `target` is the next wanted key, ascending (`body` moves it on). A block whose bound is below it holds no
    /// wanted key and is not passed to `body`; after a few such blocks in a row the walk descends the tree again
    /// straight to the block of the wanted key, so a short list of wanted keys skips whole runs of a long term's
    /// blocks (and the leaves that hold them) without visiting them.
    func forEachPostingBlock(
        ofTerm term: [UInt8], seeking target: () -> Int64?, _ body: (_ block: PostingEntry) throws -> Bool
    ) throws {
        let layout = postingLayout
        var damaged = false
        var seekAgain = true
        while seekAgain, let first = target() {
            seekAgain = false
            var stepped = 0
            try forEachEntry(from: term + layout.bound(first)) { entry in
                guard SortedIndex.hasPrefix(entry, term) else { return false }
                guard let block = postingEntry(entry, termEnd: term.count) else {
                    damaged = true
                    return false
                }
                guard let wanted = target() else { return false }
                if block.bound < wanted {
                    stepped += 1
                    if stepped < Self.blocksSteppedBeforeSeeking { return true }
                    seekAgain = true
                    return false
                }
                stepped = 0
                return try body(block)
            }
        }
        if damaged {
            throw StrataError.invalidArgument("full-text index \(spec.key) holds an entry that is not a posting block")
        }
    }

    /// Visits the posting blocks of exactly `term` (its encoding, `00 00` included) from the last (the highest
    /// keys) down, until `body` returns `false`: the term's entries are found by their ranks in the tree (two
    /// descents), then read backwards leaf by leaf, so the newest postings of a long term cost a block or two.
    func forEachPostingBlockBackward(ofTerm term: [UInt8], _ body: (_ block: PostingEntry) throws -> Bool) throws {
        guard let after = Self.firstBytes(after: term) else { return }
        let tree = try self.tree
        let first = try rank(of: term, in: tree)
        var position = try rank(of: after, in: tree) - 1
        while position >= first {
            guard let (location, index) = try tree.locate(position: position) else { return }
            let entries = try IndexLeafEntries(location, reader: tree.reader)
            var slot = index
            while slot >= 0, position >= first {
                let entry = try entries.entry(slot)
                guard SortedIndex.hasPrefix(entry, term), let block = postingEntry(entry, termEnd: term.count)
                else {
                    throw StrataError.invalidArgument(
                        "full-text index \(spec.key) holds an entry that is not a posting block")
                }
                if try !body(block) { return }
                slot -= 1
                position -= 1
            }
        }
    }
}
