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
    /// The offset where the payload starts.
    let payloadStart: Int

    /// The entry `bytes` whose term ends at `termEnd`, or `nil` when its bound does not read or no payload follows.
    init?(_ bytes: UnsafeRawBufferPointer, termEnd: Int, layout: PostingLayout) {
        guard let (bound, isOpen, end) = layout.readBound(bytes, at: termEnd), end < bytes.count else { return nil }
        self.bytes = bytes
        self.termEnd = termEnd
        self.bound = bound
        self.isOpen = isOpen
        payloadStart = end
    }

    /// The encoded term.
    var term: UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: bytes[0..<termEnd]) }

    /// The payload.
    var payload: UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: bytes[payloadStart...]) }

    /// Whether this is a block of the empty term (the document lengths).
    var isLengths: Bool { termEnd == FullTextEntry.lengthPrefix.count }
}
