#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A read-only, validated view of a stored internal node of a `NodeTree`.
///
/// Layout: magic `STB1`, count u32, level u32 (1 = children are leaves), reserved u32, then `count` entries of
/// (key offset u32, key length u32, child ref u64, entries below u64), then the key bytes.
struct BranchView {
    static let magic: UInt32 = 0x3142_5453  // "STB1"
    static let headerSize = 16
    static let entrySize = 24

    let ref: NodeRef
    let count: Int
    let level: Int
    let raw: UnsafeRawBufferPointer

    init(_ raw: UnsafeRawBufferPointer, ref: NodeRef) throws {
        var reader = ByteReader(raw, ref: ref, what: "tree branch")
        guard try reader.u32() == BranchView.magic else { throw reader.damage("is not a tree branch (wrong magic)") }
        count = try reader.count(minimumItemSize: 0, label: "child count")
        level = Int(try reader.u32())
        guard count > 0, BranchView.headerSize + count * BranchView.entrySize <= raw.count else {
            throw reader.damage("\(count) children do not fit in \(raw.count) bytes")
        }
        guard level >= 1, level <= 32 else { throw reader.damage("tree level \(level) is not valid") }
        self.raw = raw
        self.ref = ref
    }

    private func field32(_ index: Int, _ offset: Int) -> Int {
        Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: BranchView.headerSize + index * BranchView.entrySize + offset, as: UInt32.self)))
    }

    private func field64(_ index: Int, _ offset: Int) -> UInt64 {
        UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: BranchView.headerSize + index * BranchView.entrySize + offset, as: UInt64.self))
    }

    func key(_ index: Int) throws -> UnsafeRawBufferPointer {
        let offset = field32(index, 0)
        let length = field32(index, 4)
        guard offset + length <= raw.count else {
            throw NodeDamage.error(ref, "tree branch", "key \(index) lies outside the node")
        }
        return UnsafeRawBufferPointer(rebasing: raw[offset..<offset + length])
    }

    func child(_ index: Int) throws -> NodeRef {
        let value = field64(index, 8)
        guard value != 0 else { throw NodeDamage.error(ref, "tree branch", "child \(index) is the null reference") }
        return NodeRef(rawValue: value)
    }

    /// The byte offset of entry `index`'s child reference in the payload (where a patch rewrites it).
    static func childOffset(_ index: Int) -> Int { headerSize + index * entrySize + 8 }

    func entriesBelow(_ index: Int) -> Int { Int(truncatingIfNeeded: field64(index, 16) & 0x7FFF_FFFF_FFFF) }

    /// The child whose key range holds `key`: the last child whose separator is ≤ `key`.
    ///
    /// With `interpolating` (a table's cluster tree, whose separators are object keys), an 8-byte key in a wide
    /// branch is looked for first where the separators' numbers put it: object keys are mostly consecutive, so the
    /// separators rise nearly evenly and the interpolated guess is the answer or next to it, checked with two or
    /// three separators instead of the seven or so (each a cache line of the entries and one of the key bytes) of a
    /// binary search. The guess only narrows the binary search's range, so any separators (of any length, spread
    /// any way) give its answer.
    /// Without it (an index, whose 8-byte search keys are value prefixes and whose separators are longer, or any
    /// caller that does not know), the binary search runs alone: reading the first and last separators to find
    /// they are not numbers cost an index search two more probes.
    func childIndex(for key: UnsafeRawBufferPointer, interpolating: Bool = false) throws -> Int {
        var lower = 1
        var upper = max(1, count)
        if interpolating, key.count == 8, count > 8, let guess = try interpolatedGuess(for: key) {
            // The answer is the last separator ≤ key: `guess` settles which side of it the search goes on, and
            // its neighbour on that side usually ends the search.
            if ByteOrder.compare(try self.key(guess), key) <= 0 {
                lower = guess + 1
                if lower < upper {
                    if ByteOrder.compare(try self.key(lower), key) > 0 { return guess }
                    lower += 1
                }
            } else {
                upper = guess
                if upper - 1 >= lower {
                    if ByteOrder.compare(try self.key(upper - 1), key) <= 0 { return upper - 1 }
                    upper -= 1
                }
            }
        }
        return try (lower..<upper).partitionIndex { ByteOrder.compare(try self.key($0), key) > 0 } - 1
    }

    /// Where separators 1 to `count - 1` put the 8-byte `key` if they rise evenly between the first and the last
    /// (read as big-endian numbers, which order as their bytes do): a separator index in `1..<count`, or `nil`
    /// when those two are not 8 bytes long or `key` lies outside them.
    private func interpolatedGuess(for key: UnsafeRawBufferPointer) throws -> Int? {
        let first = try self.key(1)
        let last = try self.key(count - 1)
        guard first.count == 8, last.count == 8 else { return nil }
        let wanted = UInt64(bigEndian: key.loadUnaligned(as: UInt64.self))
        let low = UInt64(bigEndian: first.loadUnaligned(as: UInt64.self))
        let high = UInt64(bigEndian: last.loadUnaligned(as: UInt64.self))
        guard low < high, wanted > low, wanted < high else { return nil }
        let fraction = Double(wanted - low) / Double(high - low)
        return min(count - 2, max(1, 1 + Int(fraction * Double(count - 2))))
    }

    /// Encodes a branch straight into its new node: every commit writes the branches above what it changed, and
    /// building them in a byte array first took most of the 9% of a one-value commit's CPU that branches cost.
    static func encode(level: Int, keys: [BranchKey], children: [NodeRef], counts: [Int], in writer: NodeWriter) throws -> NodeRef {
        var keyOffset = headerSize + children.count * entrySize
        let (ref, payload) = try writer.allocate(byteCount: keyOffset + keys.reduce(0) { $0 + $1.count })
        guard let base = payload.baseAddress else { return ref }
        base.setU32(magic, at: 0)
        base.setU32(UInt32(children.count), at: 4)
        base.setU32(UInt32(level), at: 8)
        base.setU32(0, at: 12)
        for index in children.indices {
            let entry = headerSize + index * entrySize
            let key = keys[index]
            base.setU32(UInt32(keyOffset), at: entry)
            base.setU32(UInt32(key.count), at: entry + 4)
            base.setU64(children[index].rawValue, at: entry + 8)
            base.setU64(UInt64(counts[index]), at: entry + 16)
            key.withUnsafeBytes { bytes in
                if let source = bytes.baseAddress { (base + keyOffset).copyMemory(from: source, byteCount: bytes.count) }
            }
            keyOffset += key.count
        }
        return ref
    }
}

