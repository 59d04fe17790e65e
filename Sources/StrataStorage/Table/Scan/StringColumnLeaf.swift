/// A string or binary column of one cluster, read in place; long values are read from their own nodes.
public struct StringColumnLeaf {
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

    /// Whether `row` starts with `prefix`, comparing raw UTF-8 bytes (no String is built).
    public func hasPrefix(_ row: Int, _ prefix: [UInt8]) throws -> Bool {
        let value = try bytes(row)
        guard value.count >= prefix.count, !nulls.isNull(row) else { return false }
        return prefix.withUnsafeBytes { ByteOrder.compare(UnsafeRawBufferPointer(rebasing: value[..<prefix.count]), $0) == 0 }
    }

    /// Rows (non-null) starting with `prefix`.
    public func matches(prefix: String) throws -> RowMask {
        let bytes = Array(prefix.utf8)
        var mask = RowMask(count: count)
        for row in 0..<count where try hasPrefix(row, bytes) { mask.words[row >> 6] |= 1 << UInt64(row & 63) }
        return mask
    }

    /// Rows (non-null) equal to `value`.
    public func matches(equal value: String) throws -> RowMask {
        let bytes = Array(value.utf8)
        var mask = RowMask(count: count)
        for row in 0..<count where !nulls.isNull(row) {
            let stored = try self.bytes(row)
            if stored.count == bytes.count, try hasPrefix(row, bytes) { mask.words[row >> 6] |= 1 << UInt64(row & 63) }
        }
        return mask
    }
}
