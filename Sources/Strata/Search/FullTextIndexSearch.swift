import Foundation
import StrataStorage

/// A ``FullTextQuery`` answered from a table's full-text index: the matching objects, and their BM25 scores.
///
/// Each clause reads the postings of its terms (a prefix reads every term that starts with it), keeps the objects
/// where the terms follow each other, and counts the occurrences; required clauses intersect, excluded ones
/// subtract. The score is Okapi BM25 (k1 = 1.2, b = 0.75) summed over the required clauses, a clause counting as
/// one term: its document frequency is the number of objects where it occurs, its frequency in an object the
/// number of places it occurs.
struct FullTextIndexSearch {
    let table: Table
    let index: IndexKey
    let query: FullTextQuery
    /// The query's required clauses as the index cuts runs of unspaced scripts (trigrams or pairs).
    let required: [FullTextQuery.Clause]
    /// The query's excluded clauses as the index cuts runs of unspaced scripts.
    let excluded: [FullTextQuery.Clause]

    /// A search of `table`'s full-text index `index` for `query`, read in the index's layout: an index of
    /// trigrams (`IndexSpec.isTrigrams`) answers the query's trigram clauses, an older one its pairs.
    init(table: Table, index: IndexKey, query: FullTextQuery) {
        self.table = table
        self.index = index
        self.query = query
        let trigrams = table.fullTextIndexSpecs.first { $0.key == index }?.isTrigrams ?? false
        required = trigrams ? query.requiredTrigrams : query.required
        excluded = trigrams ? query.excludedTrigrams : query.excluded
    }

    /// BM25's term-frequency saturation.
    static let k1 = 1.2
    /// BM25's length normalization.
    static let b = 0.75

    /// Where one clause occurs: objects in ascending key order, with (when asked for) how many times and the
    /// object's token count, in parallel arrays. The token counts are empty when the index's postings do not hold
    /// them (the compact layout, and phrases): ranking reads them once for the query's matches.
    struct ClauseMatch {
        var keys: [ObjectKey] = []
        var counts: [Int] = []
        var lengths: [Int] = []
    }

    /// The keys of the objects that match, in ascending order.
    ///
    /// A single word reads only its posting blocks' keys; several words are read rarest first, each after the
    /// first only in the blocks that may hold an object kept so far (``matchingKeys()``), and the excluded
    /// clauses subtracted.
    func keys() throws -> [ObjectKey] {
        try matches(withCounts: false).keys
    }

    /// The first `count` matching keys in key order, or with `descending` the last `count` from the highest
    /// down. A query of one word (no exclusion) reads its posting blocks from that end only and stops once it has
    /// them: the newest matches of a common word cost a block or two. Any other query takes its matches' keys
    /// (``keys()``) and keeps that end of them.
    func keys(first count: Int, descending: Bool) throws -> [ObjectKey] {
        if required.count == 1, excluded.isEmpty, required[0].terms.count == 1,
            let term = required[0].terms.first, !term.isPrefix
        {
            return try table.fullTextKeys(index, term: term.text, first: count, descending: descending)
        }
        let all = try keys()
        return descending ? Array(all.suffix(count).reversed()) : Array(all.prefix(count))
    }

    /// The objects that match with their scores, best first (ties in key order); with `limit`, the first `limit`
    /// of them only, kept in a bounded heap as the matches are scored (the rest is never sorted).
    ///
    /// With `limit`, a query of single words over an index that keeps score bounds is answered by block-max
    /// pruning (``prunedTop(_:)``): only the blocks (or matches) whose bound can still enter the heap are scored.
    /// Otherwise every match is scored: the matches' token counts come with their postings where the index keeps
    /// them there; otherwise (the compact layout, phrases) they are read once for the matches alone, in the same
    /// walk over the length blocks that gives the statistics (`Table.fullTextStatistics(_:sample:lengthsOf:)`).
    func ranked(limit: Int? = nil) throws -> [(key: ObjectKey, score: Double)] {
        if let limit, let pruned = try prunedTop(limit) { return pruned }
        return try rankedByScoringAll(limit: limit)
    }

