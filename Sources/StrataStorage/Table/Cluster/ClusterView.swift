/// A read-only view of a cluster node in place: its object keys and its column blocks, validated.
///
/// Layout (docs/FILE-FORMAT.md, "The table layer's nodes"): magic, row count, column count, the keys block, a directory of
/// (column key, offset, length) and the blocks. Every block holds exactly `rowCount` rows.
struct ClusterView {
    static let magic: UInt32 = 0x314C_4353  // "SCL1"
    static let maxRowCount = 1 << 16

    let ref: NodeRef
    let rowCount: Int
    let keys: ColumnBlock
    private let raw: UnsafeRawBufferPointer
    private let directory: UnsafeRawPointer?
    let columnCount: Int

    init(_ raw: UnsafeRawBufferPointer, ref: NodeRef) throws {
        var reader = ByteReader(raw, ref: ref, what: "cluster")
        guard try reader.u32() == ClusterView.magic else { throw reader.damage("is not a cluster (wrong magic)") }
        rowCount = Int(try reader.u32())
        // Clusters split at `ClusterBuffer.maxRows`; a larger count is damage (and would make loops run for ages
        // over a constant, zero-width keys block).
        guard rowCount <= ClusterView.maxRowCount else { throw reader.damage("claims \(rowCount) rows") }
        columnCount = try reader.count(minimumItemSize: 16, label: "column count")
        _ = try reader.u32()
        let keysOffset = Int(try reader.u32())
        let keysLength = Int(try reader.u32())
        directory = try reader.slice(columnCount * 16).baseAddress
        self.raw = raw
        self.ref = ref
        guard keysOffset >= 0, keysLength >= 0, keysOffset + keysLength <= raw.count else {
            throw reader.damage("the keys block lies outside the node")
        }
        keys = try ColumnBlock(UnsafeRawBufferPointer(rebasing: raw[keysOffset..<keysOffset + keysLength]), ref: ref)
        guard keys.kind == .packedInt, keys.count == rowCount else {
            throw reader.damage("the keys block holds \(keys.count) rows, the cluster \(rowCount)")
        }
    }

    /// The column key of directory entry `index`.
    func columnKey(at index: Int) -> ColumnKey {
        ColumnKey(rawValue: UInt32(littleEndian: directory!.loadUnaligned(fromByteOffset: index * 16, as: UInt32.self)))
    }

    /// The block of `column`, `nil` when the cluster has none. `hint` is the directory index to try first.
    func block(_ column: ColumnKey, hint: Int = 0) throws -> ColumnBlock? {
        guard columnCount > 0 else { return nil }
        var index = hint < columnCount && columnKey(at: hint) == column ? hint : -1
        if index < 0 {
            for candidate in 0..<columnCount where columnKey(at: candidate) == column {
                index = candidate
                break
            }
        }
        guard index >= 0 else { return nil }
        return try block(at: index)
    }

    /// The block of directory entry `index`.
    func block(at index: Int) throws -> ColumnBlock {
        let entry = directory! + index * 16
        let offset = Int(UInt32(littleEndian: entry.loadUnaligned(fromByteOffset: 4, as: UInt32.self)))
        let length = Int(UInt32(littleEndian: entry.loadUnaligned(fromByteOffset: 8, as: UInt32.self)))
        guard offset + length <= raw.count else {
            throw NodeDamage.error(ref, "cluster", "column block \(index) lies outside the node")
        }
        let block = try ColumnBlock(UnsafeRawBufferPointer(rebasing: raw[offset..<offset + length]), ref: ref)
        guard block.count == rowCount else {
            throw NodeDamage.error(ref, "cluster", "column block \(index) holds \(block.count) rows, the cluster \(rowCount)")
        }
        return block
    }

    /// The object key of `row`.
    func key(at row: Int) -> Int64 { Int64(bitPattern: keys.word(row)) }

    /// The row holding `key`, or `nil`; given `anchor` (a row and its key, at or before `key`), only rows from the
    /// anchor on are searched.
    ///
    /// Keys rise strictly, by at least one a row, so `key` sits at most `key - first` rows after the first row (or
    /// the anchor) and at most `last - key` rows before the last. A binary search runs only between those bounds:
    /// in a cluster of consecutive keys (objects added in order, the usual case) they leave one row, found with
    /// two reads of the keys block instead of a dozen: the first key, then the row `key - first` rows on, which
    /// holds `key` exactly when no key between them is missing (keys rise strictly, so a row that holds `key`
    /// proves itself). Only when it does not is the last key read and the range searched. Keys out of order
    /// (damage) can only make the range empty: `nil`.
    func row(of key: Int64, after anchor: (row: Int, key: Int64)? = nil) -> Int? {
        guard rowCount > 0 else { return nil }
        let (firstRow, first) = anchor ?? (0, self.key(at: 0))
        guard firstRow >= 0, firstRow < rowCount, key >= first else { return nil }
        let afterFirst = UInt64(bitPattern: key &- first)
        if afterFirst < UInt64(rowCount - firstRow), self.key(at: firstRow + Int(afterFirst)) == key {
            return firstRow + Int(afterFirst)
        }
        let last = self.key(at: rowCount - 1)
        guard key <= last else { return nil }
        let beforeLast = UInt64(bitPattern: last &- key)
        let upper = afterFirst < UInt64(rowCount - firstRow) ? firstRow + Int(afterFirst) + 1 : rowCount
        let lower = beforeLast < UInt64(rowCount) ? max(firstRow, rowCount - 1 - Int(beforeLast)) : firstRow
        guard lower < upper else { return nil }
        let row = (lower..<upper).partitionIndex { self.key(at: $0) >= key }
        return row < upper && self.key(at: row) == key ? row : nil
    }
}

extension ClusterView {
    /// The nodes holding long values of this cluster (freed with it).
    func externalRefs() throws -> [NodeRef] {
        var refs: [NodeRef] = []
        for index in 0..<columnCount {
            let block = try block(at: index)
            guard block.kind == .variable else { continue }
            for row in 0..<block.count {
                if case .external(let ref, _) = try block.blob(row) { refs.append(ref) }
            }
        }
        return refs
    }
}
