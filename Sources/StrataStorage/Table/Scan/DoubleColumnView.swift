/// A float or double column of one cluster, read in place.
public struct DoubleColumnView {
    /// The number of rows.
    public let count: Int
    let data: UnsafeRawPointer?
    let isFloat: Bool
    /// The column's nulls.
    public let nulls: NullBitmap

    init(_ block: ColumnBlock) {
        count = block.count
        data = block.data.baseAddress
        isFloat = block.kind == .float32
        nulls = NullBitmap(words: block.nulls, count: block.count)
    }

    /// The value of `row` (floats widened to double; a null row reads as 0).
    @inline(__always)
    public subscript(row: Int) -> Double {
        guard let data else { return 0 }
        if isFloat {
            return Double(Float(bitPattern: UInt32(littleEndian: data.loadUnaligned(fromByteOffset: row * 4, as: UInt32.self))))
        }
        return Double(bitPattern: UInt64(littleEndian: data.loadUnaligned(fromByteOffset: row * 8, as: UInt64.self)))
    }

    /// Rows whose non-null value satisfies `value <comparison> operand`.
    public func matches(_ comparison: ScanComparison, _ operand: Double) -> RowMask {
        var mask = RowMask(count: count)
        for row in 0..<count {
            let value = self[row]
            let hit: Bool
            switch comparison {
            case .equal: hit = value == operand
            case .notEqual: hit = value != operand
            case .less: hit = value < operand
            case .lessOrEqual: hit = value <= operand
            case .greater: hit = value > operand
            case .greaterOrEqual: hit = value >= operand
            }
            if hit { mask.words[row >> 6] |= 1 << UInt64(row & 63) }
        }
        if nulls.hasNulls { mask.subtract(nulls.mask) }
        return mask
    }
}
