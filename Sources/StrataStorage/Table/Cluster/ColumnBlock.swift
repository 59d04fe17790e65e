/// How a column is laid out inside a cluster node.
enum BlockEncoding: UInt8 {
    /// Frame-of-reference packed integers (`IntPacking`).
    case packedInt = 1
    /// One bit per row.
    case bits = 2
    /// 4 bytes per row.
    case float32 = 3
    /// 8 bytes per row.
    case float64 = 4
    /// 16 bytes per row.
    case fixed16 = 5
    /// Offsets plus bytes, with long values in their own nodes. Stored with one of two tags: `6`, whose end
    /// offsets are 32 bits each (files written before packed offsets), and `packedEndsTag`, whose end offsets are
    /// packed to the narrowest width holding the block's byte count (16 bits below 64 KiB); both read as
    /// `.variable`, so that callers never see which one a file holds.
    case variable = 6

    /// The tag byte of a `.variable` block with packed end offsets (docs/FILE-FORMAT.md, "Column blocks").
    static let packedEndsTag: UInt8 = 7
}

/// A value of a variable-size column: inline bytes, or the node that holds a long value.
enum BlobSlot {
    /// The value's bytes, in the cluster node.
    case inline(UnsafeRawBufferPointer)
    /// The value lives in its own node of `length` bytes.
    case external(NodeRef, length: Int)

    /// The value's bytes, read through `reader` when external, valid for the transaction.
    /// - Throws: `StrataError.corruptFile` when the external node is shorter than the stated length.
    func bytes(reading reader: NodeReader) throws -> UnsafeRawBufferPointer {
        switch self {
        case .inline(let bytes): return bytes
        case .external(let ref, let length):
            let node = try reader.read(ref)
            guard length <= node.count else {
                throw NodeDamage.error(ref, "long value", "holds \(node.count) bytes, \(length) expected")
            }
            return UnsafeRawBufferPointer(rebasing: node[..<length])
        }
    }
}

/// A read-only, validated view of one column block of a cluster node (format in docs/FILE-FORMAT.md, "The table layer's nodes").
///
/// Construction checks every size the header states against the node; per-value accessors check offsets read
/// from the variable-size area. After that, fixed-width accessors index without further checks.
struct ColumnBlock {
    let kind: BlockEncoding
    let count: Int
    /// One bit per row, 1 = null; `nil` when the column keeps no null bitmap.
    let nulls: UnsafeRawPointer?
    /// Packed ints: the frame.
    let base: Int64
    let width: Int
    /// The fixed-width data, or for `.variable` the byte area.
    let data: UnsafeRawBufferPointer
    /// `.variable`: one bit per row, 1 = the value is in its own node.
    let externalBits: UnsafeRawPointer?
    /// `.variable`: `count` cumulative end offsets into `data`, `endWidth` bits each (read them with `end(_:)`).
    let ends: UnsafeRawPointer?
    /// `.variable`: the bits of one end offset: 32 for tag 6, an `IntPacking` width for `packedEndsTag`.
    let endWidth: Int
    let ref: NodeRef
    /// The whole block, header included (a block is position-independent, so it can be copied as it is).
    let bytes: UnsafeRawBufferPointer

    static let headerSize = 8

    /// Bytes a block takes: its header, null bitmap and data. `width` is the packed-int width; `variableBytes` the
    /// byte area of a `.variable` block (inline values, 16 per long value's reference), written with packed ends.
    ///
    /// The one place a block's size is worked out before it is written, so that a cluster knows when it is full.
    static func byteCount(kind: BlockEncoding, count: Int, hasNulls: Bool, width: Int = 0, variableBytes: Int = 0) -> Int {
        let bitmap = bitmapByteCount(count)
        var total = headerSize + (hasNulls ? bitmap : 0)
        switch kind {
        case .packedInt: total += 16 + IntPacking.dataByteCount(count: count, width: width)
        case .bits: total += bitmap
        case .float32: total += (count * 4 + 7) / 8 * 8
        case .float64: total += count * 8
        case .fixed16: total += count * 16
        case .variable:
            let endWidth = IntPacking.width(forRange: UInt64(variableBytes))
            total += bitmap + 8 + IntPacking.dataByteCount(count: count, width: endWidth) + variableBytes
        }
        return total
    }

    /// Bytes of a bitmap of `count` bits (whole 64-bit words).
    static func bitmapByteCount(_ count: Int) -> Int { (count + 63) / 64 * 8 }

    init(_ raw: UnsafeRawBufferPointer, ref: NodeRef) throws {
        var reader = ByteReader(raw, ref: ref, what: "column block")
        let tag = try reader.u8()
        let packedEnds = tag == BlockEncoding.packedEndsTag
        guard let kind = packedEnds ? .variable : BlockEncoding(rawValue: tag) else {
            throw reader.damage("unknown column block kind \(tag)")
        }
        let flags = try reader.u8()
        _ = try reader.u16()
        let count = Int(try reader.u32())
        let bitmapBytes = ColumnBlock.bitmapByteCount(count)
        self.kind = kind
        self.count = count
        self.ref = ref
        bytes = raw
        nulls = flags & 1 != 0 ? try reader.slice(bitmapBytes).baseAddress : nil
        var base: Int64 = 0
        var width = 0
        var externalBits: UnsafeRawPointer?
        var ends: UnsafeRawPointer?
        var endWidth = 32
        let dataBytes: Int
        switch kind {
        case .packedInt:
            width = Int(try reader.u8())
            try reader.skip(7)
            base = try reader.i64()
            guard IntPacking.widths.contains(width) else { throw reader.damage("integer width \(width) is not valid") }
            dataBytes = IntPacking.dataByteCount(count: count, width: width)
        case .bits: dataBytes = bitmapBytes
        case .float32: dataBytes = (count * 4 + 7) / 8 * 8
        case .float64: dataBytes = count * 8
        case .fixed16: dataBytes = count * 16
        case .variable:
            externalBits = try reader.slice(bitmapBytes).baseAddress
            if packedEnds {
                endWidth = Int(try reader.u8())
                try reader.skip(7)
                guard IntPacking.widths.contains(endWidth), endWidth < 64 else {
                    throw reader.damage("end offset width \(endWidth) is not valid")
                }
            }
            let endsSlice = try reader.slice(IntPacking.dataByteCount(count: count, width: endWidth))
            ends = endsSlice.baseAddress
            // The last end offset is the byte area's size (an empty block has none and no area).
            dataBytes = count == 0 ? 0 : endsSlice.baseAddress.map { Int(IntPacking.raw($0, width: endWidth, at: count - 1)) } ?? 0
        }
        self.base = base
        self.width = width
        self.externalBits = externalBits
        self.ends = ends
        self.endWidth = endWidth
        data = try reader.slice(dataBytes)
    }