/// Byte-string comparison in `memcmp` order (shorter first on a common prefix).
enum ByteOrder {
    /// How many leading bytes ``compare(_:_:)`` compares a word at a time before it hands the rest to `memcmp`:
    /// object keys (8 bytes) and the index entries of short strings and numbers (up to about 30 bytes) never
    /// reach `memcmp`.
    private static let wordBytes = 32

    /// The order of two byte strings: negative, zero or positive (only the sign means anything).
    ///
    /// Big-endian words compare like their bytes, so the first bytes go 8 at a time without a call: every
    /// branch and index-leaf search compares short keys, most of them settled in the first word or two, where a
    /// `memcmp` call (through the dynamic linker's table) cost more than the comparison. The last few bytes go one
    /// at a time, long strings on through `memcmp`.
    @inline(__always)
    static func compare(_ lhs: UnsafeRawBufferPointer, _ rhs: UnsafeRawBufferPointer) -> Int {
        let common = min(lhs.count, rhs.count)
        guard common > 0, let left = lhs.baseAddress, let right = rhs.baseAddress else { return lhs.count - rhs.count }
        var offset = 0
        while offset + 8 <= common, offset < wordBytes {
            let leftWord = UInt64(bigEndian: left.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            let rightWord = UInt64(bigEndian: right.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            if leftWord != rightWord { return leftWord < rightWord ? -1 : 1 }
            offset += 8
        }
        if common - offset >= 8 {
            let result = memcmp(left + offset, right + offset, common - offset)
            if result != 0 { return Int(result) }
        } else {
            while offset < common {
                let leftByte = left.load(fromByteOffset: offset, as: UInt8.self)
                let rightByte = right.load(fromByteOffset: offset, as: UInt8.self)
                if leftByte != rightByte { return leftByte < rightByte ? -1 : 1 }
                offset += 1
            }
        }
        return lhs.count - rhs.count
    }

    static func compare(_ lhs: [UInt8], _ rhs: [UInt8]) -> Int {
        lhs.withUnsafeBytes { left in rhs.withUnsafeBytes { right in compare(left, right) } }
    }

    /// The 8 bytes of `value` that compare like the numbers (big-endian with the sign bit flipped).
    static func key(_ value: Int64) -> [UInt8] {
        withUnsafeBytes(of: (UInt64(bitPattern: value) ^ 0x8000_0000_0000_0000).bigEndian) { Array($0) }
    }

    /// Runs `body` on the bytes `key(value)` returns, held on the stack instead of in a new array.
    static func withKey<R>(_ value: Int64, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try withUnsafeBytes(of: (UInt64(bitPattern: value) ^ 0x8000_0000_0000_0000).bigEndian, body)
    }

    /// The number whose ``key(_:)`` bytes start `bytes` (a shorter run read as its leading bytes): an 8-byte key in
    /// one load.
    static func int64(fromKey bytes: UnsafeRawBufferPointer) -> Int64 {
        var value: UInt64 = 0
        if bytes.count >= 8 {
            value = UInt64(bigEndian: bytes.loadUnaligned(as: UInt64.self))
        } else {
            for byte in bytes { value = value << 8 | UInt64(byte) }
        }
        return Int64(bitPattern: value ^ 0x8000_0000_0000_0000)
    }
}
