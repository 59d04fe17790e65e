/// How a posting-block full-text index lays out each block's entry (``PostingBlock``), chosen by the index's catalog
/// flags (`IndexSpec.isCompactPostings`).
///
/// - ``wide``: the layout of indexes made before the compact one. The bound is 8 bytes (`ByteOrder.key` of the
///   block's last object key, all `FF` for a term's open last block); the payload is `n`, the keys, then per
///   posting the object's token count and the term's frequency, then the positions.
/// - ``compact``: the layout of indexes made since. The bound is a length byte and the key's significant bytes
///   (``bound(_:)``), one `FF` byte for the open block; the payload is `n`, then per posting its key gap with the
///   frequency packed into it (a frequency of 1, the usual one, costs no byte), then the positions. No token count
///   per posting: the empty term's blocks (the document lengths) hold each object's once, and readers that rank
///   look them up there.
///
/// docs/FILE-FORMAT.md describes both.
enum PostingLayout: Sendable {
    case wide
    case compact

    /// The bound of a term's open last block, past every object key's bound.
    var openBound: [UInt8] {
        switch self {
        case .wide: return ByteOrder.key(Int64.max)
        case .compact: return [0xFF]
        }
    }

    /// The bound bytes of a block whose last object key is `key`, ordered as the keys are.
    ///
    /// Compact: a non-negative key is `08 + L` then its `L` significant bytes big-endian (`L` from 1 to 8); a
    /// negative key is `08 - L` then the low `L` bytes of its two's complement, `L` the significant bytes of its
    /// complement (`~key`). A longer non-negative key is a larger one, a longer negative one a smaller one, so
    /// bytes compare as the keys do, and the first byte tells the length.
    func bound(_ key: Int64) -> [UInt8] {
        switch self {
        case .wide:
            return ByteOrder.key(key)
        case .compact:
            let magnitude = key >= 0 ? UInt64(key) : UInt64(~key)
            let length = Swift.max(1, (64 - magnitude.leadingZeroBitCount + 7) / 8)
            var bytes: [UInt8] = [key >= 0 ? UInt8(0x08 + length) : UInt8(0x08 - length)]
            let value = UInt64(bitPattern: key)
            for shift in stride(from: 8 * (length - 1), through: 0, by: -8) {
                bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
            }
            return bytes
        }
    }

    /// The bound of `entry` starting at `offset` (just past the term): its key (`Int64.max` for the open block),
    /// whether it is the open block's, and the offset past it; `nil` for damaged bytes.
    func readBound(
        _ entry: UnsafeRawBufferPointer, at offset: Int
    ) -> (key: Int64, isOpen: Bool, end: Int)? {
        switch self {
        case .wide:
            guard entry.count >= offset + 8 else { return nil }
            let bytes = UnsafeRawBufferPointer(rebasing: entry[offset..<offset + 8])
            return (ByteOrder.int64(fromKey: bytes), bytes.allSatisfy { $0 == 0xFF }, offset + 8)
        case .compact:
            guard offset < entry.count else { return nil }
            let first = entry[offset]
            if first == 0xFF { return (Int64.max, true, offset + 1) }
            guard first <= 0x10, first != 0x08 else { return nil }
            let length = first > 0x08 ? Int(first) - 0x08 : 0x08 - Int(first)
            guard entry.count >= offset + 1 + length else { return nil }
            var value: UInt64 = 0
            for index in 0..<length { value = value << 8 | UInt64(entry[offset + 1 + index]) }
            if first < 0x08, length < 8 { value |= ~0 << UInt64(8 * length) }
            return (Int64(bitPattern: value), false, offset + 1 + length)
        }
    }

    /// The estimated payload bytes of a posting of `positions` positions, which cuts blocks at about
    /// ``PostingBlock/maxPayloadBytes``.
    func estimatedBytes(positions: Int) -> Int {
        switch self {
        case .wide: return 4 + positions * 2
        case .compact: return 2 + positions * 2
        }
    }

    /// Whether a block of `count` postings (`bytes` of them estimated, the last with key `last`) is closed before
    /// a posting of `size` estimated bytes and key `key`: at ``PostingBlock/maxPostings`` postings, past
    /// ``PostingBlock/maxPayloadBytes``, and in the compact layout before a key gap of 2^62 or more (which a
    /// packed gap cannot hold; the next block starts from the key itself).
    func closesBlock(count: Int, bytes: Int, size: Int, last: Int64, key: Int64) -> Bool {
        guard count > 0 else { return false }
        if count >= PostingBlock.maxPostings || bytes + size > PostingBlock.maxPayloadBytes { return true }
        guard self == .compact else { return false }
        let (gap, overflow) = key.subtractingReportingOverflow(last)
        return overflow || gap >= 1 << 62
    }
}
