/// One block of a term's postings in a posting-block full-text index: up to ``maxPostings`` objects in key order,
/// stored as one entry of the index tree, in one of two layouts (``PostingLayout``).
///
/// The entry is the term's index-key encoding (as in ``FullTextEntry``), the block's **bound** (its last object
/// key, or the open bound for a term's last block: ``PostingLayout/bound(_:)``), then the payload.
///
/// Wide layout (indexes made before the compact one):
/// - a varint `n` (1 or more), the number of objects;
/// - `n` varints: the first object key, then each key's gap from the previous one (the keys ascend);
/// - `n` pairs of varints: the object's token count (BM25's document length) and the term's frequency `f`;
/// - for each object in turn, its `f` positions, each a varint gap from the previous one (the first from 0).
///
/// Compact layout:
/// - a varint `n`;
/// - the first object key (a varint of its 64 bits) and its count `c` (a varint); then per further object one
///   varint `gap << 1 | m`, the gap from the previous key (1 or more, below 2^62: a larger one starts a new block)
///   with `m` = 1 when a varint `c` follows, `m` = 0 for `c` = 1;
/// - for each object in turn, its `c` positions as gaps (none in the length blocks).
/// In a term's blocks `c` is the term's frequency; in the empty term's blocks (the document lengths) it is the
/// object's token count, and no position follows. Term postings carry no token count.
///
/// The empty term's blocks (`01 00 00`) are the document lengths (in the wide layout: frequency 0 and no
/// positions). Blocks of a term sort by bound, so the first block whose bound is at least an object key is the one
/// that holds that key (or would take it): one descent of the tree finds it, and a term's blocks are its postings
/// in key order. A reader that only intersects keys decodes the head; positions are decoded for phrases only.
/// docs/FILE-FORMAT.md describes the same bytes.
struct PostingBlock: Equatable {
    /// One object's occurrences of the block's term.
    struct Posting: Equatable {
        /// The object's key.
        var key: Int64
        /// The object's token count (0 when decoded from a compact term block, which does not keep it).
        var length: Int
        /// The term's positions in the object's text, ascending (empty in the length blocks).
        var positions: [Int]
    }

    /// The most postings a block holds.
    static let maxPostings = 128
    /// The payload bytes past which a block is closed before it reaches ``maxPostings`` (long texts with many
    /// positions): entries stay well within an index leaf, which also keeps branch keys short.
    static let maxPayloadBytes = 700
    /// The bound of a term's open last block in the wide layout, past every object key.
    static let openBound: [UInt8] = PostingLayout.wide.openBound

    var postings: [Posting]