    /// ``ranked(limit:)`` by scoring every match: what indexes without score bounds, queries with a phrase or a
    /// prefix, and rankings without a limit do (and what tests compare the pruned top-k with).
    func rankedByScoringAll(limit: Int? = nil) throws -> [(key: ObjectKey, score: Double)] {
        let (keys, clauses, frequencies) = try matches(withCounts: true)
        guard !keys.isEmpty else { return [] }
        // Token counts are the object's, whichever clause gave them.
        let known = clauses.first { !$0.lengths.isEmpty }?.lengths
        let (documents, averageLength, read) = try table.fullTextStatistics(index, lengthsOf: known == nil ? keys : [])
        let lengths = known ?? read.map(Int.init)
        let before = Self.before(_:_:)
        var best = BoundedHeap<(key: ObjectKey, score: Double)>(capacity: limit ?? 0, before: before)
        var scored: [(key: ObjectKey, score: Double)] = []
        if limit == nil { scored.reserveCapacity(keys.count) }
        for (row, key) in keys.enumerated() {
            var score = 0.0
            for (clause, frequency) in zip(clauses, frequencies) {
                score += Self.score(
                    frequency: frequency, documents: documents, occurrences: clause.counts[row],
                    length: lengths[row], averageLength: averageLength)
            }
            if limit == nil { scored.append((key, score)) } else { best.offer((key, score)) }
        }
        return limit == nil ? scored.sorted(by: before) : best.sorted()
    }

    /// The order of ranked results: higher scores first, equal scores in key order.
    static func before(_ left: (key: ObjectKey, score: Double), _ right: (key: ObjectKey, score: Double)) -> Bool {
        left.score != right.score ? left.score > right.score : left.key < right.key
    }

    /// One clause's BM25 contribution: `frequency` objects hold it, `occurrences` times in this one, whose text has
    /// `length` tokens.
    static func score(frequency: Int, documents: Int, occurrences: Int, length: Int, averageLength: Double) -> Double {
        score(
            idf: idf(frequency: frequency, documents: documents), occurrences: occurrences, length: length,
            averageLength: averageLength)
    }

    /// BM25's inverse document frequency of a clause that `frequency` of `documents` objects hold.
    static func idf(frequency: Int, documents: Int) -> Double {
        let n = Double(Swift.max(documents, frequency)), df = Double(frequency)
        return log((n - df + 0.5) / (df + 0.5) + 1)
    }

    /// One clause's BM25 contribution from its `idf`: `occurrences` times in an object whose text has `length`
    /// tokens. It grows with `occurrences` and falls as `length` grows (so a block's highest frequency and lowest
    /// length bound its postings' contributions), in floating point too: each step rounds monotonically.
    static func score(idf: Double, occurrences: Int, length: Int, averageLength: Double) -> Double {
        let tf = Double(occurrences)
        let norm = averageLength > 0 ? Double(length) / averageLength : 1
        return idf * tf * (k1 + 1) / (tf + k1 * (1 - b + b * norm))
    }

    /// The matching objects in key order; with `withCounts`, each required clause's occurrences in them (rows
    /// parallel to the keys) and its document frequency.
    private func matches(
        withCounts: Bool
    ) throws -> (keys: [ObjectKey], clauses: [ClauseMatch], frequencies: [Int]) {
        guard !query.matchesNothing else { return ([], [], []) }
        guard withCounts else { return (try matchingKeys(), [], []) }
        var found: [ClauseMatch] = []
        for clause in required {
            let match = try occurrences(of: clause, withCounts: withCounts)
            if match.keys.isEmpty { return ([], [], []) }
            found.append(match)
        }
        let frequencies = found.map(\.keys.count)
        var keys = found.map(\.keys).min { $0.count < $1.count } ?? []
        for match in found where keys.count > 0 { keys = Self.intersection(keys, match.keys) }
        for clause in excluded where !keys.isEmpty {
            keys = Self.subtracting(keys, try occurrences(of: clause, withCounts: false).keys)
        }
        guard withCounts else { return (keys, [], []) }
        // Each clause's rows narrowed to the matching keys.
        let narrowed = found.map { match -> ClauseMatch in
            var result = ClauseMatch()
            result.keys = keys
            result.counts.reserveCapacity(keys.count)
            let hasLengths = !match.lengths.isEmpty
            if hasLengths { result.lengths.reserveCapacity(keys.count) }
            var row = 0
            for key in keys {
                row = Self.firstIndex(in: match.keys, notBelow: key, from: row)
                result.counts.append(match.counts[row])
                if hasLengths { result.lengths.append(match.lengths[row]) }
            }
            return result
        }
        return (keys, narrowed, frequencies)
    }

