/// One bit per row of a cluster: the result of a column condition, combined with others by `&`, `|`, `~`.
public struct RowMask: Equatable, Sendable {
    /// The bits, row `i` in bit `i % 64` of word `i / 64`; bits past `count` are always zero.
    package internal(set) var words: [UInt64]
    /// The number of rows.
    public let count: Int

    /// A mask of `count` rows, all set (`filled`) or all clear.
    public init(count: Int, filled: Bool = false) {
        self.init(count: count, words: Array(repeating: filled ? ~0 : 0, count: (count + 63) / 64))
    }

    /// A mask of `count` rows with the bits of `words` (bits past `count` cleared). The tail is cleared before the
    /// words are stored: clearing it after, while the parameter still held the array, copied the whole array.
    init(count: Int, words: consuming [UInt64]) {
        RowMask.clearTail(of: &words, count: count)
        self.count = count
        self.words = words
    }

    mutating func clearTail() {
        RowMask.clearTail(of: &words, count: count)
    }

    private static func clearTail(of words: inout [UInt64], count: Int) {
        if count % 64 != 0, !words.isEmpty { words[words.count - 1] &= (UInt64(1) << UInt64(count % 64)) - 1 }
    }

    /// Whether row `row` is set.
    public subscript(row: Int) -> Bool { (words[row >> 6] >> UInt64(row & 63)) & 1 != 0 }

    /// The number of set rows.
    public var setCount: Int { words.reduce(0) { $0 + $1.nonzeroBitCount } }

    /// Whether no row is set: stops at the first set word, where ``setCount`` counts every word.
    public var isEmpty: Bool { !words.contains { $0 != 0 } }

    /// Keeps only rows set in both.
    public mutating func formIntersection(_ other: RowMask) {
        for index in words.indices { words[index] &= other.words[index] }
    }

    /// Sets rows set in either.
    public mutating func formUnion(_ other: RowMask) {
        for index in words.indices { words[index] |= other.words[index] }
    }

    /// Flips every row.
    public mutating func invert() {
        for index in words.indices { words[index] = ~words[index] }
        clearTail()
    }

    /// Clears rows set in `other`.
    public mutating func subtract(_ other: RowMask) {
        for index in words.indices { words[index] &= ~other.words[index] }
    }

    /// Sets row `row` (`0..<count`): how a condition checked row by row builds its mask.
    public mutating func set(_ row: Int) {
        words[row >> 6] |= 1 << UInt64(row & 63)
    }

    /// Calls `body` with each set row, ascending.
    public func forEachSetRow(_ body: (Int) throws -> Void) rethrows {
        for (index, word) in words.enumerated() {
            var bits = word
            while bits != 0 {
                try body(index * 64 + bits.trailingZeroBitCount)
                bits &= bits - 1
            }
        }
    }
}

/// A comparison a column scan evaluates.
public enum ScanComparison: Sendable {
    /// `==`
    case equal
    /// `!=`
    case notEqual
    /// `<`
    case less
    /// `<=`
    case lessOrEqual
    /// `>`
    case greater
    /// `>=`
    case greaterOrEqual

    /// Whether `value <self> operand`.
    @inline(__always)
    public func holds(_ value: Int64, _ operand: Int64) -> Bool {
        switch self {
        case .equal: return value == operand
        case .notEqual: return value != operand
        case .less: return value < operand
        case .lessOrEqual: return value <= operand
        case .greater: return value > operand
        case .greaterOrEqual: return value >= operand
        }
    }
}

/// A column's null bitmap in a cluster (1 = null); a column without one has no nulls.
public struct NullBitmap {
    let words: UnsafeRawPointer?
    /// The number of rows.
    public let count: Int

    /// Whether row `row` is null.
    public func isNull(_ row: Int) -> Bool {
        guard let words else { return false }
        return ColumnBlock.bit(words, row)
    }

    /// Whether the column can hold nulls at all in this cluster.
    public var hasNulls: Bool { words != nil }

    /// The null rows as a mask.
    public var mask: RowMask {
        guard let words else { return RowMask(count: count) }
        return RowMask(count: count, words: (0..<(count + 63) / 64).map {
            UInt64(littleEndian: words.loadUnaligned(fromByteOffset: $0 * 8, as: UInt64.self))
        })
    }
}
