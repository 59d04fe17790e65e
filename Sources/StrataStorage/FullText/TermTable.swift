/// The distinct terms of a write transaction's full-text changes (``PostingChanges``), numbered on first sight
/// and found again by their folded UTF-8 bytes: an open-addressing hash table over one byte arena, so numbering a
/// token hashes its bytes once and makes no `String`.
///
/// Each slot holds, in 16 bytes, the term's number, length and part of its hash, and its first 8 bytes: a term of
/// at most 8 bytes (most words) is found, or told apart from the others, by reading its slot alone, without
/// touching the arena or any other array (a bulk insert's lookups are bound by memory, not by arithmetic).
struct TermTable {
    /// One slot of the hash table.
    private struct Slot {
        /// The term's number plus one (0 for an empty slot) in the low 32 bits, its length (up to 255, else 255)
        /// in the next 8, the hash's high 24 bits in the top 24.
        var tag: UInt64 = 0
        /// The term's first 8 bytes, little-endian, zero-padded.
        var head: UInt64 = 0
    }

    /// Every term's bytes, one after the other.
    private var arena: [UInt8] = []
    /// Per term: where its bytes end in ``arena`` (term `t`'s are `ends[t - 1]..<ends[t]`, from 0 for the first).
    private var ends: [Int32] = []
    /// The hash table; its count is a power of two, at least twice the number of terms.
    private var slots = [Slot](repeating: Slot(), count: 1024)

    /// The number of terms.
    var count: Int { ends.count }

    /// The bytes of term `number`.
    func bytes(of number: Int) -> ArraySlice<UInt8> {
        arena[(number == 0 ? 0 : Int(ends[number - 1]))..<Int(ends[number])]
    }

    /// The term `number` as a string.
    func term(_ number: Int) -> String { String(decoding: bytes(of: number), as: UTF8.self) }

    /// The number of the term whose UTF-8 bytes are `term`, numbered on first sight.
    mutating func number(of term: UnsafeBufferPointer<UInt8>) -> Int32 {
        let (hash, head) = Self.hash(term)
        return number(of: term, hash: hash, head: head)
    }

    /// Appends to `numbers` the number of each term of `bytes`, the terms one after the other with their ends in
    /// `ends` (term `k`'s bytes are `ends[k - 1]..<ends[k]`, from 0 for the first), each numbered on first sight.
    mutating func appendNumbers(
        of bytes: UnsafeBufferPointer<UInt8>, ends: UnsafeBufferPointer<Int32>, to numbers: inout [Int32]
    ) {
        var start = 0
        for end in ends {
            numbers.append(number(of: UnsafeBufferPointer(rebasing: bytes[start..<Int(end)])))
            start = Int(end)
        }
    }

    /// The number of `term`, whose ``hash(_:)`` is `hash` and `head`, numbered on first sight.
    @inline(__always)
    private mutating func number(of term: UnsafeBufferPointer<UInt8>, hash: UInt64, head: UInt64) -> Int32 {
        let key = Self.key(hash, term.count)
        let mask = slots.count - 1
        var index = Int(truncatingIfNeeded: hash) & mask
        let found: Int32? = slots.withUnsafeBufferPointer { slots in
            while true {
                let slot = slots[index]
                if slot.tag == 0 { return nil }
                if slot.tag & 0xFFFF_FFFF_0000_0000 == key, slot.head == head,
                    term.count <= 8 || matches(Int(slot.tag & 0xFFFF_FFFF) - 1, term)
                {
                    return Int32(truncatingIfNeeded: slot.tag & 0xFFFF_FFFF) - 1
                }
                index = (index + 1) & mask
            }
        }
        if let found { return found }
        let number = Int32(truncatingIfNeeded: ends.count)
        arena.append(contentsOf: term)
        ends.append(Int32(truncatingIfNeeded: arena.count))
        slots[index] = Slot(tag: key | UInt64(UInt32(number + 1)), head: head)
        if ends.count * 2 > slots.count { grow() }
        return number
    }

