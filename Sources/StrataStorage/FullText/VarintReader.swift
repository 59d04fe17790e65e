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

    /// The number of bytes read from.
    var count: Int { end }

    /// The next 4 bytes as one little-endian integer (nothing is read), or `nil` when fewer are left.
    @inline(__always)
    func peek4() -> UInt32? {
        guard let base, offset + 4 <= end else { return nil }
        return UInt32(littleEndian: UnsafeRawPointer(base).loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }

    /// Moves past `bytes` bytes that ``peek4()`` gave.
    @inline(__always)
    mutating func advance(_ bytes: Int) { offset += bytes }

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
    ///
    /// Eight bytes at a time while the varints left span them: a varint ends at each byte below 0x80, so one load
    /// and a population count step over eight one-byte positions, where a byte-by-byte walk tests each of them.
    /// The word where the last varint ends inside, byte by byte.
    @inline(__always)
    mutating func skip(_ count: Int) -> Bool {
        guard let base else { return count == 0 }
        var left = count
        let raw = UnsafeRawPointer(base)
        while left > 0, offset + 8 <= end {
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            let ends = (~word & 0x8080_8080_8080_8080).nonzeroBitCount
            // Taken whole when the varints it ends are all wanted and its last byte, if it ends the last one, is
            // that varint's end (a byte past it would start the next varint).
            guard ends < left || (ends == left && word >> 63 == 0) else { break }
            left -= ends
            offset += 8
        }
        while left > 0 {
            guard offset < end else { return false }
            if base[offset] < 0x80 { left -= 1 }
            offset += 1
        }
        return true
    }
}
