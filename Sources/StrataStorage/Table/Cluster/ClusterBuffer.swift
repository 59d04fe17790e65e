/// A cluster decoded for change during a write transaction: object keys plus one `ColumnBuffer` per column.
///
/// A cluster splits when its node would pass `maxEncodedBytes` (16 KiB with the node header: four 4 KiB pages,
/// filled): the balance between scans, which pay a per-cluster setup (a lookup, a block header), and small commits,
/// which rewrite the whole cluster (it is one node: see docs/FILE-FORMAT.md, "The table layer's nodes" for why
/// columns share it). Measured on 1M small objects (strata-bench): 1,024 rows scan fastest but a one-value commit
/// writes 14 pages; 256 rows write 8 pages but whole-table scans run at about 40 % of 1,024's speed; 512 rows
/// (about 14 KiB of those objects) kept scans at about 70 %. Counting bytes instead of rows fills the four pages
/// whatever the row width (a fixed row count left an eighth of them empty for the benchmark's objects, and let
/// wide rows take many pages per commit).
final class ClusterBuffer {
    /// The most payload bytes a cluster node takes before the cluster splits: 16 KiB less the node header and the
    /// seal an encrypted node carries, so a full cluster spans four pages encrypted or not.
    static let maxEncodedBytes = 16 * 1024 - NodeHeader.byteCount - NodeCipher.sealByteCount
    /// Below a quarter of `maxEncodedBytes` a cluster merges with a neighbour.
    static let minEncodedBytes = maxEncodedBytes / 4
    /// The most rows a cluster holds whatever their size: readers refuse more (`ClusterView.maxRowCount`).
    static let maxRows = ClusterView.maxRowCount
    /// Values longer than this live in their own node, so a 1 MB string does not bloat its cluster's rewrites.
    static let externalThreshold = 1024

    // Not checked for exclusive access at run time, for the reason `ColumnBuffer` gives.
    @exclusivity(unchecked) var keys: [Int64]
    @exclusivity(unchecked) var columns: [ColumnBuffer]
    /// The node this cluster was read from (`.none` for a new one); freed when the cluster is rewritten.
    var origin: NodeRef = .none
    var isDirty = false

    /// Set when the last insert went after every existing key: a split then leaves this cluster full and starts
    /// a new one (bulk inserts fill clusters completely instead of half).
    var lastInsertWasAppend = false

    required init(keys: [Int64] = [], columns: [ColumnBuffer]) {
        self.keys = keys
        self.columns = columns
    }

    /// Decodes the cluster at `ref` for the table's current `specs`.
    required init(view: ClusterView, specs: [ColumnSpec]) throws {
        keys = (0..<view.rowCount).map { view.key(at: $0) }
        var columns: [ColumnBuffer] = []
        for (index, spec) in specs.enumerated() {
            columns.append(try ColumnBuffer(spec: spec, block: try view.block(spec.key, hint: index), rowCount: view.rowCount))
        }
        self.columns = columns
        origin = view.ref
    }

    var rowCount: Int { keys.count }

    /// The row of `key`, or where it would go (`found` false).
    func position(of key: Int64) -> (row: Int, found: Bool) {
        let row = keys.partitionIndex { $0 >= key }
        return (row, row < keys.count && keys[row] == key)
    }

    /// Payload bytes of the node `encode` writes for this cluster (an upper bound when rows were removed since
    /// the columns were decoded: see `ColumnBuffer.encodedByteCount`).
    var encodedByteCount: Int {
        var total = ClusterBuffer.align(ClusterBuffer.fixedHeaderBytes + columns.count * 16)
        let keyRange = keys.last.map { UInt64(bitPattern: $0 &- keys[0]) } ?? 0
        total += ColumnBlock.byteCount(kind: .packedInt, count: keys.count, hasNulls: false,
                                       width: IntPacking.width(forRange: keyRange))
        for column in columns { total = ClusterBuffer.align(total) + column.encodedByteCount }
        return total
    }

    /// Bytes of the cluster node's header: magic, row count, column count, a reserved word, the keys block's
    /// offset and length.
    private static let fixedHeaderBytes = 24

    private static func align(_ offset: Int) -> Int { (offset + 7) & ~7 }

    var fill: LeafFill {
        let bytes = encodedByteCount
        if keys.count > 1 && (keys.count > ClusterBuffer.maxRows || bytes > ClusterBuffer.maxEncodedBytes) {
            return .overfull
        }
        return bytes < ClusterBuffer.minEncodedBytes ? .underfull : .fitting
    }