    /// The encoded payload in `layout`; `lengths` for a block of the empty term (the document lengths).
    func payload(layout: PostingLayout = .wide, lengths: Bool = false) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(postings.count * 6 + 4)
        FullTextEntry.appendVarint(postings.count, to: &bytes)
        switch layout {
        case .wide:
            var previous: Int64 = 0
            for (offset, posting) in postings.enumerated() {
                Self.appendKey(offset == 0 ? posting.key : posting.key - previous, to: &bytes)
                previous = posting.key
            }
            for posting in postings {
                FullTextEntry.appendVarint(posting.length, to: &bytes)
                FullTextEntry.appendVarint(posting.positions.count, to: &bytes)
            }
        case .compact:
            for (offset, posting) in postings.enumerated() {
                Self.appendCompact(
                    key: posting.key, previous: offset == 0 ? nil : postings[offset - 1].key,
                    count: lengths ? posting.length : posting.positions.count, to: &bytes)
            }
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

    /// The index entry of this block of the term encoded as `term`, with `bound` (``PostingLayout/bound(_:)``)
    /// and, with `scoreBounds` for a term's block, its score bound (``scoreBound``) after it.
    func entry(term: [UInt8], bound: [UInt8], layout: PostingLayout = .wide, scoreBounds: Bool = false) -> [UInt8] {
        let isLengths = term == FullTextEntry.lengthPrefix
        let score = scoreBounds && !isLengths ? PostingEntry.scoreBoundBytes(scoreBound) : []
        return term + bound + score + payload(layout: layout, lengths: isLengths)
    }

    /// The block's score bound: its postings' highest frequency and lowest token count (``Posting/length``: a
    /// block decoded from a compact index that keeps score bounds gives each posting its block's stored lowest
    /// count, which stays a true floor).
    var scoreBound: PostingEntry.ScoreBound {
        var bound = PostingEntry.ScoreBound.empty
        for posting in postings { bound.include(frequency: posting.positions.count, length: posting.length) }
        if postings.isEmpty { bound.length = 0 }
        return bound
    }

    /// Appends one posting's head in the compact layout: the first of a block (`previous` nil) as its key and its
    /// count, the others as the packed gap from `previous` (below 2^62, as blocks are cut) and, unless `count` is
    /// 1, the count.
    static func appendCompact(key: Int64, previous: Int64?, count: Int, to bytes: inout [UInt8]) {
        guard let previous else {
            appendKey(key, to: &bytes)
            FullTextEntry.appendVarint(count, to: &bytes)
            return
        }
        let gap = UInt64(bitPattern: key &- previous) << 1
        if count == 1 {
            appendKey(Int64(bitPattern: gap), to: &bytes)
        } else {
            appendKey(Int64(bitPattern: gap | 1), to: &bytes)
            FullTextEntry.appendVarint(count, to: &bytes)
        }
    }

    /// Reads the head of posting `index` of a compact payload: moves `key` on to its key and returns its count
    /// (`nil` for damaged bytes: a gap of 0, a varint past the end).
    @inline(__always)
    static func readCompact(_ reader: inout VarintReader, index: Int, key: inout Int64) -> UInt64? {
        if index == 0 {
            guard let first = reader.next(), let count = reader.next() else { return nil }
            key = Int64(bitPattern: first)
            return count
        }
        guard let packed = reader.next(), packed >= 2 else { return nil }
        key &+= Int64(bitPattern: packed >> 1)
        return packed & 1 == 0 ? 1 : reader.next()
    }

    /// The keys and counts of the head of `payload` in `layout`, into `keys`, `counts` (the frequency, or in a
    /// compact length block the token count) and `lengths` (the wide layout's token counts; 0 in the compact
    /// layout's term blocks), with the reader left at the positions; `nil` for damaged bytes (keys that do not
    /// ascend, counts that overrun).
    private static func readHead(
        _ payload: UnsafeRawBufferPointer, layout: PostingLayout, lengths isLengths: Bool
    ) -> (keys: [Int64], counts: [Int], lengths: [Int], reader: VarintReader)? {
        var reader = VarintReader(payload)
        guard let n = reader.next(), n > 0, n <= UInt64(payload.count) else { return nil }
        let count = Int(n)
        var keys: [Int64] = [], counts: [Int] = [], lengths: [Int] = []
        keys.reserveCapacity(count)
        counts.reserveCapacity(count)
        lengths.reserveCapacity(count)
        var key: Int64 = 0
        switch layout {
        case .wide:
            for index in 0..<count {
                guard let gap = reader.next(), index == 0 || gap > 0 else { return nil }
                let (sum, overflow) = key.addingReportingOverflow(Int64(bitPattern: gap))
                guard !overflow || index == 0 else { return nil }
                key = index == 0 ? Int64(bitPattern: gap) : sum
                keys.append(key)
            }
            for _ in 0..<count {
                guard let length = reader.next(), let frequency = reader.next(), frequency <= UInt64(payload.count),
                    length <= UInt64(Int32.max)
                else { return nil }
                lengths.append(Int(length))
                counts.append(Int(frequency))
            }
        case .compact:
            for index in 0..<count {
                let previous = key
                guard let value = readCompact(&reader, index: index, key: &key), value <= UInt64(Int32.max),
                    index == 0 || key > previous
                else { return nil }
                // A length block's counts are token counts, not followed by positions.
                guard isLengths || value <= UInt64(payload.count) else { return nil }
                keys.append(key)
                counts.append(isLengths ? 0 : Int(value))
                lengths.append(isLengths ? Int(value) : 0)
            }
        }
        return (keys, counts, lengths, reader)
    }

    /// The postings of `payload` in `layout` (`lengths` for the empty term's blocks), or `nil` for damaged bytes
    /// (keys that do not ascend, counts that overrun, bytes left over).
    static func decode(
        _ payload: UnsafeRawBufferPointer, layout: PostingLayout = .wide, lengths isLengths: Bool = false
    ) -> PostingBlock? {
        guard let (keys, counts, lengths, start) = readHead(payload, layout: layout, lengths: isLengths) else {
            return nil
        }
        var reader = start
        var postings: [Posting] = []
        postings.reserveCapacity(keys.count)
        for index in keys.indices {
            var positions: [Int] = []
            positions.reserveCapacity(counts[index])
            var position = 0
            for _ in 0..<counts[index] {
                guard let gap = reader.next(), gap <= UInt64(Int32.max) else { return nil }
                position += Int(gap)
                positions.append(position)
            }
            postings.append(Posting(key: keys[index], length: lengths[index], positions: positions))
        }
        guard reader.isAtEnd else { return nil }
        return PostingBlock(postings: postings)
    }

    /// Calls `body` with each posting of `payload` (a term's block in `layout`) whose key `wanted` accepts (asked
    /// in key order), decoding the positions of those only; `false` for damaged bytes.
    static func forEachPosting(
        of payload: UnsafeRawBufferPointer, layout: PostingLayout = .wide, where wanted: (Int64) -> Bool,
        _ body: (Posting) -> Void
    ) -> Bool {
        guard let (keys, counts, lengths, start) = readHead(payload, layout: layout, lengths: false) else {
            return false
        }
        var reader = start
        for index in keys.indices {
            guard wanted(keys[index]) else {
                guard reader.skip(counts[index]) else { return false }
                continue
            }
            var positions: [Int] = []
            positions.reserveCapacity(counts[index])
            var position = 0
            for _ in 0..<counts[index] {
                guard let gap = reader.next() else { return false }
                position += Int(truncatingIfNeeded: gap)
                positions.append(position)
            }
            body(Posting(key: keys[index], length: lengths[index], positions: positions))
        }
        return reader.isAtEnd
    }

    /// For each posting of `payload` (a term's block in `layout`) whose key is the next of `among` (ascending, from
    /// `next`, which moves past the keys the block passes; every posting when `among` is `nil`): its key appended
    /// to `keys`, its positions to `positions`, their end to `ends` and, in the wide layout, the object's token
    /// count to `lengths` (the compact layout keeps none per posting: nothing is appended), without an array per
    /// posting; `false` for damaged bytes.
    ///
    /// The keys are decoded first and matched with `among`; a block that holds none of them is left there, and
    /// the positions are read up to the last wanted posting only, those of the others stepped over, not decoded.
    static func appendPositions(
        of payload: UnsafeRawBufferPointer, layout: PostingLayout = .wide, among: [ObjectKey]?, next: inout Int,
        keys: inout [ObjectKey], positions: inout [Int32], ends: inout [Int32], lengths: inout [Int32]
    ) -> Bool {
        var reader = VarintReader(payload)
        guard let count = reader.next(), count > 0, count <= UInt64(payload.count) else { return false }
        let n = Int(count)
        // Per posting, in space on the stack: its key, then its frequency, negative (-1 - frequency) for a posting
        // not asked for.
        return withUnsafeTemporaryAllocation(of: Int64.self, capacity: 2 * n) { space in
            let blockKeys = space.baseAddress!, frequencies = blockKeys + n
            switch layout {
            case .wide:
                var key: Int64 = 0
                for index in 0..<n {
                    guard let gap = reader.next(), index == 0 || gap > 0 else { return false }
                    key &+= Int64(bitPattern: gap)
                    blockKeys[index] = key
                }
            case .compact:
                // Keys and frequencies come together: both are read whole (four at a time where they allow).
                guard
                    readCompactHeads(
                        &reader, count: n, keys: blockKeys, frequencies: frequencies, limit: UInt64(payload.count))
                else { return false }
            }
            // The postings asked for are marked (the others' frequencies made negative); `last` is the last one
            // asked for.
            var last = n - 1
            if let among {
                last = -1
                let cursor = among.withUnsafeBufferPointer { among in
                    var cursor = next
                    for index in 0..<n {
                        let key = blockKeys[index]
                        while cursor < among.count, among[cursor].rawValue < key { cursor += 1 }
                        let isWanted = cursor < among.count && among[cursor].rawValue == key
                        if isWanted {
                            last = index
                            cursor += 1
                        }
                        // Wide: 1 marks a wanted posting until its frequency is read; compact: the frequency, or
                        // -1 - frequency for a posting not asked for.
                        if layout == .wide {
                            frequencies[index] = isWanted ? 1 : 0
                        } else if !isWanted {
                            frequencies[index] = -1 - frequencies[index]
                        }
                    }
                    return cursor
                }
                next = cursor
                // No wanted posting here: the rest of the block is not read.
                if last < 0 { return true }
            }
            if layout == .wide {
                // The wanted postings' lengths go in `lengths` straight away (a damaged block fails the whole read).
                for index in 0...last {
                    guard let length = reader.next(), let frequency = reader.next(),
                        frequency <= UInt64(payload.count)
                    else { return false }
                    let isWanted = among == nil || frequencies[index] == 1
                    frequencies[index] = isWanted ? Int64(frequency) : -1 - Int64(frequency)
                    if isWanted { lengths.append(Int32(truncatingIfNeeded: length)) }
                }
                // The positions' section starts past every posting's pair of counts.
                guard reader.skip(2 * (n - 1 - last)) else { return false }
            }
            // The positions of objects not asked for are stepped over, not decoded: a run of them at once, before
            // the next wanted posting (the last one read is wanted).
            var stepped = 0
            for index in 0...last {
                let frequency = frequencies[index]
                guard frequency >= 0 else {
                    stepped += Int(-1 - frequency)
                    continue
                }
                if stepped > 0 {
                    guard reader.skip(stepped) else { return false }
                    stepped = 0
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

    /// Reads the heads of a compact payload's `count` postings (`reader` just past `n`): each key into `keys`, its
    /// count into `frequencies` (at most `limit`); `false` for damaged bytes (a gap of 0, a varint past the end).
    ///
    /// Four postings at a time where their heads are four one-byte packed gaps of frequency 1 (bits 0 and 7 of
    /// each byte clear; most postings of a common word): the gaps are the bytes shifted right by one, and one
    /// multiplication by `01010101` sums them into each byte in turn (at most 4 × 63, so no byte carries), which
    /// gives the four keys without a branch per posting.
    @inline(__always)
    static func readCompactHeads(
        _ reader: inout VarintReader, count n: Int, keys: UnsafeMutablePointer<Int64>,
        frequencies: UnsafeMutablePointer<Int64>, limit: UInt64
    ) -> Bool {
        guard n > 0, let first = reader.next(), let firstCount = reader.next(), firstCount <= limit else {
            return false
        }
        var key = Int64(bitPattern: first)
        keys[0] = key
        frequencies[0] = Int64(firstCount)
        var index = 1
        while index < n {
            if index + 4 <= n, let word = reader.peek4(), word & 0x8181_8181 == 0 {
                let gaps = word >> 1
                // A zero gap (a packed byte 0) is damaged: left to the byte-by-byte path, which says so.
                if (gaps &- 0x0101_0101) & ~gaps & 0x8080_8080 == 0 {
                    let sums = gaps &* 0x0101_0101
                    keys[index] = key &+ Int64(sums & 0xFF)
                    keys[index + 1] = key &+ Int64(sums >> 8 & 0xFF)
                    keys[index + 2] = key &+ Int64(sums >> 16 & 0xFF)
                    key &+= Int64(sums >> 24)
                    keys[index + 3] = key
                    frequencies[index] = 1
                    frequencies[index + 1] = 1
                    frequencies[index + 2] = 1
                    frequencies[index + 3] = 1
                    reader.advance(4)
                    index += 4
                    continue
                }
            }
            guard let packed = reader.next(), packed >= 2 else { return false }
            key &+= Int64(bitPattern: packed >> 1)
            keys[index] = key
            if packed & 1 == 0 {
                frequencies[index] = 1
            } else {
                guard let frequency = reader.next(), frequency <= limit else { return false }
                frequencies[index] = Int64(frequency)
            }
            index += 1
        }
        return true
    }

    /// Calls `body` with the key and token count of each posting of a length block's `payload` (the empty term's)
    /// in `layout`, in key order, until it returns `false`; returns the block's number of objects, or `nil` for
    /// damaged bytes (keys that do not ascend, a varint past the end). Nothing is appended anywhere: a reader
    /// after a few objects' lengths stops at the last of them (the rest of the block is not read).
    @inline(__always)
    static func forEachLength(
        of payload: UnsafeRawBufferPointer, layout: PostingLayout, _ body: (_ key: Int64, _ length: UInt64) -> Bool
    ) -> Int? {
        var reader = VarintReader(payload)
        guard let n = reader.next(), n > 0, n <= UInt64(payload.count) else { return nil }
        let count = Int(n)
        var key: Int64 = 0
        switch layout {
        case .compact:
            for index in 0..<count {
                let previous = key
                guard let length = readCompact(&reader, index: index, key: &key), index == 0 || key > previous else {
                    return nil
                }
                if !body(key, length) { return count }
            }
        case .wide:
            // The keys' section, and beside it the pairs of counts (the token count, then a frequency of 0).
            var pairs = reader
            guard pairs.skip(count) else { return nil }
            for index in 0..<count {
                guard let gap = reader.next(), index == 0 || gap > 0, let length = pairs.next(), pairs.next() != nil
                else { return nil }
                key &+= Int64(bitPattern: gap)
                if !body(key, length) { return count }
            }
        }
        return count
    }

    /// Appends to `lengths` the token counts of the objects `keys[next...]` that a length block (`payload` in
    /// `layout`, bound `bound`) may hold (those at most its bound), moving `next` past them; `false` when one of
    /// them is not in the block (the index is damaged) or for damaged bytes.
    ///
    /// A compact block is first read by position (``appendConsecutiveLengths(_:bound:keys:next:to:)``), which
    /// holds for the blocks of objects inserted one after the other; from the first wanted object where that does
    /// not hold, the block is read in order up to its last wanted object.
    static func appendLengths(
        of payload: UnsafeRawBufferPointer, layout: PostingLayout, bound: Int64, keys: [ObjectKey],
        next: inout Int, to lengths: inout [Int32]
    ) -> Bool {
        if layout == .compact, appendConsecutiveLengths(payload, bound: bound, keys: keys, next: &next, to: &lengths) {
            return true
        }
        guard next < keys.count, keys[next].rawValue <= bound else { return true }
        var missing = false
        let count = forEachLength(of: payload, layout: layout) { key, length in
            guard keys[next].rawValue <= key else { return true }
            guard keys[next].rawValue == key else {
                missing = true
                return false
            }
            lengths.append(Int32(truncatingIfNeeded: length))
            next += 1
            return next < keys.count && keys[next].rawValue <= bound
        }
        // A wanted object at most the bound that the block did not hold is missing too.
        return count != nil && !missing && (next == keys.count || keys[next].rawValue > bound)
    }

    /// Reads the token counts of the wanted objects `keys[next...]` (up to `bound`) of a compact length block by
    /// position, while its bytes show it may: past the first key, one byte for the first object's count, then per
    /// further object the byte `03` (a key gap of 1 with a count following) and one byte for its count. Object
    /// `first + i`'s count is then the byte `2i` past the first count; the bytes up to it are checked as the
    /// reads go (eight at a time), so a block is trusted only as far as it has been checked. Returns `true` when
    /// every wanted object up to the bound was read this way, `false` (with `next` at the first one not read) for
    /// the caller to read the rest of the block in order: a count of 128 or more, an object of one token (a
    /// count packed into its gap), a gap, or damaged bytes.
    private static func appendConsecutiveLengths(
        _ payload: UnsafeRawBufferPointer, bound: Int64, keys: [ObjectKey], next: inout Int, to lengths: inout [Int32]
    ) -> Bool {
        var reader = VarintReader(payload)
        guard let n = reader.next(), let firstBits = reader.next(), let raw = payload.baseAddress else { return false }
        let first = Int64(bitPattern: firstBits)
        let start = reader.offset
        guard start < payload.count, payload[start] < 0x80 else { return false }
        // Bytes `start..<checked` hold the first count and then whole pairs `03 c` (`c` below 0x80).
        var checked = start + 1
        while next < keys.count, keys[next].rawValue <= bound {
            let (index, overflow) = keys[next].rawValue.subtractingReportingOverflow(first)
            guard !overflow, index >= 0, UInt64(index) < n, index < Int64(payload.count) else { return false }
            let offset = start + 2 * Int(index)
            guard offset < payload.count else { return false }
            while checked + 8 <= offset + 1 {
                let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: checked, as: UInt64.self))
                guard word & 0x80FF_80FF_80FF_80FF == 0x0003_0003_0003_0003 else { return false }
                checked += 8
            }
            while checked <= offset {
                guard payload[checked] == 0x03, payload[checked + 1] < 0x80 else { return false }
                checked += 2
            }
            lengths.append(Int32(payload[offset]))
            next += 1
        }
        return true
    }

    /// The object keys and counts of `payload` in `layout` (its head; the positions are not read), appended to
    /// `keys` and `frequencies` (a term's frequency, or in a compact length block the token count), and in the
    /// wide layout the token counts to `lengths` (the compact layout keeps none per posting: nothing is
    /// appended); `false` for damaged bytes.
    static func appendCounts(
        of payload: UnsafeRawBufferPointer, layout: PostingLayout = .wide, keys: inout [ObjectKey],
        lengths: inout [Int32], frequencies: inout [Int32]
    ) -> Bool {
        var reader = VarintReader(payload)
        guard let count = reader.next(), count > 0, count <= UInt64(payload.count) else { return false }
        var key: Int64 = 0
        switch layout {
        case .wide:
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
        case .compact:
            for index in 0..<Int(count) {
                guard let value = readCompact(&reader, index: index, key: &key) else { return false }
                keys.append(ObjectKey(key))
                frequencies.append(Int32(truncatingIfNeeded: value))
            }
        }
        return true
    }

    /// The object keys of `payload` in `layout` only, appended to `keys`; `false` for damaged bytes.
    static func appendKeys(
        of payload: UnsafeRawBufferPointer, layout: PostingLayout = .wide, to keys: inout [Int64]
    ) -> Bool {
        var reader = VarintReader(payload)
        guard let count = reader.next(), count > 0, count <= UInt64(payload.count) else { return false }
        var key: Int64 = 0
        switch layout {
        case .wide:
            for index in 0..<Int(count) {
                guard let gap = reader.next(), index == 0 || gap > 0 else { return false }
                key &+= Int64(bitPattern: gap)
                keys.append(key)
            }
        case .compact:
            // Decoded on the stack (four heads at a time where they allow), then appended at once.
            // The counts are not checked here (a length block's are token counts, which no position follows).
            let n = Int(count)
            let limit = UInt64.max
            return withUnsafeTemporaryAllocation(of: Int64.self, capacity: 2 * n) { space in
                let blockKeys = space.baseAddress!
                guard readCompactHeads(&reader, count: n, keys: blockKeys, frequencies: blockKeys + n, limit: limit)
                else { return false }
                keys.append(contentsOf: UnsafeBufferPointer(start: blockKeys, count: n))
                return true
            }
        }
        return true
    }

    /// The first object key of `payload` (either layout starts with `n` and the first key), or `nil` for damaged
    /// bytes.
    static func firstKey(of payload: UnsafeRawBufferPointer) -> Int64? {
        var reader = VarintReader(payload)
        guard let count = reader.next(), count > 0, let key = reader.next() else { return nil }
        return Int64(bitPattern: key)
    }

    /// The number of objects in `payload` (either layout), or `nil` for damaged bytes.
    static func count(of payload: UnsafeRawBufferPointer) -> Int? {
        var offset = 0
        return FullTextEntry.readVarint(payload, &offset)
    }

    /// `postings` (ascending keys) cut into blocks as `layout` cuts them (``PostingLayout/closesBlock``: at most
    /// ``maxPostings`` postings and about ``maxPayloadBytes`` bytes).
    static func chunks(_ postings: ArraySlice<Posting>, layout: PostingLayout = .wide) -> [PostingBlock] {
        var blocks: [PostingBlock] = []
        var current: [Posting] = []
        var bytes = 0
        for posting in postings {
            let size = layout.estimatedBytes(positions: posting.positions.count)
            if layout.closesBlock(
                count: current.count, bytes: bytes, size: size, last: current.last?.key ?? 0, key: posting.key)
            {
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

    /// Appends an object key or key gap (0 or more) as a varint.
    static func appendKey(_ value: Int64, to bytes: inout [UInt8]) {
        var rest = UInt64(bitPattern: value)
        while rest >= 0x80 {
            bytes.append(UInt8(rest & 0x7F) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }
}
