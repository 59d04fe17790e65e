/// One block of a term's postings in a posting-block full-text index: up to ``maxPostings`` objects in key order,
/// stored as one entry of the index tree.
///
/// The entry is the term's index-key encoding (as in ``FullTextEntry``), an 8-byte **bound** (the block's last
/// object key, big-endian with the sign flipped; all `FF` for a term's open last block), then the payload:
///
/// - a varint `n` (1 or more), the number of objects;
/// - `n` varints: the first object key, then each key's gap from the previous one (the keys ascend);
/// - `n` pairs of varints: the object's token count (BM25's document length) and the term's frequency `f`;
/// - for each object in turn, its `f` positions, each a varint gap from the previous one (the first from 0).
///
/// The empty term's blocks (`01 00 00`) are the document lengths: frequency 0 and no positions. Blocks of a term
/// sort by bound, so the first block whose bound is at least an object key is the one that holds that key (or
/// would take it): one descent of the tree finds it, and a term's blocks are its postings in key order. A reader
/// that only intersects keys decodes the first section; positions are decoded for phrases only.
/// docs/FILE-FORMAT.md describes the same bytes.
struct PostingBlock: Equatable {
    /// One object's occurrences of the block's term.
    struct Posting: Equatable {
        /// The object's key.
        var key: Int64
        /// The object's token count.
        var length: Int
        /// The term's positions in the object's text, ascending (empty in the length blocks).
        var positions: [Int]
    }

    /// The most postings a block holds.
    static let maxPostings = 128
    /// The payload bytes past which a block is closed before it reaches ``maxPostings`` (long texts with many
    /// positions): entries stay well within an index leaf, which also keeps branch keys short.
    static let maxPayloadBytes = 700
    /// The bound of a term's open last block, past every object key.
    static let openBound: [UInt8] = ByteOrder.key(Int64.max)

    var postings: [Posting]

