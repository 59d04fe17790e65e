/// Every object's token count (BM25's document length) in a posting-block full-text index, in memory: what a
/// pruned ranked top-k looks its candidates' lengths up in, one array read each, where a seeking walk of the
/// length blocks costs a descent per candidate (a common word's postings are spread over every length block).
/// Lucene keeps its norms at hand for the same reason. Read from the length blocks in one walk; a read
/// transaction's index keeps it for its version (`Table.fullTextLengthTable(_:)`).
///
/// When the keys are dense, a token count takes one byte (counts of 255 or more are kept aside): 200,000 objects
/// take 200 KB, which stays in a core's cache where 4 bytes a count did not, and a ranked top-k rejects most of
/// a word's postings by that byte alone (``isLonger(_:than:)``), without a branch, so the reads of a block's
/// postings overlap.
package struct DocumentLengthTable: Sendable {
    /// The byte of a key whose count is 255 or more, or which has none: its count is looked up in ``largeKeys``.
    private static let aside: UInt8 = 0xFF

    /// The lowest object key.
    private let first: Int64
    /// Whether the table is dense (``counts``) rather than searched (``largeKeys`` holds every key).
    private let isDense: Bool
    /// When dense: per key from `first` on, its token count when below 255, else ``aside``.
    private let counts: [UInt8]
    /// The keys, ascending, whose counts ``counts`` does not hold (every key when the table is not dense), and
    /// those counts.
    private let largeKeys: [Int64]
    private let largeLengths: [Int32]

    /// The table of the objects `keys` (ascending) with token counts `lengths`: dense when the keys span at most
    /// four times their number (plus 1,024), else searched.
    init(keys: [Int64], lengths: [Int32]) {
        first = keys.first ?? 0
        let (span, overflow) = (keys.last ?? 0).subtractingReportingOverflow(first)
        guard !overflow, span < Int64(4 * keys.count + 1_024), !keys.isEmpty else {
            isDense = false
            counts = []
            largeKeys = keys
            largeLengths = lengths
            return
        }
        isDense = true
        var counts = [UInt8](repeating: Self.aside, count: Int(span) + 1)
        var largeKeys: [Int64] = [], largeLengths: [Int32] = []
        for (key, length) in zip(keys, lengths) {
            if length >= 0, length < Int32(Self.aside) {
                counts[Int(key - first)] = UInt8(length)
            } else {
                largeKeys.append(key)
                largeLengths.append(length)
            }
        }
        self.counts = counts
        self.largeKeys = largeKeys
        self.largeLengths = largeLengths
    }

    /// The number of bytes the table holds (what it costs to keep).
    package var bytes: Int { counts.count + largeKeys.count * 12 }

    /// The token count of object `key`, or `nil` when it has none (no text with a token).
    @inline(__always)
    package func length(of key: ObjectKey) -> Int32? {
        if isDense {
            let (offset, overflow) = key.rawValue.subtractingReportingOverflow(first)
            guard !overflow, offset >= 0, offset < Int64(counts.count) else { return nil }
            let count = counts[Int(offset)]
            if count != Self.aside { return Int32(count) }
        }
        return largeLength(of: key)
    }

    /// Whether object `key`'s token count is surely above `limit`, told from its byte alone (one read, no
    /// branch on the count); `false` when it may not be (the caller reads ``length(of:)``), and always for a
    /// table that is not dense.
    ///
    /// A key the table holds no count for (a damaged index: a posting without a length) counts as longer than
    /// any limit below 255 here; ``length(of:)`` reports it.
    @inline(__always)
    package func isLonger(_ key: Int64, than limit: Int) -> Bool {
        guard isDense, limit < Int(Self.aside) else { return false }
        let (offset, overflow) = key.subtractingReportingOverflow(first)
        guard !overflow, UInt64(bitPattern: offset) < UInt64(counts.count) else { return false }
        return Int(counts[Int(offset)]) > limit
    }

    /// The count of `key` among ``largeKeys``, by binary search.
    private func largeLength(of key: ObjectKey) -> Int32? {
        var low = 0, high = largeKeys.count
        while low < high {
            let middle = (low + high) / 2
            if largeKeys[middle] < key.rawValue { low = middle + 1 } else { high = middle }
        }
        return low < largeKeys.count && largeKeys[low] == key.rawValue ? largeLengths[low] : nil
    }
}
