/// One posting block's index entry, parsed as far as its payload (``PostingBlock``): the term's bytes, the bound
/// and where the payload starts, in the index's ``PostingLayout``.
struct PostingEntry {
    /// The whole entry.
    let bytes: UnsafeRawBufferPointer
    /// The offset just past the encoded term (its `00 00`).
    let termEnd: Int
    /// The block's bound: its last object key, `Int64.max` for a term's open last block.
    let bound: Int64
    /// Whether this is its term's open last block.
    let isOpen: Bool
    /// The offset just past the bound (where the score bound starts, if the block has one).
    let boundEnd: Int
    /// The offset where the payload starts.
    let payloadStart: Int
    /// In an index that keeps score bounds (`IndexSpec.isScoreBounds`), a term block's bound on its postings: the
    /// highest term frequency among them and a length no object of the block's text is shorter than (BM25 grows
    /// with the one and falls with the other, so the pair bounds every posting's score whatever the average
    /// length and object count); `nil` for a block of the empty term (the document lengths) and in an index
    /// without them.
    let scoreBound: ScoreBound?

    /// A term block's bound on its postings' BM25 contributions (see ``scoreBound``).
    struct ScoreBound: Equatable {
        /// The highest term frequency of the block's postings (or more).
        var frequency: Int32
        /// A token count at most that of any object the block holds a posting of.
        var length: Int32

        /// The bound of no posting yet: ``include(frequency:length:)`` raises and lowers it.
        static let empty = ScoreBound(frequency: 0, length: Int32.max)

        /// Widens the bound to hold a posting `frequency` times in a text of `length` tokens (a negative length,
        /// unknown, counts as 0).
        mutating func include(frequency: Int, length: Int) {
            self.frequency = Swift.max(self.frequency, Int32(clamping: frequency))
            self.length = Swift.min(self.length, Int32(clamping: Swift.max(length, 0)))
        }
    }

    /// The entry `bytes` whose term ends at `termEnd`, its score bound read when `scoreBounds` (the index keeps
    /// them) and the block is a term's; `nil` when its bound or score bound does not read or no payload follows.
    init?(_ bytes: UnsafeRawBufferPointer, termEnd: Int, layout: PostingLayout, scoreBounds: Bool = false) {
        guard let (bound, isOpen, start) = layout.readBound(bytes, at: termEnd), start < bytes.count else { return nil }
        var end = start
        var scoreBound: ScoreBound?
        if scoreBounds, termEnd != FullTextEntry.lengthPrefix.count {
            var reader = VarintReader(UnsafeRawBufferPointer(rebasing: bytes[end...]))
            guard let frequency = reader.next(), let length = reader.next(), frequency <= UInt64(Int32.max),
                length <= UInt64(Int32.max)
            else { return nil }
            scoreBound = ScoreBound(frequency: Int32(frequency), length: Int32(length))
            end += reader.offset
            guard end < bytes.count else { return nil }
        }
        self.bytes = bytes
        self.termEnd = termEnd
        self.bound = bound
        self.isOpen = isOpen
        self.scoreBound = scoreBound
        boundEnd = start
        payloadStart = end
    }

    /// The bytes of `bound`, which follow a term block's bound in an index that keeps score bounds: the
    /// frequency, then the length, each a varint.
    static func scoreBoundBytes(_ bound: ScoreBound) -> [UInt8] {
        var bytes: [UInt8] = []
        FullTextEntry.appendVarint(Int(bound.frequency), to: &bytes)
        FullTextEntry.appendVarint(Int(bound.length), to: &bytes)
        return bytes
    }

    /// The encoded term.
    var term: UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: bytes[0..<termEnd]) }

    /// The payload.
    var payload: UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: bytes[payloadStart...]) }

    /// Whether this is a block of the empty term (the document lengths).
    var isLengths: Bool { termEnd == FullTextEntry.lengthPrefix.count }
}
