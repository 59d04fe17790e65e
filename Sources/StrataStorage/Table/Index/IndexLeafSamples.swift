/// Every 16th entry of a stored index leaf as one word, for a read transaction that comes back to the leaf (built
/// by ``SortedIndex``'s one-leaf lookups when the tree kept the leaf from an earlier read): a search of the leaf first finds the run of 16 entries that holds its
/// answer among the words, then searches that run.
///
/// A search of ``IndexLeafView`` alone probes about ten entries of a leaf of 600, each an end offset and the
/// entry's bytes elsewhere in the 16 KiB node: some twenty cache lines, nearly all waited for when the lookups go
/// all over the index. The words of one leaf are about 300 bytes in a row, and the run's offsets and entries lie
/// close together, so a search touches about half the lines.
///
/// The entries of a leaf are sorted, so all of them start with the bytes its first and last share; each word is
/// the 8 bytes after those (zero-padded, big-endian). Words that differ order their entries as the bytes do (the
/// argument of ``BranchWords``); equal words have their entries compared in full.
final class IndexLeafSamples {
    /// One entry in this many has a word.
    static let spacing = 16

    /// The leaf, read in place: a lookup that comes back to it skips reading its header again.
    let view: IndexLeafView
    /// The bytes every entry of the leaf starts with.
    private let prefix: [UInt8]
    /// The word of entry `spacing * i` after ``prefix``, for each `i`.
    private let words: [UInt64]

    /// The words of `view`'s entries: its first and last entries, then every 16th.
    /// - Throws: `StrataError.corruptFile` when an entry's offsets are damaged.
    init(_ view: IndexLeafView) throws {
        self.view = view
        let count = view.count
        guard count > 0 else {
            prefix = []
            words = []
            return
        }
        let first = try view.entry(0)
        let last = try view.entry(count - 1)
        let end = min(first.count, last.count)
        var shared = 0
        while shared < end, first[shared] == last[shared] { shared += 1 }
        prefix = Array(first[..<shared])
        words = try stride(from: 0, to: count, by: Self.spacing).map {
            BranchWords.word(try view.entry($0), from: shared)
        }
    }

    /// The position of the first entry of ``view`` ≥ `target` (`view.count` when none is), as
    /// ``IndexLeafView/lowerBound(_:)`` answers.
    /// - Throws: `StrataError.corruptFile` when an entry's offsets are damaged.
    func lowerBound(_ target: UnsafeRawBufferPointer) throws -> Int {
        let count = view.count
        guard count > 0 else { return 0 }
        let shared = prefix.count
        if shared > 0 {
            // A target that differs from the shared prefix sorts before or after every entry (one shorter that
            // agrees with it as far as it goes sorts before).
            let head = UnsafeRawBufferPointer(rebasing: target[..<min(shared, target.count)])
            let order = prefix.withUnsafeBytes { ByteOrder.compare(head, $0) }
            if order < 0 { return 0 }
            if order > 0 { return count }
        }
        let word = BranchWords.word(target, from: shared)
        // The first sampled entry ≥ target.
        var low = 0
        var high = words.count
        try words.withUnsafeBufferPointer { words in
            while low < high {
                let middle = (low + high) >> 1
                let sampled = words[middle]
                let atOrAfter = sampled != word
                    ? sampled > word : ByteOrder.compare(try view.entry(middle * Self.spacing), target) >= 0
                if atOrAfter { high = middle } else { low = middle + 1 }
            }
        }
        // Sampled entry `low - 1` sorts before `target` and sampled entry `low` (if any) at or after it: the
        // answer lies between them.
        let first = low == 0 ? 0 : (low - 1) * Self.spacing + 1
        let end = low < words.count ? low * Self.spacing : count
        return try (first..<end).partitionIndex { ByteOrder.compare(try view.entry($0), target) >= 0 }
    }
}