    /// Moves rows into a new cluster: after an append, only the appended row (this cluster stays full, and a bulk
    /// insert fills clusters completely); else, or when the rows before the append no longer fit either (a value
    /// grew since, such as a backlink added), the upper half.
    func splitOff() -> Self {
        if lastInsertWasAppend {
            lastInsertWasAppend = false
            let upper = split(at: keys.count - 1)
            if !isOverfull {
                // A bulk load fills the next cluster about as far as this one: room for that many rows (and an
                // eighth more) up front, instead of arrays growing by doubling, which left up to half of each
                // decoded cluster's memory unused while a transaction holds dozens of them.
                upper.reserveCapacity(keys.count + keys.count / 8)
                return upper
            }
            absorb(upper)
        }
        return split(at: keys.count / 2)
    }

    /// Makes room for `rows` rows in the keys and every column.
    func reserveCapacity(_ rows: Int) {
        keys.reserveCapacity(rows)
        for column in columns { column.reserveCapacity(rows) }
    }

    private func split(at row: Int) -> Self {
        let upper = Self(keys: Array(keys[row...]), columns: columns.map { $0.splitOff(from: row) })
        keys.removeSubrange(row...)
        upper.isDirty = true
        isDirty = true
        return upper
    }

    /// Appends the rows of `other`, whose keys all follow this cluster's.
    func absorb(_ other: ClusterBuffer) {
        keys += other.keys
        for (column, source) in zip(columns, other.columns) { column.absorb(source) }
        isDirty = true
    }

    /// Removes `rows` (ascending, distinct) from the keys and every column in one pass each, and returns the nodes
    /// of their long values (to free): a batched delete's rows of one cluster (`Table.delete(_:alongWith:)` for
    /// many keys).
    func remove(rows: [Int]) -> [NodeRef] {
        guard !rows.isEmpty else { return [] }
        var freed: [NodeRef] = []
        if rows.count == keys.count { keys = [] } else { ColumnBuffer.compact(&keys, removing: rows) }
        for column in columns { column.remove(rows: rows, freeing: &freed) }
        isDirty = true
        return freed
    }

    /// Every node a long value of this cluster lives in.
    var externalRefs: [NodeRef] {
        columns.flatMap { column in column.blobs.compactMap { $0.external.isNone ? nil : $0.external } }
    }

    // MARK: Encoding

    /// Writes the cluster to a new node (and long values to their own nodes) and returns it.
    func encode(in writer: NodeWriter) throws -> NodeRef {
        var out = ByteWriter(capacity: encodedByteCount)
        out.u32(ClusterView.magic)
        out.u32(UInt32(keys.count))
        out.u32(UInt32(columns.count))
        out.u32(0)
        let keysHeader = out.bytes.count
        out.u32(0)
        out.u32(0)
        let directory = out.bytes.count
        out.zeros(columns.count * 16)
        out.align(8)
        var start = out.bytes.count
        ClusterBuffer.writeInts(keys, nulls: nil, into: &out)
        out.patchU32(UInt32(start), at: keysHeader)
        out.patchU32(UInt32(out.bytes.count - start), at: keysHeader + 4)
        for (index, column) in columns.enumerated() {
            out.align(8)
            start = out.bytes.count
            try write(column, into: &out, writer: writer)
            out.patchU32(column.spec.key.rawValue, at: directory + index * 16)
            out.patchU32(UInt32(start), at: directory + index * 16 + 4)
            out.patchU32(UInt32(out.bytes.count - start), at: directory + index * 16 + 8)
        }
        return try out.store(in: writer)
    }

    private static func writeHeader(_ kind: BlockEncoding, count: Int, nulls: [Bool]?, into out: inout ByteWriter) {
        writeHeader(tag: kind.rawValue, count: count, nulls: nulls, into: &out)
    }

    static func writeHeader(tag: UInt8, count: Int, nulls: [Bool]?, into out: inout ByteWriter) {
        out.u8(tag)
        out.u8(nulls == nil ? 0 : 1)
        out.u16(0)
        out.u32(UInt32(count))
        if let nulls { writeBits(nulls.lazy.map { $0 }, count: count, into: &out) }
    }

    /// Writes a variable-size block's packed end offsets: their width, seven zero bytes, then the offsets
    /// (docs/FILE-FORMAT.md, "Column blocks"). Inline values are at most `externalThreshold` bytes and a cluster
    /// at most `maxRows` rows: the area stays far below 4 GiB, so the width is at most 32 (readers refuse 64).
    static func writePackedEnds(_ ends: [Int64], into out: inout ByteWriter) {
        let width = IntPacking.width(forRange: UInt64(ends.last ?? 0))
        out.u8(UInt8(width))
        out.zeros(7)
        IntPacking.pack(ends, base: 0, width: width, into: &out)
    }

    /// Writes one value into a variable-size block's byte area: its own bytes, or a long value's node reference
    /// and length.
    static func writeAreaValue(_ blob: Blob, into out: inout ByteWriter) {
        if blob.external.isNone {
            blob.withBytes { out.raw($0) }
        } else {
            out.u64(blob.external.rawValue)
            out.u64(UInt64(blob.length))
        }
    }

