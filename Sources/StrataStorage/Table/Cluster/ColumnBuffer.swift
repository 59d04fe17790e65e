/// A variable-size value while a cluster is being changed: its bytes, or the node already holding it.
struct Blob: Equatable {
    /// The bytes (empty when `external` is set).
    var bytes: [UInt8]
    /// The node holding a long value, `.none` when the bytes are here.
    var external: NodeRef = .none
    /// The value's length in bytes.
    var length: Int

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        length = bytes.count
    }

    init(external: NodeRef, length: Int) {
        bytes = []
        self.external = external
        self.length = length
    }

    static let empty = Blob([])
}

/// One column of a cluster in decoded, mutable form (during a write transaction only).
///
/// Fixed-width kinds live in `words` (ints, timestamps and links as their bit pattern, bools as 0/1, floats and
/// doubles as their IEEE bit pattern); UUIDs, strings, binary, lists and backlinks in `blobs`.
final class ColumnBuffer {
    let spec: ColumnSpec
    /// Cached from `spec`: read on every row change, where copying the spec would cost retains.
    let usesWords: Bool
    let hasNullBitmap: Bool
    let kind: ValueKind
    var words: [UInt64] = []
    var blobs: [Blob] = []
    /// One flag per row when the column keeps a null bitmap, else empty.
    var nulls: [Bool] = []
    /// Bytes the values take in the cluster node (a long value, which goes to its own node, counts its 16-byte
    /// reference), maintained on every change so a cluster knows its size without walking its rows.
    private(set) var inlineBytes = 0

    /// What a value costs its cluster node.
    static func storedSize(_ blob: Blob) -> Int {
        !blob.external.isNone || blob.bytes.count > ClusterBuffer.externalThreshold ? 16 : blob.bytes.count
    }

    init(spec: ColumnSpec) {
        self.spec = spec
        usesWords = spec.blockKind != .variable && spec.blockKind != .fixed16
        hasNullBitmap = spec.hasNullBitmap
        kind = spec.kind
    }

    /// Decodes the block of this column from a cluster view (or fills `rowCount` default values when the
    /// cluster has no block for it).
    convenience init(spec: ColumnSpec, block: ColumnBlock?, rowCount: Int) throws {
        self.init(spec: spec)
        guard let block else {
            for _ in 0..<rowCount { try append(spec.defaultValue) }
            return
        }
        guard block.kind == spec.blockKind else {
            throw NodeDamage.error(block.ref, "cluster column '\(spec.name)'",
                                   "holds a block of kind \(block.kind) but the column is \(spec.type)")
        }
        if hasNullBitmap { nulls = (0..<rowCount).map { block.isNull($0) } }
        if usesWords {
            words = (0..<rowCount).map { block.word($0) }
        } else {
            blobs.reserveCapacity(rowCount)
            for row in 0..<rowCount {
                switch try block.blob(row) {
                case .inline(let bytes):
                    blobs.append(Blob(Array(bytes)))
                    inlineBytes += ColumnBuffer.storedSize(blobs[row])
                case .external(let ref, let length):
                    blobs.append(Blob(external: ref, length: length))
                    inlineBytes += 16
                }
            }
        }
    }

    var count: Int { usesWords ? words.count : blobs.count }

    /// Appends a value already checked against the column's type.
    func append(_ value: StorageValue) throws {
        try insert(value, at: count)
    }

    /// Inserts a value at `row`.
    func insert(_ value: StorageValue, at row: Int) throws {
        if hasNullBitmap { nulls.insert(value.isNull, at: row) }
        if usesWords {
            words.insert(value.isNull ? 0 : try encodeWord(value), at: row)
        } else {
            let blob = Blob(try encodeBytes(value))
            inlineBytes += ColumnBuffer.storedSize(blob)
            blobs.insert(blob, at: row)
        }
    }

    /// Replaces the value at `row`, returning a node that no longer holds anything reachable (to free).
    @discardableResult
    func set(_ value: StorageValue, at row: Int) throws -> NodeRef {
        let word = usesWords && !value.isNull ? try encodeWord(value) : 0
        let bytes = usesWords ? [] : try encodeBytes(value)
        if hasNullBitmap { nulls[row] = value.isNull }
        if usesWords {
            words[row] = word
            return .none
        }
        let old = blobs[row].external
        replaceBlob(at: row, with: Blob(bytes))
        return old
    }

    /// Removes `row`, returning the node of its long value if it had one (to free).
    func remove(at row: Int) -> NodeRef {
        if hasNullBitmap { nulls.remove(at: row) }
        if usesWords {
            words.remove(at: row)
            return .none
        }
        let removed = blobs.remove(at: row)
        inlineBytes -= ColumnBuffer.storedSize(removed)
        return removed.external
    }

    /// Replaces a variable-size value wholesale (backlink upkeep, moving a long value to its own node).
    func replaceBlob(at row: Int, with blob: Blob) {
        inlineBytes += ColumnBuffer.storedSize(blob) - ColumnBuffer.storedSize(blobs[row])
        blobs[row] = blob
    }

    /// Moves rows `from...` into a new buffer (for a cluster split).
    func splitOff(from row: Int) -> ColumnBuffer {
        let upper = ColumnBuffer(spec: spec)
        if hasNullBitmap {
            upper.nulls = Array(nulls[row...])
            nulls.removeSubrange(row...)
        }
        if usesWords {
            upper.words = Array(words[row...])
            words.removeSubrange(row...)
        } else {
            upper.blobs = Array(blobs[row...])
            blobs.removeSubrange(row...)
            upper.inlineBytes = upper.blobs.reduce(0) { $0 + ColumnBuffer.storedSize($1) }
            inlineBytes -= upper.inlineBytes
        }
        return upper
    }

    /// Appends every row of `other` (for a cluster merge).
    func absorb(_ other: ColumnBuffer) {
        nulls += other.nulls
        words += other.words
        blobs += other.blobs
        inlineBytes += other.inlineBytes
    }

    func isNull(_ row: Int) -> Bool { hasNullBitmap && nulls[row] }

    private func encodeWord(_ value: StorageValue) throws -> UInt64 {
        guard let word = ValueCodec.word(value, kind: kind) else { throw typeMismatch(value) }
        return word
    }

    private func encodeBytes(_ value: StorageValue) throws -> [UInt8] {
        switch spec.type {
        case .list(let kind):
            guard case .list(let elements) = value else {
                if value.isNull { return [] }
                throw typeMismatch(value)
            }
            for element in elements where !ValueCodec.accepts(element, kind: kind, nullable: spec.elementsNullable) {
                throw typeMismatch(element)
            }
            return elements.isEmpty ? [] : ValueCodec.encodeList(elements, kind: kind)
        case .backlinks:
            return []
        case .value(let kind):
            if value.isNull { return [] }
            guard let bytes = ValueCodec.bytes(value, kind: kind) else { throw typeMismatch(value) }
            return bytes
        }
    }

    private func typeMismatch(_ value: StorageValue) -> StrataError {
        .invalidArgument("column '\(spec.name)' holds \(spec.type)\(spec.isNullable ? "?" : ""), not \(value); "
            + "pass a value of the column's type")
    }
}