    /// The keys of the matching objects in key order, without counts.
    ///
    /// Phrases and prefixes are found first and intersected; then the single words, the one with the fewest index
    /// entries first (two descents each tell): the first is read whole (keys only) unless a phrase or prefix has
    /// narrowed the objects already, and each next one is read only where it may hold one of the objects kept so
    /// far, by a seeking walk that steps over (and past runs of them, descends the tree beyond) the blocks that
    /// hold none. The excluded clauses are subtracted last.
    func matchingKeys() throws -> [ObjectKey] {
        var words: [String] = []
        var kept: [ObjectKey]?
        for clause in required {
            if clause.terms.count == 1, let term = clause.terms.first, !term.isPrefix {
                words.append(term.text)
                continue
            }
            let found = try occurrences(of: clause, withCounts: false).keys
            let narrowed = kept.map { Self.intersection($0, found) } ?? found
            if narrowed.isEmpty { return [] }
            kept = narrowed
        }
        let order = try rarestFirst(words)
        // A word with no posting at all (no order then) matches nothing.
        if order.isEmpty, !words.isEmpty { return [] }
        for word in order {
            let narrowed = try kept.map { try table.fullTextKeys(index, term: words[word], within: $0) }
                ?? table.fullTextKeys(index, term: words[word], prefix: false)
            if narrowed.isEmpty { return [] }
            kept = narrowed
        }
        guard var keys = kept else { return [] }
        for clause in excluded where !keys.isEmpty {
            keys = Self.subtracting(keys, try occurrences(of: clause, withCounts: false).keys)
        }
        return keys
    }

    /// The objects where `clause` occurs; with `withCounts` (or for a phrase), how often, and their token counts
    /// where the postings hold them.
    func occurrences(of clause: FullTextQuery.Clause, withCounts: Bool) throws -> ClauseMatch {
        guard let first = clause.terms.first else { return ClauseMatch() }
        if clause.terms.count == 1, !withCounts {
            return ClauseMatch(keys: try table.fullTextKeys(index, term: first.text, prefix: first.isPrefix))
        }
        if !clause.terms.contains(where: \.isPrefix) {
            let offsets = clause.terms.map { $0.offset - first.offset }
            return try exactOccurrences(of: clause.terms.map(\.text), offsets: offsets)
        }
        // A phrase: the objects holding every word (keys only), then those objects' positions alone.
        var among: [ObjectKey]?
        if clause.terms.count > 1 {
            var keys = try table.fullTextKeys(index, term: first.text, prefix: first.isPrefix)
            for term in clause.terms.dropFirst() where !keys.isEmpty {
                keys = Self.intersection(keys, try table.fullTextKeys(index, term: term.text, prefix: term.isPrefix))
            }
            if keys.isEmpty { return ClauseMatch() }
            among = keys
        }
        // Candidates: the first term's postings, each with the positions where the clause may start.
        var candidates = try table.fullTextPostings(index, term: first.text, prefix: first.isPrefix, among: among)
        for term in clause.terms.dropFirst() where !candidates.isEmpty {
            let offset = term.offset - first.offset
            let next = try table.fullTextPostings(index, term: term.text, prefix: term.isPrefix, among: among)
            var kept: [FullTextPosting] = []
            var row = 0
            for var candidate in candidates {
                row = Self.firstIndex(in: next, notBelow: candidate.key, from: row)
                guard row < next.count, next[row].key == candidate.key else { continue }
                candidate.positions = Self.startsFollowed(candidate.positions, by: next[row].positions, at: offset)
                if !candidate.positions.isEmpty { kept.append(candidate) }
            }
            candidates = kept
        }
        var match = ClauseMatch()
        match.keys.reserveCapacity(candidates.count)
        match.counts.reserveCapacity(candidates.count)
        match.lengths.reserveCapacity(candidates.count)
        for candidate in candidates {
            match.keys.append(candidate.key)
            match.counts.append(candidate.positions.count)
            match.lengths.append(candidate.documentLength)
        }
        return match
    }

