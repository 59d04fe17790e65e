/// A cluster decoded for change during a write transaction: object keys plus one `ColumnBuffer` per column.
///
/// A cluster holds up to `maxRows` objects: the balance between scans, which pay a per-cluster setup (a lookup, a
/// block header), and small commits, which rewrite the whole cluster (it is one node: see docs/FILE-FORMAT.md,
/// "The table layer's nodes" for why columns share it). Measured on 1M small objects (strata-bench): 1,024 rows
/// scan fastest but a one-value commit writes 14 pages; 256 rows write 8 pages and leave less slack in the file,
/// but whole-table scans run at about 40 % of 1,024's speed; 512 rows keep scans at about 70 % (W2, W3 and the
/// indexed W3 stay ahead of SQLite) for a file about a tenth larger than 256's and commits close to its cost.
final class ClusterBuffer {
    /// The most rows a cluster holds before it splits.
    static let maxRows = 512
    /// Below this many rows a cluster merges with a neighbour (a quarter of `maxRows`).
    static let minRows = 64
    /// Values longer than this live in their own node, so a 1 MB string does not bloat its cluster's rewrites.
    static let externalThreshold = 1024
    /// Inline variable-size bytes beyond which a cluster splits even with fewer rows than `maxRows`.
    static let maxInlineBytes = 512 * 1024

    var keys: [Int64]
    var columns: [ColumnBuffer]
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

    var inlineBytes: Int {
        var total = 0
        for column in columns { total += column.inlineBytes }
        return total
    }

    var isOverfull: Bool { keys.count > ClusterBuffer.maxRows || (keys.count > 1 && inlineBytes > ClusterBuffer.maxInlineBytes) }

    /// Moves the upper half of the rows into a new cluster.
    func splitOff() -> Self {
        let row = lastInsertWasAppend && keys.count == ClusterBuffer.maxRows + 1 ? ClusterBuffer.maxRows : keys.count / 2
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

    /// Every node a long value of this cluster lives in.
    var externalRefs: [NodeRef] {
        columns.flatMap { column in column.blobs.compactMap { $0.external.isNone ? nil : $0.external } }
    }

    // MARK: Encoding

    /// Writes the cluster to a new node (and long values to their own nodes) and returns it.
    func encode(in writer: NodeWriter) throws -> NodeRef {
        var out = ByteWriter(capacity: 64 + keys.count * (8 + columns.count * 8))
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

    private static func writeHeader(_ kind: BlockKind, count: Int, nulls: [Bool]?, into out: inout ByteWriter) {
        out.u8(kind.rawValue)
        out.u8(nulls == nil ? 0 : 1)
        out.u16(0)
        out.u32(UInt32(count))
        if let nulls { writeBits(nulls.lazy.map { $0 }, count: count, into: &out) }
    }

    private static func writeBits<C: Collection>(_ flags: C, count: Int, into out: inout ByteWriter) where C.Element == Bool {
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
            // Untouched since it was read: the stored block is already this column's encoding.
            out.append(stored.block.bytes)
            return
        }
        let count = column.count
        let nulls: [Bool]? = column.spec.hasNullBitmap ? column.nulls : nil
        switch column.spec.blockKind {
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
            ClusterBuffer.writeHeader(.variable, count: count, nulls: nulls, into: &out)
            for row in 0..<count where column.blobs[row].external.isNone
                && column.blobs[row].length > ClusterBuffer.externalThreshold {
                let ref = try ByteWriter(bytes: column.blobs[row].bytes).store(in: writer)
                column.replaceBlob(at: row, with: Blob(external: ref, length: column.blobs[row].length))
            }
            ClusterBuffer.writeBits(column.blobs.lazy.map { !$0.external.isNone }, count: count, into: &out)
            var end: UInt32 = 0
            for blob in column.blobs {
                end += UInt32(blob.external.isNone ? blob.length : 16)
                out.u32(end)
            }
            out.align(8)
            for blob in column.blobs {
                if blob.external.isNone {
                    blob.withBytes { out.append($0) }
                } else {
                    out.u64(blob.external.rawValue)
                    out.u64(UInt64(blob.length))
                }
            }
        }
    }
}

extension ByteWriter {
    init(bytes: [UInt8]) { self.bytes = bytes }
}
