/// Reads the little-endian base-128 varints of a posting block (``PostingBlock``) one after the other, from a raw
/// pointer and an end: a one-byte varint (most gaps, counts and positions) costs one load and one test.
struct VarintReader {
    private let base: UnsafePointer<UInt8>?
    private let end: Int
    /// The offset of the next varint.
    private(set) var offset = 0

    /// A reader at the start of `bytes`.
    init(_ bytes: UnsafeRawBufferPointer) {
        base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
        end = bytes.count
    }

    /// Whether every byte has been read.
    var isAtEnd: Bool { offset == end }

    /// The next varint (its low 64 bits), or `nil` past the end or for one of more than 10 bytes.
    @inline(__always)
    mutating func next() -> UInt64? {
        guard offset < end, let base else { return nil }
        let first = base[offset]
        offset += 1
        if first < 0x80 { return UInt64(first) }
        var value = UInt64(first & 0x7F)
        var shift: UInt64 = 7
        while offset < end, shift < 70 {
            let byte = base[offset]
            offset += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
        return nil
    }

    /// Moves past `count` varints; `false` when they overrun the end.
    @inline(__always)
    mutating func skip(_ count: Int) -> Bool {
        guard let base else { return count == 0 }
        var left = count
        while left > 0 {
            guard offset < end else { return false }
            if base[offset] < 0x80 { left -= 1 }
            offset += 1
        }
        return true
    }
}
