import StrataStorage

/// Block-max pruning of a ranked top-k (as Lucene's block-max WAND): over an index whose term blocks carry a
/// score bound (`IndexSpec.isScoreBounds`: each block's highest term frequency and lowest document length, both
/// monotone in BM25), only the blocks and matches whose bound can still enter the top `limit` are decoded,
/// their lengths read and scored. The answer is exactly what scoring every match gives
/// (``FullTextIndexSearch/rankedByScoringAll(limit:)``): the same scores, ties in key order.
extension FullTextIndexSearch {
    /// The best `limit` matches with their scores, best first, by block-max pruning; `nil` when the query or
    /// the index does not allow it (a phrase or prefix among the required clauses, an index without score
    /// bounds): the caller scores every match.
    ///
    /// One word: its blocks are ordered by their bound's score (the term's BM25 contribution at the block's
    /// highest frequency and lowest length), and decoded best first until the heap holds `limit` matches whose
    /// last one comes before anything the next block may hold (a higher score, or the same with a lower key);
    /// in a decoded block, only the postings whose frequency (at the block's lowest length) may still enter the
    /// heap are scored. Lengths come from the index's token counts in memory (`Table.fullTextLengthTable`).
    ///
    /// Several words (all required): the matching objects are found first, keys only (``matchingKeys()``: the
    /// rarest word's keys, the others' seeking walks); each gets as its bound the sum, word by word, of the bound
    /// of the block holding it (WAND's sum of per-word bounds), and the objects are scored in order of that
    /// bound until the next one's cannot enter the heap. A word's block is decoded only when one of those
    /// objects needs its frequency there.
    func prunedTop(_ limit: Int) throws -> [(key: ObjectKey, score: Double)]? {
        guard limit > 0, !required.isEmpty, !query.matchesNothing,
            required.allSatisfy({ $0.terms.count == 1 && !$0.terms[0].isPrefix })
        else { return nil }
        var blocks: [ScoredPostingBlocks] = []
        for clause in required {
            guard let found = try table.fullTextScoredBlocks(index, term: clause.terms[0].text) else { return nil }
            if found.blocks.isEmpty { return [] }
            blocks.append(found)
        }
        let (documents, averageLength) = try table.fullTextStatistics(index)
        // Per word: its BM25 idf (its document frequency is its postings' count) and each block's bound.
        let idfs = blocks.map { Self.idf(frequency: $0.postingCount, documents: documents) }
        let bounds = blocks.indices.map { word in
            blocks[word].blocks.map {
                Self.score(
                    idf: idfs[word], occurrences: $0.frequencyBound, length: $0.lengthBound,
                    averageLength: averageLength)
            }
        }
        var best = BoundedHeap<(key: ObjectKey, score: Double)>(capacity: limit, before: Self.before(_:_:))
        if blocks.count == 1 {
            // Several words take their matches from `matchingKeys()`, which leaves the excluded ones out itself.
            var excludedKeys: [ObjectKey] = []
            for clause in excluded { excludedKeys += try occurrences(of: clause, withCounts: false).keys }
            let isExcluded = Set(excludedKeys)
            try topOfOneWord(
                blocks[0], bounds: bounds[0], idf: idfs[0], averageLength: averageLength, excluded: isExcluded,
                into: &best)
        } else {
            try topOfWords(blocks, bounds: bounds, idfs: idfs, averageLength: averageLength, into: &best)
        }
        return best.sorted()
    }

    /// Whether a match whose score is at most `bound` and whose key is at least `key` may still enter a full heap
    /// whose last kept match is `worst`: a higher score enters, an equal one only with a lower key.
    @inline(__always)
    private static func mayEnter(_ bound: Double, key: Int64, _ worst: (key: ObjectKey, score: Double)) -> Bool {
        bound > worst.score || (bound == worst.score && key < worst.key.rawValue)
    }

