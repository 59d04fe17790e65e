import StrataStorage

/// Block-max pruning of a ranked top-k (as Lucene's block-max WAND): over an index whose term blocks carry a
/// score bound (`IndexSpec.isScoreBounds`: each block's highest term frequency and lowest document length, both
/// monotone in BM25), only the blocks and matches whose bound can still enter the top `limit` are decoded,
/// their lengths read and scored. The answer is exactly what scoring every match gives
/// (``FullTextIndexSearch/rankedByScoringAll(limit:)``): the same scores, ties in key order.
extension FullTextIndexSearch {
    /// How many matches of a query of several words are scored per read of their token counts (one seeking walk
    /// over the length blocks): the heap's threshold rises between chunks.
    static let pruningChunk = 64

    /// The best `limit` matches with their scores, best first, by block-max pruning; `nil` when the query or
    /// the index does not allow it (a phrase or prefix among the required clauses, an index without score
    /// bounds): the caller scores every match.
    ///
    /// One word: its blocks are ordered by their bound's score (the term's BM25 contribution at the block's
    /// highest frequency and lowest length), and decoded best first until the heap holds `limit` matches whose
    /// last scores above the next block's bound; in a decoded block, only the postings whose frequency (at the
    /// block's lowest length) can still enter the heap have their lengths read.
    ///
    /// Several words (all required): the matching objects are found first, keys only (``matchingKeys()``: the
    /// rarest word's keys, the others' seeking walks); each gets as its bound the sum, word by word, of the bound
    /// of the block holding it (WAND's sum of per-word bounds), and the objects are scored in order of that
    /// bound, a chunk at a time, until the next one's bound is below the heap's last score. A word's block is
    /// decoded only when one of those objects needs its frequency there.
    func prunedTop(_ limit: Int) throws -> [(key: ObjectKey, score: Double)]? {
        guard limit > 0, !required.isEmpty, !query.matchesNothing,
            required.allSatisfy({ $0.terms.count == 1 && !$0.terms[0].isPrefix })
        else { return nil }
        var blocks: [[ScoredPostingBlock]] = []
        for clause in required {
            guard let found = try table.fullTextScoredBlocks(index, term: clause.terms[0].text) else { return nil }
            if found.isEmpty { return [] }
            blocks.append(found)
        }
        let (documents, averageLength) = try table.fullTextStatistics(index)
        // Per word: its BM25 idf (its document frequency is its postings' count) and each block's bound.
        let idfs = blocks.map { Self.idf(frequency: $0.reduce(0) { $0 + $1.count }, documents: documents) }
        let bounds = blocks.indices.map { word in
            blocks[word].map {
                Self.score(
                    idf: idfs[word], occurrences: $0.frequencyBound, length: $0.lengthBound,
                    averageLength: averageLength)
            }
        }
        var excludedKeys: [ObjectKey] = []
        for clause in excluded { excludedKeys += try occurrences(of: clause, withCounts: false).keys }
        let isExcluded = Set(excludedKeys)
        var best = BoundedHeap<(key: ObjectKey, score: Double)>(capacity: limit, before: Self.before(_:_:))
        if blocks.count == 1 {
            try topOfOneWord(
                blocks[0], bounds: bounds[0], idf: idfs[0], averageLength: averageLength, excluded: isExcluded,
                into: &best)
        } else {
            try topOfWords(blocks, bounds: bounds, idfs: idfs, averageLength: averageLength, into: &best)
        }
        return best.sorted()
    }

