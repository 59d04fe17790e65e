/// The changes ``PostingChanges/take()`` hands a posting-block index, flat: per term (encoded, in byte order) a
/// run of rows, one per changed object in ascending key order, each the object's key, its token count (or -1 when
/// its posting is removed) and its positions, all in a few arrays shared by every term.
///
/// A bulk insert's postings go from the collected rows to the blocks' bytes without an array per posting.
struct PostingBatch {
    /// The encoded terms (`FullTextEntry.termPrefix`), in byte order.
    var terms: [[UInt8]] = []
    /// Per term, the end of its rows (term `t`'s rows are `termEnds[t - 1]..<termEnds[t]`, from 0 for the first).
    var termEnds: [Int] = []
    /// Per row: the object's key.
    var keys: [Int64] = []
    /// Per row: the object's token count, or -1 when its posting is removed.
    var lengths: [Int32] = []
    /// Per row: the end of its positions in `positions`.
    var positionEnds: [Int32] = []
    /// The rows' positions, ascending within a row.
    var positions: [Int32] = []

    /// The rows of term `t`.
    func rows(ofTerm t: Int) -> Range<Int> { (t == 0 ? 0 : termEnds[t - 1])..<termEnds[t] }

    /// The positions of `row`.
    func positions(of row: Int) -> Range<Int> {
        (row == 0 ? 0 : Int(positionEnds[row - 1]))..<Int(positionEnds[row])
    }

    /// Whether `row` removes its object's posting.
    func isRemoval(_ row: Int) -> Bool { lengths[row] < 0 }

    /// The posting `row` sets, or `nil` for a removal.
    func posting(_ row: Int) -> PostingBlock.Posting? {
        guard !isRemoval(row) else { return nil }
        return PostingBlock.Posting(
            key: keys[row], length: Int(lengths[row]), positions: positions[positions(of: row)].map(Int.init))
    }

    /// Appends a row.
    mutating func append(key: Int64, length: Int32, positions rowPositions: some Sequence<Int32>) {
        keys.append(key)
        lengths.append(length)
        positions.append(contentsOf: rowPositions)
        positionEnds.append(Int32(truncatingIfNeeded: positions.count))
    }

    /// Ends the current term's rows.
    mutating func endTerm(_ term: [UInt8]) {
        terms.append(term)
        termEnds.append(keys.count)
    }

    /// The index entries of the postings in `rows` (ascending keys; removals skipped) for `term` in `layout`, cut
    /// into blocks as `PostingBlock.chunks` cuts them (``PostingLayout/closesBlock``: at most
    /// ``PostingBlock/maxPostings`` postings and about ``PostingBlock/maxPayloadBytes`` bytes each): each block's
    /// bound is its last key, the last one's `lastBound`. The same bytes as making the postings and encoding their
    /// chunks. With `scoreBounds`, each term block's score bound follows its bound (its rows' highest position
    /// count and lowest token count: `PostingEntry.ScoreBound`).
    func entries(
        of rows: Range<Int>, term: [UInt8], lastBound: [UInt8], layout: PostingLayout = .wide,
        scoreBounds: Bool = false
    ) -> [[UInt8]] {
        var entries: [[UInt8]] = []
        var blockRows: [Int] = []
        blockRows.reserveCapacity(PostingBlock.maxPostings)
        var bytes = 0
        let isLengths = term == FullTextEntry.lengthPrefix
        func close(isLast: Bool) {
            guard let last = blockRows.last else { return }
            let bound = isLast ? lastBound : layout.bound(keys[last])
            entries.append(
                encoded(
                    blockRows, term: term, bound: bound, layout: layout, lengths: isLengths,
                    scoreBounds: scoreBounds && !isLengths))
            blockRows.removeAll(keepingCapacity: true)
            bytes = 0
        }
        for row in rows where !isRemoval(row) {
            let size = layout.estimatedBytes(positions: positions(of: row).count)
            if layout.closesBlock(
                count: blockRows.count, bytes: bytes, size: size, last: blockRows.last.map { keys[$0] } ?? 0,
                key: keys[row])
            {
                close(isLast: false)
            }
            blockRows.append(row)
            bytes += size
        }
        close(isLast: true)
        return entries
    }

    /// One block's entry: `term`, `bound`, with `scoreBounds` the block's score bound, then the payload of
    /// `blockRows` in `layout` (see ``PostingBlock``); `lengths` for the empty term's block.
    private func encoded(
        _ blockRows: [Int], term: [UInt8], bound: [UInt8], layout: PostingLayout, lengths isLengths: Bool,
        scoreBounds: Bool
    ) -> [UInt8] {
        var bytes = term + bound
        bytes.reserveCapacity(term.count + bound.count + blockRows.count * 6 + 8)
        if scoreBounds {
            var score = PostingEntry.ScoreBound.empty
            for row in blockRows { score.include(frequency: positions(of: row).count, length: Int(lengths[row])) }
            bytes += PostingEntry.scoreBoundBytes(score)
        }
        FullTextEntry.appendVarint(blockRows.count, to: &bytes)
        switch layout {
        case .wide:
            var previous: Int64 = 0
            for (offset, row) in blockRows.enumerated() {
                PostingBlock.appendKey(offset == 0 ? keys[row] : keys[row] - previous, to: &bytes)
                previous = keys[row]
            }
            for row in blockRows {
                FullTextEntry.appendVarint(Int(lengths[row]), to: &bytes)
                FullTextEntry.appendVarint(positions(of: row).count, to: &bytes)
            }
        case .compact:
            for (offset, row) in blockRows.enumerated() {
                PostingBlock.appendCompact(
                    key: keys[row], previous: offset == 0 ? nil : keys[blockRows[offset - 1]],
                    count: isLengths ? Int(lengths[row]) : positions(of: row).count, to: &bytes)
            }
        }
        for row in blockRows {
            var last: Int32 = 0
            for position in positions[positions(of: row)] {
                FullTextEntry.appendVarint(Int(position - last), to: &bytes)
                last = position
            }
        }
        return bytes
    }
}
