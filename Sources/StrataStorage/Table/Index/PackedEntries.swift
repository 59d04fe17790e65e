#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Byte-string entries held back to back in one buffer, with the end offset of each: a decoded index leaf's
/// entries (`IndexLeaf`) and the entries an index collects in a write transaction (`PendingEntries`).
///
/// One allocation for the bytes and one for the offsets, whatever the number of entries: an array per entry cost
/// an allocation and a release for each entry a leaf decoded, merged or split, and a retain and release at every
/// move of an entry, which took most of a bulk insert's time when an index held millions of short entries.
///
/// An entry read with ``entry(_:)`` points into the buffer: valid until the next change. Instances are never
/// shared between owners (a leaf's split takes a new buffer), so no copy-on-write is needed. Offsets are 32-bit:
/// a buffer holds less than 4 GiB (a leaf a few KiB, pending entries `SortedIndex.pendingByteLimit`).
final class PackedEntries {
    private var bytes: UnsafeMutableRawPointer?
    private var byteCapacity = 0
    /// The bytes of all the entries.
    private(set) var byteCount = 0
    private var ends: UnsafeMutablePointer<UInt32>?
    private var endCapacity = 0
    /// The number of entries.
    private(set) var count = 0

    /// An empty buffer with room for `entries` entries of `bytes` bytes in all.
    init(reservingEntries entries: Int = 0, bytes: Int = 0) {
        // Never without memory: an entry's pointer is then never built from a null base.
        reserve(entries: Swift.max(entries, 1), bytes: Swift.max(bytes, 1))
    }

    deinit {
        bytes?.deallocate()
        ends?.deallocate()
    }

    var isEmpty: Bool { count == 0 }

    /// Where entry `index` starts in the buffer.
    @inline(__always)
    func start(_ index: Int) -> Int { index == 0 ? 0 : Int(ends.unsafelyUnwrapped[index - 1]) }

    /// Where entry `index` ends in the buffer.
    @inline(__always)
    func end(_ index: Int) -> Int { Int(ends.unsafelyUnwrapped[index]) }

    /// The bytes of entry `index` (`0..<count`), valid until the next change.
    @inline(__always)
    func entry(_ index: Int) -> UnsafeRawBufferPointer {
        let start = start(index)
        return UnsafeRawBufferPointer(start: bytes.unsafelyUnwrapped + start, count: end(index) - start)
    }

    /// The entries `range` as they lie in the buffer, one run of bytes (valid until the next change).
    func bytes(of range: Range<Int>) -> UnsafeRawBufferPointer {
        guard !range.isEmpty else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        let start = start(range.lowerBound)
        return UnsafeRawBufferPointer(start: bytes.unsafelyUnwrapped + start, count: end(range.upperBound - 1) - start)
    }