    /// The encoded payload.
    func payload() -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(postings.count * 6 + 4)
        FullTextEntry.appendVarint(postings.count, to: &bytes)
        var previous: Int64 = 0
        for (offset, posting) in postings.enumerated() {
            Self.appendKey(offset == 0 ? posting.key : posting.key - previous, to: &bytes)
            previous = posting.key
        }
        for posting in postings {
            FullTextEntry.appendVarint(posting.length, to: &bytes)
            FullTextEntry.appendVarint(posting.positions.count, to: &bytes)
        }
        for posting in postings {
            var last = 0
            for position in posting.positions {
                FullTextEntry.appendVarint(position - last, to: &bytes)
                last = position
            }
        }
        return bytes
    }

    /// The index entry of this block of the term encoded as `term`, with `bound` (8 bytes).
    func entry(term: [UInt8], bound: [UInt8]) -> [UInt8] {
        term + bound + payload()
    }

    /// The postings of `payload`, or `nil` for damaged bytes (keys that do not ascend, counts that overrun).
    static func decode(_ payload: UnsafeRawBufferPointer) -> PostingBlock? {
        var offset = 0
        guard let count = FullTextEntry.readVarint(payload, &offset), count > 0, count <= payload.count else {
            return nil
        }
        var postings: [Posting] = []
        postings.reserveCapacity(count)
        var key: Int64 = 0
        for index in 0..<count {
            guard let gap = readKey(payload, &offset), index == 0 || gap > 0 else { return nil }
            let (sum, overflow) = key.addingReportingOverflow(gap)
            guard !overflow else { return nil }
            key = sum
            postings.append(Posting(key: key, length: 0, positions: []))
        }
        var frequencies: [Int] = []
        frequencies.reserveCapacity(count)
        for index in 0..<count {
            guard let length = FullTextEntry.readVarint(payload, &offset),
                let frequency = FullTextEntry.readVarint(payload, &offset), frequency >= 0, frequency <= payload.count
            else { return nil }
            postings[index].length = length
            frequencies.append(frequency)
        }
        for index in 0..<count where frequencies[index] > 0 {
            var positions: [Int] = []
            positions.reserveCapacity(frequencies[index])
            var position = 0
            for _ in 0..<frequencies[index] {
                guard let gap = FullTextEntry.readVarint(payload, &offset) else { return nil }
                position += gap
                positions.append(position)
            }
            postings[index].positions = positions
        }
        guard offset == payload.count else { return nil }
        return PostingBlock(postings: postings)
    }

    /// Calls `body` with each posting of `payload` whose key `wanted` accepts (asked in key order), decoding the
    /// positions of those only; `false` for damaged bytes.
    static func forEachPosting(
        of payload: UnsafeRawBufferPointer, where wanted: (Int64) -> Bool, _ body: (Posting) -> Void
    ) -> Bool {
        var offset = 0
        guard let count = FullTextEntry.readVarint(payload, &offset), count > 0, count <= payload.count else {
            return false
        }
        var keys: [Int64] = []
        keys.reserveCapacity(count)
        var key: Int64 = 0
        for index in 0..<count {
            guard let gap = readKey(payload, &offset), index == 0 || gap > 0 else { return false }
            key &+= gap
            keys.append(key)
        }
        var lengths: [Int] = [], frequencies: [Int] = []
        lengths.reserveCapacity(count)
        frequencies.reserveCapacity(count)
        for _ in 0..<count {
            guard let length = FullTextEntry.readVarint(payload, &offset),
                let frequency = FullTextEntry.readVarint(payload, &offset), frequency <= payload.count
            else { return false }
            lengths.append(length)
            frequencies.append(frequency)
        }
        for index in 0..<count {
            let isWanted = wanted(keys[index])
            var positions: [Int] = []
            if isWanted { positions.reserveCapacity(frequencies[index]) }
            var position = 0
            for _ in 0..<frequencies[index] {
                guard let gap = FullTextEntry.readVarint(payload, &offset) else { return false }
                position += gap
                if isWanted { positions.append(position) }
            }
            if isWanted { body(Posting(key: keys[index], length: lengths[index], positions: positions)) }
        }
        return offset == payload.count
    }

    /// For each posting of `payload` whose key is the next of `among` (ascending, from `next`, which moves past
    /// the keys the block passes; every posting when `among` is `nil`): its key appended to `keys`, its positions
    /// to `positions`, their end to `ends` and the object's token count to `lengths`, without an array per
    /// posting; `false` for damaged bytes.
    ///
    /// The keys are decoded first and matched with `among`; a block that holds none of them is left there, the
    /// counts past the last wanted posting are stepped over, and the positions are read up to the last wanted
    /// posting only, those of the others stepped over byte by byte, not decoded.
    static func appendPositions(
        of payload: UnsafeRawBufferPointer, among: [ObjectKey]?, next: inout Int, keys: inout [ObjectKey],
        positions: inout [Int32], ends: inout [Int32], lengths: inout [Int32]
    ) -> Bool {
        var reader = VarintReader(payload)
        guard let count = reader.next(), count > 0, count <= UInt64(payload.count) else { return false }
        let n = Int(count)
        // Per posting, in space on the stack: its key, then its frequency, negative (-1 - frequency) for a posting
        // not asked for.
        return withUnsafeTemporaryAllocation(of: Int64.self, capacity: 2 * n) { space in
            let blockKeys = space.baseAddress!, frequencies = blockKeys + n
            var key: Int64 = 0
            for index in 0..<n {
                guard let gap = reader.next(), index == 0 || gap > 0 else { return false }
                key &+= Int64(bitPattern: gap)
                blockKeys[index] = key
            }
            // The postings asked for are marked 1 (the others 0); `last` is the last one asked for.
            var last = n - 1
            if let among {
                last = -1
                let cursor = among.withUnsafeBufferPointer { among in
                    var cursor = next
                    for index in 0..<n {
                        let key = blockKeys[index]
                        while cursor < among.count, among[cursor].rawValue < key { cursor += 1 }
                        if cursor < among.count, among[cursor].rawValue == key {
                            frequencies[index] = 1
                            last = index
                            cursor += 1
                        } else {
                            frequencies[index] = 0
                        }
                    }
                    return cursor
                }
                next = cursor
                // No wanted posting here: the rest of the block is not read.
                if last < 0 { return true }
            }
            // The wanted postings' lengths go in `lengths` straight away (a damaged block fails the whole read).
            for index in 0...last {
                guard let length = reader.next(), let frequency = reader.next(), frequency <= UInt64(payload.count)
                else { return false }
                let isWanted = among == nil || frequencies[index] == 1
                frequencies[index] = isWanted ? Int64(frequency) : -1 - Int64(frequency)
                if isWanted { lengths.append(Int32(truncatingIfNeeded: length)) }
            }
            // The positions' section starts past every posting's pair of counts.
            guard reader.skip(2 * (n - 1 - last)) else { return false }
            for index in 0...last {
                let frequency = frequencies[index]
                guard frequency >= 0 else {
                    // The positions of an object not asked for are stepped over, not decoded: one test per byte.
                    guard reader.skip(Int(-1 - frequency)) else { return false }
                    continue
                }
                var position: UInt64 = 0
                for _ in 0..<frequency {
                    guard let gap = reader.next() else { return false }
                    position &+= gap
                    positions.append(Int32(truncatingIfNeeded: position))
                }
                keys.append(ObjectKey(blockKeys[index]))
                ends.append(Int32(truncatingIfNeeded: positions.count))
            }
            // A block read to its end must end there.
            return last < n - 1 || reader.isAtEnd
        }
    }

    /// The object keys, token counts and term frequencies of `payload` (its first two sections; the positions
    /// are not read), appended to `keys`, `lengths` and `frequencies`; `false` for damaged bytes.
    static func appendCounts(
        of payload: UnsafeRawBufferPointer, keys: inout [ObjectKey], lengths: inout [Int32],
        frequencies: inout [Int32]
    ) -> Bool {
        var reader = VarintReader(payload)
        guard let count = reader.next(), count > 0, count <= UInt64(payload.count) else { return false }
        var key: Int64 = 0
        for index in 0..<Int(count) {
            guard let gap = reader.next(), index == 0 || gap > 0 else { return false }
            key &+= Int64(bitPattern: gap)
            keys.append(ObjectKey(key))
        }
        for _ in 0..<Int(count) {
            guard let length = reader.next(), let frequency = reader.next(), frequency <= UInt64(payload.count)
            else { return false }
            lengths.append(Int32(truncatingIfNeeded: length))
            frequencies.append(Int32(truncatingIfNeeded: frequency))
        }
        return true
    }

    /// The object keys of `payload` only (its first section), appended to `keys`; `false` for damaged bytes.
    static func appendKeys(of payload: UnsafeRawBufferPointer, to keys: inout [Int64]) -> Bool {
        var reader = VarintReader(payload)
        guard let count = reader.next(), count > 0, count <= UInt64(payload.count) else { return false }
        var key: Int64 = 0
        for index in 0..<Int(count) {
            guard let gap = reader.next(), index == 0 || gap > 0 else { return false }
            key &+= Int64(bitPattern: gap)
            keys.append(key)
        }
        return true
    }

    /// The first object key of `payload`, or `nil` for damaged bytes.
    static func firstKey(of payload: UnsafeRawBufferPointer) -> Int64? {
        var reader = VarintReader(payload)
        guard let count = reader.next(), count > 0, let key = reader.next() else { return nil }
        return Int64(bitPattern: key)
    }

    /// The number of objects in `payload`, or `nil` for damaged bytes.
    static func count(of payload: UnsafeRawBufferPointer) -> Int? {
        var offset = 0
        return FullTextEntry.readVarint(payload, &offset)
    }

    /// `postings` (ascending keys) cut into blocks of at most ``maxPostings`` postings and about
    /// ``maxPayloadBytes`` bytes.
    static func chunks(_ postings: ArraySlice<Posting>) -> [PostingBlock] {
        var blocks: [PostingBlock] = []
        var current: [Posting] = []
        var bytes = 0
        for posting in postings {
            let size = 4 + posting.positions.count * 2
            if !current.isEmpty, current.count >= maxPostings || bytes + size > maxPayloadBytes {
                blocks.append(PostingBlock(postings: current))
                current = []
                bytes = 0
            }
            current.append(posting)
            bytes += size
        }
        if !current.isEmpty { blocks.append(PostingBlock(postings: current)) }
        return blocks
    }

    /// Moves `offset` past `count` varints of `bytes`; `false` when they overrun.
    private static func skipVarints(_ count: Int, in bytes: UnsafeRawBufferPointer, at offset: inout Int) -> Bool {
        var left = count
        while left > 0 {
            guard offset < bytes.count else { return false }
            if bytes[offset] < 0x80 { left -= 1 }
            offset += 1
        }
        return true
    }

    /// Appends an object key or key gap (0 or more) as a varint.
    static func appendKey(_ value: Int64, to bytes: inout [UInt8]) {
        var rest = UInt64(bitPattern: value)
        while rest >= 0x80 {
            bytes.append(UInt8(rest & 0x7F) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    /// Reads an object key or key gap (its 64 bits); `nil` past the end or for more than 10 bytes.
    private static func readKey(_ bytes: UnsafeRawBufferPointer, _ offset: inout Int) -> Int64? {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while offset < bytes.count, shift < 64 {
            let byte = bytes[offset]
            offset += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return Int64(bitPattern: value) }
            shift += 7
        }
        return nil
    }
}