    /// The term numbers in the byte order of their encodings (`FullTextEntry.termPrefix`), which is the byte
    /// order of the terms' own bytes: the encoding adds a `01` before them, escapes `00` as `00 FF` and ends them
    /// with `00 00`, which keeps that order. Sorted by each term's first 8 bytes as one big-endian integer (the
    /// slot's head, zero-padded), the terms' bytes compared in the arena only where two heads are equal (a
    /// shorter term padded with zeros, or both longer than 8 bytes): no closure reads the arena for most pairs.
    func numbersInByteOrder() -> [Int] {
        var heads: [(head: UInt64, number: Int32)] = []
        heads.reserveCapacity(ends.count)
        arena.withUnsafeBufferPointer { arena in
            var start = 0
            for (number, end) in ends.enumerated() {
                var head: UInt64 = 0
                for index in 0..<8 {
                    head <<= 8
                    if start + index < Int(end) { head |= UInt64(arena[start + index]) }
                }
                heads.append((head, Int32(truncatingIfNeeded: number)))
                start = Int(end)
            }
        }
        return arena.withUnsafeBytes { arena in
            ends.withUnsafeBufferPointer { ends in
                func bytes(_ number: Int32) -> UnsafeRawBufferPointer {
                    let start = number == 0 ? 0 : Int(ends[Int(number) - 1])
                    return UnsafeRawBufferPointer(rebasing: arena[start..<Int(ends[Int(number)])])
                }
                heads.sort {
                    $0.head != $1.head ? $0.head < $1.head : ByteOrder.compare(bytes($0.number), bytes($1.number)) < 0
                }
                return heads.map { Int($0.number) }
            }
        }
    }

    /// The encoding of term `number` as index entries start with it (`FullTextEntry.termPrefix`), made from its
    /// bytes without a `String`.
    func encoded(_ number: Int) -> [UInt8] {
        let term = bytes(of: number)
        var encoded: [UInt8] = []
        encoded.reserveCapacity(term.count + 3)
        encoded.append(1)
        for byte in term {
            encoded.append(byte)
            if byte == 0 { encoded.append(0xFF) }
        }
        encoded.append(0)
        encoded.append(0)
        return encoded
    }

    /// The number of `term`, numbered on first sight.
    mutating func number(of term: String) -> Int32 {
        var term = term
        return term.withUTF8 { number(of: $0) }
    }

    /// Whether term `number`'s bytes are `term`.
    private func matches(_ number: Int, _ term: UnsafeBufferPointer<UInt8>) -> Bool {
        let start = number == 0 ? 0 : Int(ends[number - 1])
        guard Int(ends[number]) - start == term.count else { return false }
        return arena.withUnsafeBufferPointer { arena in
            for offset in 0..<term.count where arena[start + offset] != term[offset] { return false }
            return true
        }
    }

    /// Doubles the hash table and places every term again.
    private mutating func grow() {
        var larger = [Slot](repeating: Slot(), count: slots.count * 2)
        let mask = larger.count - 1
        arena.withUnsafeBufferPointer { arena in
            var start = 0
            for (number, end) in ends.enumerated() {
                let term = UnsafeBufferPointer(rebasing: arena[start..<Int(end)])
                start = Int(end)
                let (hash, head) = Self.hash(term)
                var index = Int(truncatingIfNeeded: hash) & mask
                while larger[index].tag != 0 { index = (index + 1) & mask }
                larger[index] = Slot(tag: Self.key(hash, term.count) | UInt64(UInt32(number + 1)), head: head)
            }
        }
        slots = larger
    }

    /// The high 32 bits of a slot's tag: the hash's high 24 bits and the length (255 for 255 bytes or more).
    private static func key(_ hash: UInt64, _ length: Int) -> UInt64 {
        (hash & 0xFFFF_FF00_0000_0000) | (UInt64(Swift.min(length, 255)) << 32)
    }

    /// A hash of `bytes` read 8 at a time (a word is one or two loads), each word mixed in by a multiply and a
    /// shift, so the low bits that pick a slot depend on every byte; and the first 8 bytes, zero-padded.
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> (hash: UInt64, head: UInt64) {
        var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count)
        guard let base = bytes.baseAddress else { return (hash, 0) }
        let raw = UnsafeRawPointer(base)
        var head: UInt64 = 0
        var offset = 0
        while offset + 8 <= bytes.count {
            let word = raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            if offset == 0 { head = word }
            hash = (hash ^ word) &* 0xBF58_476D_1CE4_E5B9
            hash ^= hash >> 31
            offset += 8
        }
        if offset < bytes.count {
            var word: UInt64 = 0
            for index in offset..<bytes.count { word |= UInt64(base[index]) << UInt64(8 * (index - offset)) }
            if offset == 0 { head = word }
            hash = (hash ^ word) &* 0x94D0_49BB_1331_11EB
        }
        return (hash ^ (hash >> 32), head)
    }
}
