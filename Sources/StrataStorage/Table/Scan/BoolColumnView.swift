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
        var words = (0..<(count + 63) / 64).map { index -> UInt64 in
            guard let bits else { return 0 }
            return UInt64(littleEndian: bits.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self))
        }
        if !value { for index in words.indices { words[index] = ~words[index] } }
        var mask = RowMask(count: count, words: words)
        if nulls.hasNulls { mask.subtract(nulls.mask) }
        return mask
    }
}