    /// The position of the first entry ≥ `target` at or after `from` (`count` when every one sorts before it).
    /// - Complexity: O(log n) comparisons.
    func lowerBound(_ target: UnsafeRawBufferPointer, from: Int = 0) -> Int {
        var low = from
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if ByteOrder.compare(entry(middle), target) < 0 { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Makes room for `entries` more entries of `bytes` more bytes without growing again.
    func reserve(entries: Int, bytes extra: Int) {
        if count + entries > endCapacity { growEnds(to: count + entries) }
        if byteCount + extra > byteCapacity { growBytes(to: byteCount + extra) }
    }

    /// Appends an entry.
    @inline(__always)
    func append(_ entry: UnsafeRawBufferPointer) {
        if count == endCapacity { growEnds(to: count + 1) }
        if byteCount + entry.count > byteCapacity { growBytes(to: byteCount + entry.count) }
        if let source = entry.baseAddress {
            (bytes.unsafelyUnwrapped + byteCount).copyMemory(from: source, byteCount: entry.count)
        }
        byteCount += entry.count
        ends.unsafelyUnwrapped[count] = UInt32(byteCount)
        count += 1
    }

    /// Appends an entry of at most `maxCount` bytes that `write` puts in place, returning its length: an entry
    /// encoded straight into the buffer, with no array of its own to copy from.
    @inline(__always)
    func append(maxCount: Int, _ write: (UnsafeMutableRawPointer) -> Int) {
        if count == endCapacity { growEnds(to: count + 1) }
        if byteCount + maxCount > byteCapacity { growBytes(to: byteCount + maxCount) }
        byteCount += write(bytes.unsafelyUnwrapped + byteCount)
        ends.unsafelyUnwrapped[count] = UInt32(byteCount)
        count += 1
    }

    /// Appends entries `range` of `other` (another buffer), copying their bytes in one run.
    func append(_ other: PackedEntries, _ range: Range<Int>) {
        guard !range.isEmpty else { return }
        let run = other.bytes(of: range)
        reserve(entries: range.count, bytes: run.count)
        if let source = run.baseAddress {
            (bytes.unsafelyUnwrapped + byteCount).copyMemory(from: source, byteCount: run.count)
        }
        let shift = byteCount - other.start(range.lowerBound)
        let offsets = ends.unsafelyUnwrapped + count
        for index in range { offsets[index - range.lowerBound] = UInt32(other.end(index) + shift) }
        count += range.count
        byteCount += run.count
    }

    /// Inserts an entry at position `index` (`0...count`), moving the entries after it.
    func insert(_ entry: UnsafeRawBufferPointer, at index: Int) {
        if count == endCapacity { growEnds(to: count + 1) }
        if byteCount + entry.count > byteCapacity { growBytes(to: byteCount + entry.count) }
        let at = start(index)
        let base = bytes.unsafelyUnwrapped
        (base + at + entry.count).copyMemory(from: base + at, byteCount: byteCount - at)
        if let source = entry.baseAddress { (base + at).copyMemory(from: source, byteCount: entry.count) }
        let offsets = ends.unsafelyUnwrapped
        UnsafeMutableRawPointer(offsets + index + 1).copyMemory(from: offsets + index, byteCount: (count - index) * 4)
        offsets[index] = UInt32(at)
        let length = UInt32(entry.count)
        for position in index...count { offsets[position] += length }
        byteCount += entry.count
        count += 1
    }

    /// Removes entry `index`, moving the entries after it.
    func remove(at index: Int) {
        let (from, to) = (start(index), end(index))
        let length = to - from
        let base = bytes.unsafelyUnwrapped
        (base + from).copyMemory(from: base + to, byteCount: byteCount - to)
        let offsets = ends.unsafelyUnwrapped
        let moved = (count - index - 1) * 4
        UnsafeMutableRawPointer(offsets + index).copyMemory(from: offsets + index + 1, byteCount: moved)
        count -= 1
        byteCount -= length
        for position in index..<count { offsets[position] -= UInt32(length) }
    }

    /// Moves the entries from position `index` on into a new buffer, which it returns.
    func split(at index: Int) -> PackedEntries {
        let upper = PackedEntries()
        upper.append(self, index..<count)
        byteCount = start(index)
        count = index
        return upper
    }

    /// Removes every entry, keeping the memory when `keepingCapacity`.
    func removeAll(keepingCapacity: Bool = false) {
        count = 0
        byteCount = 0
        guard !keepingCapacity else { return }
        bytes?.deallocate()
        ends?.deallocate()
        (bytes, ends, byteCapacity, endCapacity) = (nil, nil, 0, 0)
        reserve(entries: 1, bytes: 1)
    }

    // MARK: Growth

    private func growBytes(to needed: Int) {
        let capacity = Swift.max(needed, byteCapacity * 2, 64)
        let grown = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
        if let bytes {
            grown.copyMemory(from: bytes, byteCount: byteCount)
            bytes.deallocate()
        }
        bytes = grown
        byteCapacity = capacity
    }

    private func growEnds(to needed: Int) {
        let capacity = Swift.max(needed, endCapacity * 2, 8)
        let grown = UnsafeMutablePointer<UInt32>.allocate(capacity: capacity)
        if let ends {
            grown.initialize(from: ends, count: count)
            ends.deallocate()
        }
        ends = grown
        endCapacity = capacity
    }
}
