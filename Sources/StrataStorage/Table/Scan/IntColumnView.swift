/// An integer, timestamp or link column of one cluster, read in place from its packed form.
///
/// Scans run over the packed width directly: a comparison with a constant becomes one unsigned range test per
/// row on the stored deltas, in a loop specialised per width.
public struct IntColumnView {
    /// The number of rows.
    public let count: Int
    /// The smallest value; each row stores `value - base` in `width` bits.
    public let base: Int64
    /// Bits per row: 0, 1, 2, 4, 8, 16, 32 or 64.
    public let width: Int
    let data: UnsafeRawPointer?
    /// The column's nulls.
    public let nulls: NullBitmap

    init(_ block: ColumnBlock) {
        count = block.count
        base = block.base
        width = block.width
        data = block.data.baseAddress
        nulls = NullBitmap(words: block.nulls, count: block.count)
    }

    /// The value of `row` (a null row reads as `base`; check `nulls`).
    @inline(__always)
    public subscript(row: Int) -> Int64 {
        guard let data else { return base }
        return base &+ Int64(bitPattern: IntPacking.raw(data, width: width, at: row))
    }

    /// Rows whose (non-null) value satisfies `value <comparison> operand`.
    public func matches(_ comparison: ScanComparison, _ operand: Int64) -> RowMask {
        if let (low, high, invert) = rawRange(comparison, operand) { return rows(rawLow: low, rawHigh: high, invert: invert) }
        return comparison == .notEqual ? rows(rawLow: 0, rawHigh: rawMaximum, invert: false) : RowMask(count: count)
    }

    /// Rows whose (non-null) value lies in `low...high`, in one pass: what `age >= 20 AND age < 30` asks, without
    /// a mask per bound.
    public func matches(from low: Int64, through high: Int64) -> RowMask {
        guard low <= high, high >= base else { return RowMask(count: count) }
        let rawLow = low > base ? UInt64(bitPattern: low &- base) : 0
        let rawHigh = min(UInt64(bitPattern: high &- base), rawMaximum)
        guard rawLow <= rawHigh else { return RowMask(count: count) }
        return rows(rawLow: rawLow, rawHigh: rawHigh, invert: false)
    }

    /// The largest delta `width` bits hold.
    private var rawMaximum: UInt64 { width == 64 ? ~0 : (UInt64(1) << UInt64(width)) &- 1 }

    /// Non-null rows whose stored delta is in `rawLow...rawHigh` (outside it when `invert`).
    private func rows(rawLow low: UInt64, rawHigh high: UInt64, invert: Bool) -> RowMask {
        var words = [UInt64](repeating: 0, count: (count + 63) / 64)
        let span = high &- low
        switch width {
        case 0: if invert != (0 &- low <= span) { for index in words.indices { words[index] = ~0 } }
        case 8:
            if low &+ span <= 0xFF {
                fillBytes(&words, low, span, invert)
            } else {
                fill(&words, UInt8.self, low, span, invert)
            }
        case 16: fill(&words, UInt16.self, low, span, invert)
        case 32: fill(&words, UInt32.self, low, span, invert)
        case 64: fill(&words, UInt64.self, low, span, invert)
        default:
            for row in 0..<count {
                let raw = data.map { IntPacking.raw($0, width: width, at: row) } ?? 0
                if ((raw &- low) <= span) != invert { words[row >> 6] |= 1 << UInt64(row & 63) }
            }
        }
        var mask = RowMask(count: count, words: consume words)
        if nulls.hasNulls { mask.subtract(nulls.mask) }
        return mask
    }

    /// The number of rows matching; same as `matches(_:_:).setCount`.
    public func countMatches(_ comparison: ScanComparison, _ operand: Int64) -> Int {
        matches(comparison, operand).setCount
    }

