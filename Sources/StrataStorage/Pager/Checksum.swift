/// The 64-bit checksum of every node and meta slot: xxHash64 (Yann Collet's published algorithm), written here
/// so the engine has no dependency. It reads 8 bytes at a time, several GB/s, and any single flipped bit, torn
/// sector or stale page changes it with overwhelming probability.
enum Checksum {
    private static let prime1: UInt64 = 0x9E37_79B1_85EB_CA87
    private static let prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    private static let prime3: UInt64 = 0x1656_67B1_9E37_79F9
    private static let prime4: UInt64 = 0x85EB_CA77_C2B2_AE63
    private static let prime5: UInt64 = 0x27D4_EB2F_1656_67C5

    /// The xxHash64 of `bytes` with `seed`.
    static func hash(_ bytes: UnsafeRawBufferPointer, seed: UInt64 = 0) -> UInt64 {
        guard let base = bytes.baseAddress else { return finish(seed &+ prime5, length: 0) }
        return hash(base, count: bytes.count, seed: seed)
    }

    /// The xxHash64 of `count` bytes at `base` with `seed`.
    static func hash(_ base: UnsafeRawPointer, count: Int, seed: UInt64 = 0) -> UInt64 {
        var offset = 0
        var accumulator: UInt64
        if count >= 32 {
            var v1 = seed &+ prime1 &+ prime2
            var v2 = seed &+ prime2
            var v3 = seed
            var v4 = seed &- prime1
            while offset + 32 <= count {
                v1 = round(v1, lane(base, offset))
                v2 = round(v2, lane(base, offset + 8))
                v3 = round(v3, lane(base, offset + 16))
                v4 = round(v4, lane(base, offset + 24))
                offset += 32
            }
            accumulator = rotate(v1, 1) &+ rotate(v2, 7) &+ rotate(v3, 12) &+ rotate(v4, 18)
            accumulator = merge(accumulator, v1)
            accumulator = merge(accumulator, v2)
            accumulator = merge(accumulator, v3)
            accumulator = merge(accumulator, v4)
        } else {
            accumulator = seed &+ prime5
        }
        accumulator &+= UInt64(count)
        while offset + 8 <= count {
            accumulator ^= round(0, lane(base, offset))
            accumulator = rotate(accumulator, 27) &* prime1 &+ prime4
            offset += 8
        }
        if offset + 4 <= count {
            let word = UInt32(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
            accumulator ^= UInt64(word) &* prime1
            accumulator = rotate(accumulator, 23) &* prime2 &+ prime3
            offset += 4
        }
        while offset < count {
            accumulator ^= UInt64(base.load(fromByteOffset: offset, as: UInt8.self)) &* prime5
            accumulator = rotate(accumulator, 11) &* prime1
            offset += 1
        }
        return finish(accumulator, length: 0)
    }

    @inline(__always)
    private static func lane(_ base: UnsafeRawPointer, _ offset: Int) -> UInt64 {
        UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    @inline(__always)
    private static func rotate(_ value: UInt64, _ bits: UInt64) -> UInt64 {
        (value << bits) | (value >> (64 - bits))
    }

    @inline(__always)
    private static func round(_ accumulator: UInt64, _ input: UInt64) -> UInt64 {
        rotate(accumulator &+ input &* prime2, 31) &* prime1
    }

    @inline(__always)
    private static func merge(_ accumulator: UInt64, _ value: UInt64) -> UInt64 {
        (accumulator ^ round(0, value)) &* prime1 &+ prime4
    }

    @inline(__always)
    private static func finish(_ value: UInt64, length: Int) -> UInt64 {
        var hash = value
        hash ^= hash >> 33
        hash &*= prime2
        hash ^= hash >> 29
        hash &*= prime3
        hash ^= hash >> 32
        return hash
    }
}
