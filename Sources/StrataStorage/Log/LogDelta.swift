#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A node logged as the byte ranges in which it differs from its *base*, an earlier copy of the node it was copied
/// from (log format 3; docs/FILE-FORMAT.md, "The commit log"). It sits inline in its record's header pages.
///
/// ```
/// 0   base page      UInt64  the page of the base copy in the data file
/// 8   base version   UInt64  the version that wrote the base copy (before the delta's own)
/// 16  node bytes     UInt32  bytes of the node that matter (header and payload)
/// 20  range count    UInt32  r
/// 24  ranges         r × (offset UInt32, length UInt32), ascending and apart
/// ... range bytes    the ranges' bytes, in range order
/// ```
///
/// The node is materialized by copying the base's bytes (up to the node's byte count), zeros after them, then each
/// range's bytes over them; the result must carry the checksum the record's entry lists and hash to it, so a damaged
/// delta or base reads as an error, never as another node.
struct LogDelta: Equatable, Sendable {
    /// Bytes before the ranges.
    static let fixedByteCount = 24
    /// Bytes per range.
    static let rangeByteCount = 8
    /// The unit the writer compares nodes in.
    static let blockByteCount = 64
    /// Deltas a materialized node may stand on, itself included: a node whose base is this deep is logged whole.
    static let maximumChain = 4

    /// The page of the base copy.
    var basePage: UInt64
    /// The version that wrote the base copy.
    var baseVersion: UInt64
    /// Bytes of the node that matter.
    var nodeByteCount: Int
    /// The changed ranges, each with its bytes' offset in the delta.
    var ranges: [(offset: Int, length: Int, source: Int)]

    static func == (lhs: LogDelta, rhs: LogDelta) -> Bool {
        lhs.basePage == rhs.basePage && lhs.baseVersion == rhs.baseVersion && lhs.nodeByteCount == rhs.nodeByteCount
            && lhs.ranges.elementsEqual(rhs.ranges) { $0 == $1 }
    }

    /// The delta that turns the base (`baseByteCount` bytes at `base`) into the node (`nodeByteCount` bytes at
    /// `node`), compared in 64-byte blocks; nil when the changed bytes pass a quarter of the `wholeByteCount` bytes
    /// the node takes in the log whole (its pages: a 180-byte branch takes a page whole and a few hundred bytes as
    /// a delta).
    static func encode(
        node: UnsafeRawPointer, nodeByteCount: Int, base: UnsafeRawPointer, baseByteCount: Int, basePage: UInt64,
        baseVersion: UInt64, wholeByteCount: Int
    ) -> [UInt8]? {
        var ranges: [(offset: Int, length: Int)] = []
        var changed = 0
        var offset = 0
        while offset < nodeByteCount {
            let length = min(blockByteCount, nodeByteCount - offset)
            let same = offset + length <= baseByteCount && memcmp(node + offset, base + offset, length) == 0
            if !same {
                if let last = ranges.last, last.offset + last.length == offset {
                    ranges[ranges.count - 1].length += length
                } else {
                    ranges.append((offset, length))
                }
                changed += length
                if changed > wholeByteCount / 4 { return nil }
            }
            offset += length
        }
        var bytes = [UInt8](repeating: 0, count: fixedByteCount + ranges.count * rangeByteCount + changed)
        bytes.withUnsafeMutableBytes { buffer in
            let out = buffer.baseAddress!
            out.setU64(basePage, at: 0)
            out.setU64(baseVersion, at: 8)
            out.setU32(UInt32(nodeByteCount), at: 16)
            out.setU32(UInt32(ranges.count), at: 20)
            var source = fixedByteCount + ranges.count * rangeByteCount
            for (index, range) in ranges.enumerated() {
                out.setU32(UInt32(range.offset), at: fixedByteCount + index * rangeByteCount)
                out.setU32(UInt32(range.length), at: fixedByteCount + index * rangeByteCount + 4)
                (out + source).copyMemory(from: node + range.offset, byteCount: range.length)
                source += range.length
            }
        }
        return bytes
    }

    /// The delta in the `byteCount` bytes at `base`, or nil when they do not hold one whose ranges are ascending,
    /// apart, inside a node of at most `maximumNodeBytes` bytes, and whose bytes fill the delta exactly.
    static func decode(from base: UnsafeRawPointer, byteCount: Int, maximumNodeBytes: Int) -> LogDelta? {
        guard byteCount >= fixedByteCount else { return nil }
        let nodeByteCount = Int(base.u32(at: 16))
        let count = Int(base.u32(at: 20))
        guard nodeByteCount >= NodeHeader.byteCount, nodeByteCount <= maximumNodeBytes,
            count <= (byteCount - fixedByteCount) / rangeByteCount
        else { return nil }
        var ranges: [(offset: Int, length: Int, source: Int)] = []
        ranges.reserveCapacity(count)
        var source = fixedByteCount + count * rangeByteCount
        var end = 0
        for index in 0..<count {
            let offset = Int(base.u32(at: fixedByteCount + index * rangeByteCount))
            let length = Int(base.u32(at: fixedByteCount + index * rangeByteCount + 4))
            guard length > 0, offset >= end, length <= nodeByteCount - offset, length <= byteCount - source else {
                return nil
            }
            ranges.append((offset, length, source))
            source += length
            end = offset + length
        }
        guard source == byteCount else { return nil }
        return LogDelta(
            basePage: base.u64(at: 0), baseVersion: base.u64(at: 8), nodeByteCount: nodeByteCount, ranges: ranges)
    }

    /// Writes the node into `output` (at least `nodeByteCount` bytes, zeroed past them by the caller): the base's
    /// first bytes, zeros where the base is shorter, then the ranges from the delta at `delta`.
    func apply(base: UnsafeRawPointer, baseByteCount: Int, delta: UnsafeRawPointer, into output: UnsafeMutableRawPointer) {
        let kept = min(baseByteCount, nodeByteCount)
        output.copyMemory(from: base, byteCount: kept)
        if kept < nodeByteCount { memset(output + kept, 0, nodeByteCount - kept) }
        for range in ranges {
            (output + range.offset).copyMemory(from: delta + range.source, byteCount: range.length)
        }
    }
}