    /// One word's best matches into `best`: its blocks decoded in order of their bounds (best first, then in key
    /// order) while a block's bound may still enter the heap. In a decoded block, a posting is scored only when
    /// its text may be short enough to enter (``LengthLimits``: per frequency, the longest text that may), in two
    /// passes. The first keeps the postings whose token count's byte in the index's lengths in memory
    /// (`Table.fullTextLengthTable`, `DocumentLengthTable.isLonger(_:than:)`) is within the limit the heap set
    /// when the block was decoded (for frequency 1, or else for the block's highest frequency), without a branch
    /// on the counts, so their reads overlap; the heap only rises, so what that pass drops could not enter later.
    /// The second checks each kept posting against the heap as it is then (a frequency whose limit is below the
    /// block's floor rejects it outright), and reads the length and scores only the rest.
    private func topOfOneWord(
        _ blocks: ScoredPostingBlocks, bounds: [Double], idf: Double, averageLength: Double,
        excluded: Set<ObjectKey>, into best: inout BoundedHeap<(key: ObjectKey, score: Double)>
    ) throws {
        let lengths = try lengthTable()
        var limits = LengthLimits(idf: idf, averageLength: averageLength)
        let order = bounds.indices.sorted { bounds[$0] != bounds[$1] ? bounds[$0] > bounds[$1] : $0 < $1 }
        for block in order {
            // Every key of a block is above the previous block's last key. Once a block cannot enter, no later one
            // can: it has a lower bound, or the same one and higher keys.
            let lowest = block == 0 ? Int64.min : blocks.blocks[block - 1].lastKey &+ 1
            if let worst = best.worst, !Self.mayEnter(bounds[block], key: lowest, worst) { break }
            let floor = blocks.blocks[block].lengthBound
            try blocks.withPostings(of: block) { keys, frequencies in
                let bar = best.worst?.score
                let single = limits.longest(frequency: 1, atLeast: bar)
                let highest = limits.longest(frequency: blocks.blocks[block].frequencyBound, atLeast: bar)
                try withUnsafeTemporaryAllocation(of: Int32.self, capacity: keys.count) { kept in
                    var count = 0
                    for row in 0..<keys.count {
                        kept[count] = Int32(truncatingIfNeeded: row)
                        let limit = frequencies[row] == 1 ? single : highest
                        count &+= lengths.isLonger(keys[row], than: limit) ? 0 : 1
                    }
                    for row in kept.prefix(count) {
                        let key = ObjectKey(keys[Int(row)]), frequency = Int(frequencies[Int(row)])
                        let longest = limits.longest(frequency: frequency, atLeast: best.worst?.score)
                        if longest < floor { continue }
                        if !excluded.isEmpty, excluded.contains(key) { continue }
                        let length = Int(try length(of: key, in: lengths))
                        if length > longest { continue }
                        let score = Self.score(
                            idf: idf, occurrences: frequency, length: length, averageLength: averageLength)
                        best.offer((key, score))
                    }
                }
            }
        }
    }

    /// The best matches of several words (every one required) into `best`: the matching objects in order of
    /// the sum of their blocks' bounds (then in key order), scored while that sum may still enter the heap.
    private func topOfWords(
        _ blocks: [ScoredPostingBlocks], bounds: [[Double]], idfs: [Double], averageLength: Double,
        into best: inout BoundedHeap<(key: ObjectKey, score: Double)>
    ) throws {
        let keys = try matchingKeys()
        guard !keys.isEmpty else { return }
        let lengths = try lengthTable()
        // Per word, the block holding each match; per match, the sum of those blocks' bounds (in clause order,
        // as its score sums: each term at most its bound, so the sum at most theirs).
        var blockOf = [[Int32]](repeating: [], count: blocks.count)
        var sums = [Double](repeating: 0, count: keys.count)
        for word in blocks.indices {
            let wordBlocks = blocks[word].blocks
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
        for row in order {
            // Later matches have a lower sum, or the same one and a higher key.
            if let worst = best.worst, !Self.mayEnter(sums[row], key: keys[row].rawValue, worst) { break }
            let length = Int(try length(of: keys[row], in: lengths))
            var score = 0.0
            for word in blocks.indices {
                let block = blockOf[word][row]
                if decoded[word][block] == nil { decoded[word][block] = try blocks[word].postings(of: Int(block)) }
                let postings = decoded[word][block]!
                let index = Self.firstIndex(in: postings.keys, notBelow: keys[row], from: 0)
                guard index < postings.keys.count, postings.keys[index] == keys[row] else {
                    throw StrataError.invalidArgument(
                        "full-text index \(self.index) of table '\(table.name)' holds no posting of "
                            + "'\(required[word].terms[0].text)' for object \(keys[row]), which matches it")
                }
                score += Self.score(
                    idf: idfs[word], occurrences: Int(postings.frequencies[index]), length: length,
                    averageLength: averageLength)
            }
            best.offer((keys[row], score))
        }
    }

    /// The index's token counts in memory.
    private func lengthTable() throws -> DocumentLengthTable {
        guard let lengths = try table.fullTextLengthTable(index) else {
            throw StrataError.invalidArgument(
                "full-text index \(index) of table '\(table.name)' keeps no length blocks to rank by")
        }
        return lengths
    }

    /// The token count of `key` in `lengths`.
    /// - Throws: `StrataError.invalidArgument` when the object has none (the index is damaged).
    private func length(of key: ObjectKey, in lengths: DocumentLengthTable) throws -> Int32 {
        guard let length = lengths.length(of: key) else {
            throw StrataError.invalidArgument(
                "full-text index \(index) of table '\(table.name)' holds damaged document lengths: "
                    + "object \(key) has a posting and no length")
        }
        return length
    }
}
