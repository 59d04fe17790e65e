/// For one word of a ranked top-k, per term frequency, the longest text in which a posting may still score at
/// least the heap's last kept score: BM25 falls as the text's token count grows, so a posting of a longer text
/// cannot enter, and most postings are rejected by comparing integers (and, through
/// `DocumentLengthTable.isLonger(_:than:)`, without reading their own token count) instead of being scored.
///
/// The limits are worked out again, lazily, each time the heap's last kept score changes. A limit is exact in
/// floating point (the longest length whose computed score is at least the bar, found from BM25's formula solved
/// for the length and checked against ``FullTextIndexSearch/score(idf:occurrences:length:averageLength:)`` itself),
/// so rejecting by it never drops a posting that the score would have let in.
struct LengthLimits {
    /// The word's BM25 inverse document frequency.
    let idf: Double
    /// The index's average token count.
    let averageLength: Double
    /// The score the cached limits are for.
    private var bar = -Double.infinity
    /// Per frequency below ``cached``, its limit for ``bar``, or `nil` until asked for.
    private var limits = [Int?](repeating: nil, count: LengthLimits.cached)
    /// The frequencies whose limits are kept (higher ones, rare, are worked out each time).
    private static let cached = 16
    /// The longest token count a text may have (`Int32`): a limit this high rejects nothing.
    static let longest = Int(Int32.max)

    /// Limits for a word of inverse document frequency `idf` in an index of average token count `averageLength`.
    init(idf: Double, averageLength: Double) {
        self.idf = idf
        self.averageLength = averageLength
    }

    /// The longest token count at which a posting of `frequency` occurrences scores at least `bar` (ties may
    /// still enter with a lower key), ``longest`` when any does, -1 when none does; `bar` is the heap's last
    /// kept score, or `nil` while the heap is not full (every posting may enter).
    @inline(__always)
    mutating func longest(frequency: Int, atLeast bar: Double?) -> Int {
        guard let bar else { return Self.longest }
        if bar != self.bar {
            self.bar = bar
            for index in limits.indices { limits[index] = nil }
        }
        guard frequency >= 0, frequency < Self.cached else { return limit(frequency: frequency, bar: bar) }
        if let known = limits[frequency] { return known }
        let found = limit(frequency: frequency, bar: bar)
        limits[frequency] = found
        return found
    }

    /// The score of a posting of `frequency` occurrences in a text of `length` tokens.
    private func score(_ frequency: Int, _ length: Int) -> Double {
        FullTextIndexSearch.score(
            idf: idf, occurrences: frequency, length: length, averageLength: averageLength)
    }

    /// ``longest(frequency:atLeast:)`` worked out: BM25 solved for the length gives a guess, which the score
    /// itself confirms or corrects (a binary search over the lengths the guess leaves, usually none).
    private func limit(frequency: Int, bar: Double) -> Int {
        guard score(frequency, 0) >= bar else { return -1 }
        guard score(frequency, Self.longest) < bar else { return Self.longest }
        // score(low) >= bar, score(high) < bar.
        var low = 0, high = Self.longest
        let k1 = FullTextIndexSearch.k1, b = FullTextIndexSearch.b, tf = Double(frequency)
        let guess = ((idf * tf * (k1 + 1) / bar - tf) / k1 - (1 - b)) * averageLength / b
        if guess.isFinite, guess > Double(low), guess < Double(high) {
            let length = Int(guess)
            if score(frequency, length) >= bar { low = length } else { high = length }
            // The guess's neighbour on the other side usually closes the range.
            let other = low == length ? length + 1 : length - 1
            if other > low, other < high {
                if score(frequency, other) >= bar { low = other } else { high = other }
            }
        }
        while high - low > 1 {
            let middle = low + (high - low) / 2
            if score(frequency, middle) >= bar { low = middle } else { high = middle }
        }
        return low
    }
}
