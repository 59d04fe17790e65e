/// The distinct terms of a write transaction's full-text changes (``PostingChanges``), numbered on first sight
/// and found again by their folded UTF-8 bytes: an open-addressing hash table over one byte arena, so numbering a
/// token hashes its bytes once and makes no `String`.
struct TermTable {
    /// Every term's bytes, one after the other.
    private var arena: [UInt8] = []
    /// Per term: where its bytes end in ``arena`` (term `t`'s are `ends[t - 1]..<ends[t]`, from 0 for the first).
    private var ends: [Int32] = []
    /// Per term: its hash.
    private var hashes: [UInt64] = []
    /// The hash table: a term's number plus one, or 0 for an empty slot. Its count is a power of two, at least
    /// twice the number of terms.
    private var slots: [Int32] = Array(repeating: 0, count: 1024)

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
        let hash = Self.hash(term)
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let held = slots[slot]
            if held == 0 { break }
            let number = Int(held) - 1
            if hashes[number] == hash, matches(number, term) { return Int32(truncatingIfNeeded: number) }
            slot = (slot + 1) & mask
        }
        let number = Int32(truncatingIfNeeded: ends.count)
        arena.append(contentsOf: term)
        ends.append(Int32(truncatingIfNeeded: arena.count))
        hashes.append(hash)
        slots[slot] = number + 1
        if ends.count * 2 > slots.count { grow() }
        return number
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
        var larger = [Int32](repeating: 0, count: slots.count * 2)
        let mask = larger.count - 1
        for number in hashes.indices {
            var slot = Int(truncatingIfNeeded: hashes[number]) & mask
            while larger[slot] != 0 { slot = (slot + 1) & mask }
            larger[slot] = Int32(truncatingIfNeeded: number + 1)
        }
        slots = larger
    }

    /// A hash of `bytes` read 8 at a time (a word is one or two loads), each word mixed in by a multiply and a
    /// shift, so the low bits that pick a slot depend on every byte.
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count)
        guard let base = bytes.baseAddress else { return hash }
        let raw = UnsafeRawPointer(base)
        var offset = 0
        while offset + 8 <= bytes.count {
            hash = (hash ^ raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* 0xBF58_476D_1CE4_E5B9
            hash ^= hash >> 31
            offset += 8
        }
        if offset < bytes.count {
            var word: UInt64 = 0
            for index in offset..<bytes.count { word |= UInt64(base[index]) << UInt64(8 * (index - offset)) }
            hash = (hash ^ word) &* 0x94D0_49BB_1331_11EB
        }
        return hash ^ (hash >> 32)
    }
}
