/// Every object's token count (BM25's document length) in a posting-block full-text index, in memory: what a
/// pruned ranked top-k looks its candidates' lengths up in, one array read each, where a seeking walk of the
/// length blocks costs a descent per candidate (a common word's postings are spread over every length block).
/// Lucene keeps its norms at hand for the same reason. Read from the length blocks in one walk; a read
/// transaction's index keeps it for its version (`Table.fullTextLengthTable(_:)`).
package struct DocumentLengthTable: Sendable {
    /// The lowest object key.
    private let first: Int64
    /// When the keys are dense enough: per key from `first` on, its token count, or -1 for an object without one.
    private let dense: [Int32]
    /// Otherwise: the keys, ascending, and their token counts.
    private let keys: [Int64]
    private let lengths: [Int32]

    /// The table of the objects `keys` (ascending) with token counts `lengths`: dense when the keys span at most
    /// four times their number (plus 1,024), else searched.
    init(keys: [Int64], lengths: [Int32]) {
        first = keys.first ?? 0
        let (span, overflow) = (keys.last ?? 0).subtractingReportingOverflow(first)
        if !overflow, span < Int64(4 * keys.count + 1_024) {
            var dense = [Int32](repeating: -1, count: keys.isEmpty ? 0 : Int(span) + 1)
            for (key, length) in zip(keys, lengths) { dense[Int(key - first)] = length }
            self.dense = dense
            self.keys = []
            self.lengths = []
        } else {
            dense = []
            self.keys = keys
            self.lengths = lengths
        }
    }

    /// The number of bytes the table holds (what it costs to keep).
    package var bytes: Int { dense.count * 4 + keys.count * 12 }

    /// The token count of object `key`, or `nil` when it has none (no text with a token).
    @inline(__always)
    package func length(of key: ObjectKey) -> Int32? {
        if !dense.isEmpty || keys.isEmpty {
            let (offset, overflow) = key.rawValue.subtractingReportingOverflow(first)
            guard !overflow, offset >= 0, offset < Int64(dense.count) else { return nil }
            let length = dense[Int(offset)]
            return length < 0 ? nil : length
        }
        var low = 0, high = keys.count
        while low < high {
            let middle = (low + high) / 2
            if keys[middle] < key.rawValue { low = middle + 1 } else { high = middle }
        }
        return low < keys.count && keys[low] == key.rawValue ? lengths[low] : nil
    }
}