    /// `.variable`: where row `row`'s bytes end in `data` (unchecked: `blob` and the scans check it against
    /// `data`). The caller keeps `row < count`.
    @inline(__always)
    func end(_ row: Int) -> Int {
        guard let ends else { return 0 }
        return Int(IntPacking.raw(ends, width: endWidth, at: row))
    }

    @inline(__always)
    static func bit(_ words: UnsafeRawPointer, _ index: Int) -> Bool {
        let word = UInt64(littleEndian: words.loadUnaligned(fromByteOffset: (index >> 6) * 8, as: UInt64.self))
        return (word >> UInt64(index & 63)) & 1 != 0
    }

    /// `.variable`: whether row `row`'s value is in its own node. The caller keeps `row < count`.
    func isExternal(_ row: Int) -> Bool {
        guard let externalBits else { return false }
        return ColumnBlock.bit(externalBits, row)
    }

    func isNull(_ row: Int) -> Bool {
        guard let nulls else { return false }
        return ColumnBlock.bit(nulls, row)
    }

    /// The raw 64-bit word of a fixed-width row (ints: the value; bools: 0/1; floats: their bit pattern).
    func word(_ row: Int) -> UInt64 {
        guard let base = data.baseAddress else { return kind == .packedInt ? UInt64(bitPattern: self.base) : 0 }
        switch kind {
        case .packedInt: return UInt64(bitPattern: self.base &+ Int64(bitPattern: IntPacking.raw(base, width: width, at: row)))
        case .bits: return ColumnBlock.bit(base, row) ? 1 : 0
        case .float32: return UInt64(UInt32(littleEndian: base.loadUnaligned(fromByteOffset: row * 4, as: UInt32.self)))
        case .float64: return UInt64(littleEndian: base.loadUnaligned(fromByteOffset: row * 8, as: UInt64.self))
        case .fixed16, .variable: return 0
        }
    }

    /// The bytes the first `rowCount` values of a fixed-16 or variable block take in their cluster (as
    /// `ColumnBuffer.storedSize` counts them), checking every row's extent as `blob` does.
    ///
    /// Inline values of a variable block are checked in one pass over the end offsets: a `blob` per row was 7% of
    /// a one-value commit, which decodes its cluster's string columns. Rows that look wrong or are external go
    /// through `blob`, which checks them fully and says what is damaged.
    func checkedStoredBytes(rowCount: Int) throws -> Int {
        var total = 0
        guard kind == .variable, rowCount <= count, ends != nil, let externalBits else {
            for row in 0..<rowCount { total += try storedBytes(row) }
            return total
        }
        var start = 0
        for row in 0..<rowCount {
            let end = end(row)
            if start <= end, end <= data.count, !ColumnBlock.bit(externalBits, row) {
                total += ColumnBuffer.storedSize(inline: end - start)
            } else {
                total += try storedBytes(row)
            }
            start = end
        }
        return total
    }

    /// What row `row` takes in its cluster: its inline bytes, or 16 for the reference to its own node.
    private func storedBytes(_ row: Int) throws -> Int {
        switch try blob(row) {
        case .inline(let bytes): return ColumnBuffer.storedSize(inline: bytes.count)
        case .external: return 16
        }
    }

    /// The bytes of a fixed-16 or variable row (checked against the block).
    func blob(_ row: Int) throws -> BlobSlot {
        if kind == .fixed16 {
            return .inline(UnsafeRawBufferPointer(rebasing: data[row * 16..<row * 16 + 16]))
        }
        guard ends != nil, let externalBits else { return .inline(UnsafeRawBufferPointer(start: nil, count: 0)) }
        let start = row == 0 ? 0 : end(row - 1)
        let end = end(row)
        guard start <= end, end <= data.count else {
            throw NodeDamage.error(ref, "variable-size column", "row \(row) spans bytes \(start)..<\(end) of \(data.count)")
        }
        let bytes = UnsafeRawBufferPointer(rebasing: data[start..<end])
        guard ColumnBlock.bit(externalBits, row) else { return .inline(bytes) }
        guard bytes.count == 16 else {
            throw NodeDamage.error(ref, "variable-size column", "row \(row) is marked external but has \(bytes.count) bytes")
        }
        let target = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 0, as: UInt64.self))
        let length = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        guard target != 0, length <= UInt64(Int32.max) else {
            throw NodeDamage.error(ref, "variable-size column", "row \(row) points at node #\(target) of \(length) bytes")
        }
        return .external(NodeRef(rawValue: target), length: Int(length))
    }
}
