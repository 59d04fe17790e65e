/// One of a term's posting blocks in an index that keeps score bounds (`IndexSpec.isScoreBounds`), copied out of
/// the tree with its bound on its postings' BM25 contributions, for a ranked top-k that decodes only the blocks
/// whose bound can still enter it (`Table.fullTextScoredBlocks(_:term:)`).
package struct ScoredPostingBlock: Sendable {
    /// The number of postings (objects) in the block.
    package let count: Int
    /// The block's last object key, or `Int64.max` for its term's open last block: every key it holds is at most
    /// this, and above the previous block's.
    package let lastKey: Int64
    /// The highest term frequency of the block's postings, or more.
    package let frequencyBound: Int
    /// A token count at most that of every object the block holds a posting of.
    package let lengthBound: Int
    /// The compact payload (``PostingBlock``).
    let payload: [UInt8]

    init(entry: PostingEntry, count: Int) {
        self.count = count
        lastKey = entry.bound
        frequencyBound = Int(entry.scoreBound?.frequency ?? Int32.max)
        lengthBound = Int(entry.scoreBound?.length ?? 0)
        payload = Array(entry.payload)
    }

    /// The block's object keys (ascending) and the term's frequency in each.
    /// - Throws: `StrataError.invalidArgument` for damaged bytes.
    package func postings() throws -> (keys: [ObjectKey], frequencies: [Int32]) {
        var keys: [ObjectKey] = [], frequencies: [Int32] = [], lengths: [Int32] = []
        keys.reserveCapacity(count)
        frequencies.reserveCapacity(count)
        let decoded = payload.withUnsafeBytes {
            PostingBlock.appendCounts(
                of: $0, layout: .compact, keys: &keys, lengths: &lengths, frequencies: &frequencies)
        }
        guard decoded, keys.count == count else {
            throw StrataError.invalidArgument("a full-text posting block copied for ranking does not decode")
        }
        return (keys, frequencies)
    }
}
