/// A bool column of one cluster: one bit per row, read in place.
public struct BoolColumnView {
    /// The number of rows.
    public let count: Int
    let bits: UnsafeRawPointer?
    /// The column's nulls.
    public let nulls: NullBitmap

    init(_ block: ColumnBlock) {
        count = block.count
        bits = block.data.baseAddress
        nulls = NullBitmap(words: block.nulls, count: block.count)
    }

    /// The value of `row` (a null row reads as `false`).
    public subscript(row: Int) -> Bool {
        guard let bits else { return false }
        return ColumnBlock.bit(bits, row)
    }

    /// Rows whose non-null value is `value`: the stored bits themselves (or their complement).
    public func matches(_ value: Bool) -> RowMask {
        let wordCount = (count + 63) / 64
        let flip: UInt64 = value ? 0 : ~0
        let words = [UInt64](unsafeUninitializedCapacity: wordCount) { buffer, initialized in
            for index in 0..<wordCount {
                let stored = bits.map { UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self)) }
                buffer[index] = (stored ?? 0) ^ flip
            }
            initialized = wordCount
        }
        var mask = RowMask(count: count, words: consume words)
        if nulls.hasNulls { mask.subtract(nulls.mask) }
        return mask
    }
}