    /// Sets bit `row` of `words` where `(raw &- low) <= span` (the opposite when `invert`): one unsigned range test
    /// per row, 64 rows per output word.
    private func fill<T: FixedWidthInteger & UnsignedInteger>(
        _ words: inout [UInt64], _: T.Type, _ low: UInt64, _ span: UInt64, _ invert: Bool
    ) {
        guard let data else { return }
        let size = MemoryLayout<T>.size
        let flip: UInt64 = invert ? ~0 : 0
        words.withUnsafeMutableBufferPointer { out in
            var row = 0
            for wordIndex in 0..<out.count {
                let end = min(row + 64, count)
                var bits: UInt64 = 0
                var bit: UInt64 = 0
                while row < end {
                    let raw = UInt64(T(littleEndian: data.loadUnaligned(fromByteOffset: row * size, as: T.self)))
                    bits |= ((raw &- low) <= span ? 1 : 0) << bit
                    bit += 1
                    row += 1
                }
                out[wordIndex] = (bits ^ flip) & (bit == 64 ? ~0 : (1 << bit) - 1)
            }
        }
    }

    /// `fill` for 8-bit deltas when `low + span` fits a byte (as every range of 8-bit deltas does), eight rows
    /// per step: a byte vector subtraction and comparison, whose lanes then weigh 1, 2, 4, … 128 and add up to
    /// the eight rows' bits. Small ints (ages, counts, enums) are stored in 8 bits, and the row-by-row loop was a
    /// tenth of a scan's time.
    ///
    /// The wrapped 8-bit difference equals the 64-bit one for every row `fill` would set: a row below `low` wraps
    /// to `256 - (low - raw)`, which is at most `span` only when `raw <= low + span - 256`, impossible here.
    private func fillBytes(_ words: inout [UInt64], _ low: UInt64, _ span: UInt64, _ invert: Bool) {
        guard let data else { return }
        let lows = SIMD8<UInt8>(repeating: UInt8(truncatingIfNeeded: low))
        let spans = SIMD8<UInt8>(repeating: UInt8(truncatingIfNeeded: span))
        let weights = SIMD8<UInt8>(1, 2, 4, 8, 16, 32, 64, 128)
        let groups = count / 8
        let flip: UInt64 = invert ? ~0 : 0
        words.withUnsafeMutableBufferPointer { out in
            for group in 0..<groups {
                let values = data.loadUnaligned(fromByteOffset: group * 8, as: SIMD8<UInt8>.self)
                let hits = (values &- lows) .<= spans
                let byte = UInt64(weights.replacing(with: 0, where: .!hits).wrappedSum())
                out[group >> 3] |= byte << UInt64((group & 7) * 8)
            }
            for row in groups * 8..<count {
                let raw = UInt64(data.load(fromByteOffset: row, as: UInt8.self))
                if (raw &- low) <= span { out[row >> 6] |= 1 << UInt64(row & 63) }
            }
            // Bits past `count` are cleared by the mask built from these words.
            for index in out.indices { out[index] ^= flip }
        }
    }

    /// The stored deltas `raw` that satisfy the comparison, as `low...high` (negated when `invert`), or `nil`
    /// when no stored value can match.
    private func rawRange(_ comparison: ScanComparison, _ operand: Int64) -> (UInt64, UInt64, Bool)? {
        let maximum = rawMaximum
        let delta = operand >= base ? UInt64(bitPattern: operand &- base) : nil
        switch comparison {
        case .equal:
            guard let delta, delta <= maximum else { return nil }
            return (delta, delta, false)
        case .notEqual:
            guard let delta, delta <= maximum else { return (0, maximum, false) }
            return (delta, delta, true)
        case .less:
            guard let delta, delta > 0 else { return nil }
            return (0, min(delta - 1, maximum), false)
        case .lessOrEqual:
            guard let delta else { return nil }
            return (0, min(delta, maximum), false)
        case .greater:
            guard let delta else { return (0, maximum, false) }
            guard delta < maximum else { return nil }
            return (delta + 1, maximum, false)
        case .greaterOrEqual:
            guard let delta else { return (0, maximum, false) }
            guard delta <= maximum else { return nil }
            return (delta, maximum, false)
        }
    }
}