    static func writeBits<C: Collection>(_ flags: C, count: Int, into out: inout ByteWriter) where C.Element == Bool {
        var word: UInt64 = 0
        var index = 0
        for flag in flags {
            if flag { word |= 1 << UInt64(index & 63) }
            index += 1
            if index & 63 == 0 {
                out.u64(word)
                word = 0
            }
        }
        if index & 63 != 0 { out.u64(word) }
    }

    private static func writeInts(_ values: [Int64], nulls: [Bool]?, into out: inout ByteWriter) {
        writeHeader(.packedInt, count: values.count, nulls: nulls, into: &out)
        let frame = IntPacking.frame(of: values)
        out.u8(UInt8(frame.width))
        out.zeros(7)
        out.i64(frame.base)
        IntPacking.pack(values, base: frame.base, width: frame.width, into: &out)
    }

    private func write(_ column: ColumnBuffer, into out: inout ByteWriter, writer: NodeWriter) throws {
        if let stored = column.stored {
            if column.hasAppendedRows {
                // Rows appended after the stored ones: their bytes as they are, the new rows after them.
                try ClusterBuffer.writeAppended(column, stored: stored.block, into: &out, writer: writer)
                return
            }
            // Untouched since it was read: the stored block is already this column's encoding.
            out.raw(stored.block.bytes)
            return
        }
        let count = column.count
        let nulls: [Bool]? = column.spec.hasNullBitmap ? column.nulls : nil
        switch column.spec.blockEncoding {
        case .packedInt:
            // Nulls pack as the frame's base so they never widen the leaf.
            var values = column.words.map { Int64(bitPattern: $0) }
            if let nulls, let fill = zip(values, nulls).first(where: { !$0.1 })?.0 {
                for index in values.indices where nulls[index] { values[index] = fill }
            }
            ClusterBuffer.writeInts(values, nulls: nulls, into: &out)
        case .bits:
            ClusterBuffer.writeHeader(.bits, count: count, nulls: nulls, into: &out)
            ClusterBuffer.writeBits(column.words.lazy.map { $0 != 0 }, count: count, into: &out)
        case .float32:
            ClusterBuffer.writeHeader(.float32, count: count, nulls: nulls, into: &out)
            for word in column.words { out.u32(UInt32(truncatingIfNeeded: word)) }
            out.align(8)
        case .float64:
            ClusterBuffer.writeHeader(.float64, count: count, nulls: nulls, into: &out)
            out.u64s(column.words)
        case .fixed16:
            ClusterBuffer.writeHeader(.fixed16, count: count, nulls: nulls, into: &out)
            for blob in column.blobs {
                out.append(blob.bytes.prefix(16))
                if blob.bytes.count < 16 { out.zeros(16 - blob.bytes.count) }
            }
        case .variable:
            // Always the packed-ends layout: 2 bytes an offset below 64 KiB instead of 4 (docs/FILE-FORMAT.md).
            ClusterBuffer.writeHeader(tag: BlockEncoding.packedEndsTag, count: count, nulls: nulls, into: &out)
            // Long values to their own nodes first; the rows found reading the values in place (nearly always
            // none).
            var long: [Int] = []
            column.blobs.withUnsafeBufferPointer { rows in
                for row in rows.indices
                where !rows[row].isExternal && rows[row].length > ClusterBuffer.externalThreshold {
                    long.append(row)
                }
            }
            for row in long {
                let ref = try ByteWriter(bytes: column.blobs[row].bytes).store(in: writer)
                column.replaceBlob(at: row, with: Blob(external: ref, length: column.blobs[row].length))
            }
            ClusterBuffer.writeVariableRows(column.blobs, into: &out)
        }
    }

    /// Writes the rows of a variable-size block after its header: which rows are external, the packed end
    /// offsets, then the byte area. The flags and the ends come from one pass over `blobs` read in place, the
    /// bytes from a second: going through a lazy map and two loops over the column's array copied each value
    /// (a retain and a release of its string or bytes) three times, while a bulk insert writes every cluster out.
    static func writeVariableRows(_ blobs: [Blob], into out: inout ByteWriter) {
        var ends: [Int64] = []
        ends.reserveCapacity(blobs.count)
        blobs.withUnsafeBufferPointer { rows in
            var word: UInt64 = 0
            var end: Int64 = 0
            for index in rows.indices {
                let external = rows[index].isExternal
                if external { word |= 1 << UInt64(index & 63) }
                if index & 63 == 63 {
                    out.u64(word)
                    word = 0
                }
                end += external ? 16 : Int64(rows[index].length)
                ends.append(end)
            }
            if rows.count & 63 != 0 { out.u64(word) }
            ClusterBuffer.writePackedEnds(ends, into: &out)
            for index in rows.indices { ClusterBuffer.writeAreaValue(rows[index], into: &out) }
        }
    }
}

extension ByteWriter {
    init(bytes: [UInt8]) { self.bytes = bytes }
}