    /// One word's best matches into `best`: its blocks decoded in order of their bounds (best first, then in key
    /// order) while a block's bound reaches the heap's last score.
    private func topOfOneWord(
        _ blocks: [ScoredPostingBlock], bounds: [Double], idf: Double, averageLength: Double,
        excluded: Set<ObjectKey>, into best: inout BoundedHeap<(key: ObjectKey, score: Double)>
    ) throws {
        let order = blocks.indices.sorted { bounds[$0] != bounds[$1] ? bounds[$0] > bounds[$1] : $0 < $1 }
        var wantedKeys: [ObjectKey] = [], wantedFrequencies: [Int] = []
        for block in order {
            // A match scores at most its block's bound; one that only ties the last kept comes after it unless
            // its key is lower, which the heap decides: only a bound below it ends the walk.
            if let worst = best.worst, bounds[block] < worst.score { break }
            let (keys, frequencies) = try blocks[block].postings()
            let floor = blocks[block].lengthBound
            let threshold = best.worst?.score
            wantedKeys.removeAll(keepingCapacity: true)
            wantedFrequencies.removeAll(keepingCapacity: true)
            for (key, frequency) in zip(keys, frequencies) where !excluded.contains(key) {
                let frequency = Int(frequency)
                // At the block's lowest length, the most this posting can score.
                if let threshold,
                    Self.score(idf: idf, occurrences: frequency, length: floor, averageLength: averageLength)
                        < threshold
                {
                    continue
                }
                wantedKeys.append(key)
                wantedFrequencies.append(frequency)
            }
            guard !wantedKeys.isEmpty else { continue }
            let lengths = try table.fullTextDocumentLengths(index, of: wantedKeys)
            for row in wantedKeys.indices {
                best.offer(
                    (
                        wantedKeys[row],
                        Self.score(
                            idf: idf, occurrences: wantedFrequencies[row], length: Int(lengths[row]),
                            averageLength: averageLength)
                    ))
            }
        }
    }

    /// The best matches of several words (every one required) into `best`: the matching objects in order of
    /// the sum of their blocks' bounds, scored a chunk at a time while that sum reaches the heap's last score.
    private func topOfWords(
        _ blocks: [[ScoredPostingBlock]], bounds: [[Double]], idfs: [Double], averageLength: Double,
        into best: inout BoundedHeap<(key: ObjectKey, score: Double)>
    ) throws {
        let keys = try matchingKeys()
        guard !keys.isEmpty else { return }
        // Per word, the block holding each match; per match, the sum of those blocks' bounds (in clause order,
        // as its score sums: each term at most its bound, so the sum at most theirs).
        var blockOf = [[Int32]](repeating: [], count: blocks.count)
        var sums = [Double](repeating: 0, count: keys.count)
        for word in blocks.indices {
            let wordBlocks = blocks[word]
            var rows = [Int32]()
            rows.reserveCapacity(keys.count)
            var block = 0
            for (row, key) in keys.enumerated() {
                while block < wordBlocks.count, wordBlocks[block].lastKey < key.rawValue { block += 1 }
                guard block < wordBlocks.count else {
                    throw StrataError.invalidArgument(
                        "full-text index \(index) of table '\(table.name)' holds no block of "
                            + "'\(required[word].terms[0].text)' for object \(key), which matches it")
                }
                rows.append(Int32(truncatingIfNeeded: block))
                sums[row] += bounds[word][block]
            }
            blockOf[word] = rows
        }
        let order = keys.indices.sorted { sums[$0] != sums[$1] ? sums[$0] > sums[$1] : $0 < $1 }
        // The blocks decoded so far, per word.
        var decoded = [[Int32: (keys: [ObjectKey], frequencies: [Int32])]](repeating: [:], count: blocks.count)
        var next = 0
        var chunk: [Int] = []
        while next < order.count {
            chunk.removeAll(keepingCapacity: true)
            while next < order.count, chunk.count < Self.pruningChunk {
                if let worst = best.worst, sums[order[next]] < worst.score { break }
                chunk.append(order[next])
                next += 1
            }
            guard !chunk.isEmpty else { break }
            chunk.sort()
            let lengths = try table.fullTextDocumentLengths(index, of: chunk.map { keys[$0] })
            for (position, row) in chunk.enumerated() {
                var score = 0.0
                for word in blocks.indices {
                    let block = blockOf[word][row]
                    if decoded[word][block] == nil { decoded[word][block] = try blocks[word][Int(block)].postings() }
                    let postings = decoded[word][block]!
                    let index = Self.firstIndex(in: postings.keys, notBelow: keys[row], from: 0)
                    guard index < postings.keys.count, postings.keys[index] == keys[row] else {
                        throw StrataError.invalidArgument(
                            "full-text index \(self.index) of table '\(table.name)' holds no posting of "
                                + "'\(required[word].terms[0].text)' for object \(keys[row]), which matches it")
                    }
                    score += Self.score(
                        idf: idfs[word], occurrences: Int(postings.frequencies[index]),
                        length: Int(lengths[position]), averageLength: averageLength)
                }
                best.offer((keys[row], score))
            }
        }
    }
}
