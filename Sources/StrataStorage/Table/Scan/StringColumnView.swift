/// A string or binary column of one cluster, read in place; long values are read from their own nodes.
public struct StringColumnView {
    /// The number of rows.
    public let count: Int
    let block: ColumnBlock
    let reader: NodeReader
    /// The column's nulls.
    public let nulls: NullBitmap

    init(_ block: ColumnBlock, reader: NodeReader) {
        count = block.count
        self.block = block
        self.reader = reader
        nulls = NullBitmap(words: block.nulls, count: block.count)
    }

    /// The UTF-8 bytes of `row`, valid for the transaction.
    /// - Throws: `StrataError.corruptFile` when the stored offsets do not fit the node.
    public func bytes(_ row: Int) throws -> UnsafeRawBufferPointer {
        try block.blob(row).bytes(reading: reader)
    }

    /// The string of `row` (`nil` when null).
    public func string(_ row: Int) throws -> String? {
        if nulls.isNull(row) { return nil }
        return String(decoding: try bytes(row), as: UTF8.self)
    }

    /// Calls `body` with each non-null row set in `within` and its bytes (valid for the transaction), ascending.
    ///
    /// This is the scan loop for conditions tested on raw bytes: short values, which live in the cluster node, are
    /// found from the block's offsets directly, and only long values go through their own node.
    /// - Throws: `StrataError.corruptFile` when the stored offsets do not fit the node; what `body` throws.
    public func forEachValue(within: RowMask, _ body: (Int, UnsafeRawBufferPointer) throws -> Void) throws {
        guard block.kind == .variable, block.ends != nil, let external = block.externalBits else {
            try within.forEachSetRow { row in if !nulls.isNull(row) { try body(row, try bytes(row)) } }
            return
        }
        let area = block.data
        try within.forEachSetRow { row in
            if nulls.isNull(row) { return }
            if ColumnBlock.bit(external, row) {
                try body(row, try bytes(row))
                return
            }
            let start = row == 0 ? 0 : block.end(row - 1)
            let end = block.end(row)
            guard start <= end, end <= area.count else {
                throw NodeDamage.error(block.ref, "variable-size column", "row \(row) spans bytes \(start)..<\(end) of \(area.count)")
            }
            try body(row, UnsafeRawBufferPointer(start: area.baseAddress.map { $0 + start }, count: end - start))
        }
    }

    /// Whether `row` starts with `prefix`, comparing raw UTF-8 bytes (no String is built).
    public func hasPrefix(_ row: Int, _ prefix: [UInt8]) throws -> Bool {
        guard !nulls.isNull(row) else { return false }
        let value = try bytes(row)
        return prefix.withUnsafeBytes { Self.starts(value, with: $0) }
    }

    /// Rows (non-null) starting with `prefix`.
    public func matches(prefix: String) throws -> RowMask {
        try matches(prefix: Array(prefix.utf8), within: RowMask(count: count, filled: true))
    }

    /// Rows among `within` (non-null) whose raw bytes start with `prefix`.
    public func matches(prefix: [UInt8], within: RowMask) throws -> RowMask {
        var mask = RowMask(count: count)
        try prefix.withUnsafeBytes { prefix in
            try forEachValue(within: within) { row, value in if Self.starts(value, with: prefix) { mask.set(row) } }
        }
        return mask
    }

    /// Rows (non-null) equal to `value`.
    public func matches(equal value: String) throws -> RowMask {
        let bytes = Array(value.utf8)
        var mask = RowMask(count: count)
        try bytes.withUnsafeBytes { bytes in
            try forEachValue(within: RowMask(count: count, filled: true)) { row, stored in
                if stored.count == bytes.count, Self.starts(stored, with: bytes) { mask.set(row) }
            }
        }
        return mask
    }

    /// Whether `value` begins with `prefix`: a byte loop for short prefixes, where calling `memcmp` would cost
    /// more than the comparison.
    @inline(__always)
    static func starts(_ value: UnsafeRawBufferPointer, with prefix: UnsafeRawBufferPointer) -> Bool {
        guard value.count >= prefix.count else { return false }
        guard prefix.count > 16 else {
            for index in 0..<prefix.count where value[index] != prefix[index] { return false }
            return true
        }
        return ByteOrder.compare(UnsafeRawBufferPointer(rebasing: value[..<prefix.count]), prefix) == 0
    }
}
