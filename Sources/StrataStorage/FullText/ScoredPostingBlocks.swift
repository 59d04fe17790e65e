/// A term's posting blocks in an index that keeps score bounds (`IndexSpec.isScoreBounds`), copied out of the
/// tree in one walk with each block's bound on its postings' BM25 contributions, for a ranked top-k that decodes
/// only the blocks whose bound can still enter it (`Table.fullTextScoredBlocks(_:term:)`). The payloads are kept
/// side by side in one buffer (no array per block), and a block is decoded onto the stack.
package struct ScoredPostingBlocks: Sendable {
    /// One block: its bound and where its payload lies in the shared buffer.
    package struct Block: Sendable {
        /// The number of postings (objects) in the block.
        package let count: Int
        /// The block's last object key, or `Int64.max` for its term's open last block: every key it holds is at
        /// most this, and above the previous block's.
        package let lastKey: Int64
        /// The highest term frequency of the block's postings, or more.
        package let frequencyBound: Int
        /// A token count at most that of every object the block holds a posting of.
        package let lengthBound: Int
        /// The compact payload (``PostingBlock``) in the shared buffer.
        let payload: Range<Int>
    }

    /// The blocks in key order.
    package private(set) var blocks: [Block] = []
    /// The payloads, one after the other.
    private var bytes: [UInt8] = []

    /// The number of postings of all the blocks (the term's document frequency).
    package var postingCount: Int { blocks.reduce(0) { $0 + $1.count } }

    /// Appends the term block `entry` (parsed with its score bound) of `count` postings, after the others.
    mutating func append(_ entry: PostingEntry, count: Int) {
        let start = bytes.count
        bytes.append(contentsOf: entry.payload)
        blocks.append(
            Block(
                count: count, lastKey: entry.bound,
                frequencyBound: Int(entry.scoreBound?.frequency ?? Int32.max),
                lengthBound: Int(entry.scoreBound?.length ?? 0), payload: start..<bytes.count))
    }

    /// Calls `body` with block `index`'s object keys (ascending) and the term's frequency in each, decoded onto
    /// the stack (valid during the call only).
    /// - Throws: `StrataError.invalidArgument` for damaged bytes; what `body` throws.
    package func withPostings<Result>(
        of index: Int,
        _ body: (_ keys: UnsafeBufferPointer<Int64>, _ frequencies: UnsafeBufferPointer<Int64>) throws -> Result
    ) throws -> Result {
        let block = blocks[index]
        return try withUnsafeTemporaryAllocation(of: Int64.self, capacity: 2 * block.count) { space in
            let keys = space.baseAddress!, frequencies = keys + block.count
            let decoded = bytes[block.payload].withUnsafeBytes { payload in
                var reader = VarintReader(payload)
                // A frequency is at most the positions that follow it, each a byte or more.
                return reader.next() == UInt64(block.count)
                    && PostingBlock.readCompactHeads(
                        &reader, count: block.count, keys: keys, frequencies: frequencies,
                        limit: UInt64(payload.count))
            }
            guard decoded else {
                throw StrataError.invalidArgument("a full-text posting block copied for ranking does not decode")
            }
            return try body(
                UnsafeBufferPointer(start: keys, count: block.count),
                UnsafeBufferPointer(start: frequencies, count: block.count))
        }
    }

    /// Block `index`'s object keys (ascending) and the term's frequency in each, as arrays.
    /// - Throws: `StrataError.invalidArgument` for damaged bytes.
    package func postings(of index: Int) throws -> (keys: [ObjectKey], frequencies: [Int32]) {
        try withPostings(of: index) { keys, frequencies in
            (keys.map { ObjectKey($0) }, frequencies.map { Int32(truncatingIfNeeded: $0) })
        }
    }
}