    /// Where a clause of exact terms (a word, or a phrase without a prefix) occurs, with how many times and the
    /// objects' token counts.
    ///
    /// A phrase is driven by its rarest word, told from the number of index entries of each word (its posting
    /// blocks), which the tree's subtree counts give in two descents without reading a block: no word's list is
    /// walked to learn its length. The driver's postings are read whole with their positions in one walk; the
    /// candidates are its objects, each with the positions where the phrase may start (`PhraseStarts`); every other
    /// word, rarer first, narrows them by a seeking walk over its blocks that decodes only the blocks that hold a
    /// candidate, descending the tree past runs of blocks that hold none, and compares the candidates' positions inside
    /// each block as it reads them (`Table.fullTextNarrow`): no word but the driver has its postings gathered, and no
    /// array is made per object. A phrase's matches carry no token counts (ranking reads them for the query's matches),
    /// a word's only where its postings hold them.
    private func exactOccurrences(of terms: [String], offsets: [Int]) throws -> ClauseMatch {
        if terms.count == 1 {
            // One word: its frequencies are its counts, and no position is read.
            let (keys, frequencies, lengths) = try table.fullTextFrequencies(index, term: terms[0], withLengths: false)
            return ClauseMatch(keys: keys, counts: frequencies.map(Int.init), lengths: lengths.map(Int.init))
        }
        let order = try rarestFirst(terms)
        guard let driver = order.first else { return ClauseMatch() }
        var starts = try table.fullTextPhraseStarts(index, term: terms[driver], offset: offsets[driver])
        for word in order.dropFirst() where starts.count > 0 {
            starts = try table.fullTextNarrow(index, starts, term: terms[word], offset: offsets[word])
        }
        var match = ClauseMatch()
        match.keys = starts.keys
        match.counts = (0..<starts.count).map { starts.starts(of: $0).count }
        return match
    }

    /// The indices of `terms` (exact terms), the one with the fewest index entries first (of equal counts, the
    /// earlier); empty when one of them has no posting at all. Two descents of the tree per term, none for a
    /// single term (whose order is itself).
    private func rarestFirst(_ terms: [String]) throws -> [Int] {
        guard terms.count > 1 else { return Array(terms.indices) }
        var counts: [Int] = []
        counts.reserveCapacity(terms.count)
        for term in terms {
            let count = try table.fullTextEntryCount(index, term: term)
            if count == 0 { return [] }
            counts.append(count)
        }
        return terms.indices.sorted { counts[$0] != counts[$1] ? counts[$0] < counts[$1] : $0 < $1 }
    }

    /// The starts (ascending) for which `following` (ascending) holds the position `offset` further on.
    private static func startsFollowed(_ starts: [Int], by following: [Int], at offset: Int) -> [Int] {
        var kept: [Int] = []
        var index = 0
        for start in starts {
            while index < following.count, following[index] < start + offset { index += 1 }
            if index < following.count, following[index] == start + offset { kept.append(start) }
        }
        return kept
    }

    /// The keys in both ascending lists, by a galloping merge over the longer one.
    static func intersection(_ left: [ObjectKey], _ right: [ObjectKey]) -> [ObjectKey] {
        let (short, long) = left.count <= right.count ? (left, right) : (right, left)
        var result: [ObjectKey] = []
        result.reserveCapacity(short.count)
        var index = 0
        for key in short {
            index = firstIndex(in: long, notBelow: key, from: index)
            if index == long.count { break }
            if long[index] == key { result.append(key) }
        }
        return result
    }

    /// The keys of ascending `keys` not in ascending `removed`.
    static func subtracting(_ keys: [ObjectKey], _ removed: [ObjectKey]) -> [ObjectKey] {
        var result: [ObjectKey] = []
        result.reserveCapacity(keys.count)
        var index = 0
        for key in keys {
            index = firstIndex(in: removed, notBelow: key, from: index)
            if index == removed.count || removed[index] != key { result.append(key) }
        }
        return result
    }

    /// The first index at or after `start` of ascending `keys` whose key is not below `key` (`keys.count` when
    /// none), found by doubling steps then a binary search: O(log distance).
    static func firstIndex(in keys: [ObjectKey], notBelow key: ObjectKey, from start: Int) -> Int {
        firstIndex(count: keys.count, notBelow: key, from: start) { keys[$0] }
    }

    private static func firstIndex(in postings: [FullTextPosting], notBelow key: ObjectKey, from start: Int) -> Int {
        firstIndex(count: postings.count, notBelow: key, from: start) { postings[$0].key }
    }

    private static func firstIndex(
        count: Int, notBelow key: ObjectKey, from start: Int, _ keyAt: (Int) -> ObjectKey
    ) -> Int {
        guard start < count, keyAt(start) < key else { return start }
        var low = start, step = 1
        var high = start + step
        while high < count, keyAt(high) < key {
            low = high
            step *= 2
            high = low + step
        }
        high = Swift.min(high, count)
        // keyAt(low) < key, and keyAt(high) >= key or high == count.
        while low + 1 < high {
            let middle = (low + high) / 2
            if keyAt(middle) < key { low = middle } else { high = middle }
        }
        return high
    }
}
