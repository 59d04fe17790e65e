/// A separator key of a decoded branch: up to 24 bytes held inline, longer keys in an array.
///
/// Changing one object decodes every branch on its path, and a branch holds up to 256 keys. Cluster keys are
/// 8 bytes and most index keys are short, so holding them inline saves an allocation (and its release) per key.
struct BranchKey {
    private static let inlineCapacity = 24

    private var inline: (UInt64, UInt64, UInt64) = (0, 0, 0)
    private var long: [UInt8]?
    /// The key's length in bytes.
    private(set) var count: Int

    /// A copy of `bytes`.
    init(_ bytes: UnsafeRawBufferPointer) {
        count = bytes.count
        if bytes.count > BranchKey.inlineCapacity {
            long = Array(bytes)
        } else {
            withUnsafeMutableBytes(of: &inline) { $0.copyMemory(from: bytes) }
        }
    }

    /// A copy of `bytes`.
    init(_ bytes: [UInt8]) {
        self = bytes.withUnsafeBytes { BranchKey($0) }
    }

    /// The `memcmp` order of this key against `other`: negative, zero or positive.
    ///
    /// Cluster trees compare 8-byte keys on every step of every descent: those compare as two big-endian words,
    /// without a call to `memcmp`.
    func compare(_ other: UnsafeRawBufferPointer) -> Int {
        if count == 8, other.count == 8, long == nil {
            let mine = UInt64(bigEndian: inline.0)
            let theirs = UInt64(bigEndian: other.loadUnaligned(as: UInt64.self))
            return mine < theirs ? -1 : (mine == theirs ? 0 : 1)
        }
        return withUnsafeBytes { ByteOrder.compare($0, other) }
    }

    /// Runs `body` on the key's bytes.
    func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        if let long { return try long.withUnsafeBytes(body) }
        return try Swift.withUnsafeBytes(of: inline) { try body(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
    }
}
