/// A set of object keys of one table: a hash set while small, a bitmap over the table's keys `0..<limit` once it
/// holds enough keys that the bitmap is the smaller (a cascade's hundreds of thousands of objects), so that
/// inserting and testing a key costs a shift and a mask instead of hashing it. Keys outside the bitmap's range
/// stay in the hash set.
package struct ObjectKeySet {
    /// The bitmap covers keys `0..<limit` (a table's next object key, capped so the bitmap stays below 32 MiB).
    private let limit: Int64
    private var words: [UInt64] = []
    private var hashed: Set<ObjectKey> = []
    /// How many keys the set holds.
    package private(set) var count = 0

    /// An empty set for keys of a table whose next object key is `limit`.
    package init(limit: Int64) {
        self.limit = Swift.max(0, Swift.min(limit, 1 << 28))
    }

    /// Adds `key`; returns whether it was new.
    @discardableResult
    package mutating func insert(_ key: ObjectKey) -> Bool {
        let raw = key.rawValue
        if !words.isEmpty, raw >= 0, raw < limit {
            let bit = UInt64(1) << UInt64(raw & 63)
            let index = Int(raw >> 6)
            if words[index] & bit != 0 { return false }
            words[index] |= bit
            count += 1
            return true
        }
        guard hashed.insert(key).inserted else { return false }
        count += 1
        if words.isEmpty, limit > 0, count >= Swift.max(4_096, Int(limit / 64)) { makeBitmap() }
        return true
    }

    /// Whether the set holds `key`.
    package func contains(_ key: ObjectKey) -> Bool {
        let raw = key.rawValue
        if !words.isEmpty, raw >= 0, raw < limit { return words[Int(raw >> 6)] & (UInt64(1) << UInt64(raw & 63)) != 0 }
        return hashed.contains(key)
    }

    /// The keys in ascending order.
    package var ascending: [ObjectKey] {
        let extra = hashed.sorted()
        guard !words.isEmpty else { return extra }
        var keys: [ObjectKey] = []
        keys.reserveCapacity(count)
        keys += extra.prefix { $0.rawValue < 0 }
        for (index, word) in words.enumerated() where word != 0 {
            var bits = word
            while bits != 0 {
                keys.append(ObjectKey(Int64(index << 6 + bits.trailingZeroBitCount)))
                bits &= bits - 1
            }
        }
        keys += extra.drop { $0.rawValue < 0 }
        return keys
    }

    /// Moves the keys in range from the hash set to a new bitmap.
    private mutating func makeBitmap() {
        words = Array(repeating: 0, count: Int((limit + 63) / 64))
        var outside: Set<ObjectKey> = []
        for key in hashed {
            let raw = key.rawValue
            if raw >= 0, raw < limit {
                words[Int(raw >> 6)] |= UInt64(1) << UInt64(raw & 63)
            } else {
                outside.insert(key)
            }
        }
        hashed = outside
    }
}
