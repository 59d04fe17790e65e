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
    let blockEncoding: BlockEncoding
    /// The column's block as stored, while no row of it has been read or changed through this buffer.
    ///
    /// Changing one object decodes its whole cluster, but usually touches one column: the others stay in this
    /// form and `ClusterBuffer.encode` copies them back byte for byte, instead of decoding every row (a string
    /// column costs an allocation per row) and encoding it again.
    ///
    /// A variable-size or 16-byte column also stays in this form while rows are only appended after the stored
    /// ones (a new object at the end of the last cluster, as every insert without a key, and the sync outbox's,
    /// makes): `blobs` and `nulls` then hold the appended rows only (``appendedRows``), and `ClusterBuffer.encode`
    /// writes the stored rows' bytes as they are with the appended ones after them (`ClusterBuffer+Appending`).
    /// Any other use of the rows decodes the stored block in front of the appended rows.
    // The stored state below is not checked for exclusive access at run time: a buffer belongs to one write
    // transaction, used by one thread at a time, and the whole test suite ran with the checks on without a
    // conflict; on a bulk insert the checks (begin/end access, a thread-local access set) took a fifth of the CPU.
    @exclusivity(unchecked) private(set) var stored: StoredBlock?
    @exclusivity(unchecked) private var wordStorage: [UInt64] = []
    @exclusivity(unchecked) private var blobStorage: [Blob] = []
    @exclusivity(unchecked) private var nullStorage: [Bool] = []

    /// Fixed-width values, one per row (decodes a stored block on first use).
    var words: [UInt64] {
        get { decodeStored(); return wordStorage }
        _modify { decodeStored(); yield &wordStorage }
    }
    /// Variable-size and 16-byte values, one per row (decodes a stored block on first use).
    var blobs: [Blob] {
        get { decodeStored(); return blobStorage }
        _modify { decodeStored(); yield &blobStorage }
    }
    /// One flag per row when the column keeps a null bitmap, else empty (decodes a stored block on first use).
    var nulls: [Bool] {
        get { decodeStored(); return nullStorage }
        _modify { decodeStored(); yield &nullStorage }
    }
    /// Bytes the values take in the cluster node (a long value, which goes to its own node, counts its 16-byte
    /// reference), maintained on every change so a cluster knows its size without walking its rows.
    @exclusivity(unchecked) private(set) var inlineBytes = 0
    /// `.packedInt` columns: the smallest and largest non-null value held (`low > high` when none), which give
    /// the packed width without a pass over the rows. Widened on every insert and change, never narrowed by a
    /// removal (the width then errs large: a cluster may split a little early, never late).
    @exclusivity(unchecked) private var low = Int64.max
    @exclusivity(unchecked) private var high = Int64.min

    /// What a value costs its cluster node.
    static func storedSize(_ blob: Blob) -> Int {
        blob.external.isNone ? storedSize(inline: blob.length) : 16
    }

    /// What `count` inline bytes cost their cluster node (beyond the threshold they move to their own node).
    static func storedSize(inline count: Int) -> Int { count > ClusterBuffer.externalThreshold ? 16 : count }

    init(spec: ColumnSpec) {
        self.spec = spec
        usesWords = spec.blockEncoding != .variable && spec.blockEncoding != .fixed16
        hasNullBitmap = spec.hasNullBitmap
        kind = spec.kind
        blockEncoding = spec.blockEncoding
    }

    /// Decodes the block of this column from a cluster view (or fills `rowCount` default values when the
    /// cluster has no block for it).
    convenience init(spec: ColumnSpec, block: ColumnBlock?, rowCount: Int) throws {
        self.init(spec: spec)
        guard let block else {
            for _ in 0..<rowCount { try append(spec.defaultValue) }
            return
        }
        guard block.kind == spec.blockEncoding else {
            throw NodeDamage.error(block.ref, "cluster column '\(spec.name)'",
                                   "holds a block of kind \(block.kind) but the column is \(spec.type)")
        }
        if !usesWords {
            // Check every value's extent now, so that decoding the copy later cannot meet damage; a value's
            // stored size is its inline bytes, or 16 for the reference to its own node.
            inlineBytes = try block.checkedStoredBytes(rowCount: rowCount)
        }
        stored = try StoredBlock(copying: block)
    }

    var count: Int { (stored?.block.count ?? 0) + (usesWords ? wordStorage.count : blobStorage.count) }

    /// While `stored` is set: the rows appended after the stored block's, as values and (when the column keeps a
    /// null bitmap) null flags. Empty for a word column, which decodes before any change.
    var appendedRows: (blobs: [Blob], nulls: [Bool]) { stored == nil ? ([], []) : (blobStorage, nullStorage) }

    /// Whether rows were appended after the stored block's while it is kept.
    var hasAppendedRows: Bool { stored != nil && !usesWords && !blobStorage.isEmpty }

    /// Replaces appended row `index` (counted from the first appended row) while `stored` is set: a long value
    /// moved to its own node as the cluster is encoded.
    func replaceAppended(at index: Int, with blob: Blob) {
        inlineBytes += ColumnBuffer.storedSize(blob) - ColumnBuffer.storedSize(blobStorage[index])
        blobStorage[index] = blob
    }

    /// Decodes the stored block into `words`/`blobs`/`nulls`, which every read or change of a row needs.
    @inline(__always)
    private func decodeStored() {
        // Inlined: called for each column of each insert, where the block is nearly always decoded already.
        if stored != nil { decodeStoredBlock() }
    }

    private func decodeStoredBlock() {
        guard let stored else { return }
        self.stored = nil
        let block = stored.block
        let rowCount = block.count
        // Rows appended while the block was kept follow its rows.
        let appendedNulls = nullStorage
        if hasNullBitmap { nullStorage = (0..<rowCount).map { block.isNull($0) } + appendedNulls }
        if usesWords {
            wordStorage = (0..<rowCount).map { block.word($0) } + wordStorage
            measureBounds()
            return
        }
        let appended = blobStorage
        blobStorage = []
        blobStorage.reserveCapacity(rowCount + appended.count)
        for row in 0..<rowCount { blobStorage.append(ColumnBuffer.storedBlob(block, row)) }
        blobStorage += appended
    }

    /// Appends a value already checked against the column's type.
    func append(_ value: StorageValue) throws {
        try insert(value, at: count)
    }

    /// Inserts a value at `row`.
    func insert(_ value: StorageValue, at row: Int) throws {
        // A value after the stored rows of a variable-size or 16-byte column keeps the block (see `stored`).
        var row = row
        if let stored, !usesWords, row == count {
            row -= stored.block.count
        } else {
            decodeStored()
        }
        // Encode first: a value of the wrong type then leaves the column as it was.
        if usesWords {
            let word = value.isNull ? 0 : try encodeWord(value)
            if blockEncoding == .packedInt, !value.isNull { widenBounds(word) }
            ColumnBuffer.put(word, at: row, in: &wordStorage)
            if hasNullBitmap { ColumnBuffer.put(value.isNull, at: row, in: &nullStorage) }
        } else {
            place(try encodeBlob(value), isNull: value.isNull, atAppendedOrDecoded: row)
        }
    }

    /// Inserts at `row` a value of a variable-size column that the caller encoded already (`blob`: the bytes
    /// ``insert(_:at:)`` would write for it, as an insert of an indexed set of strings encodes them once for the
    /// column and its element index); `isNull` for a null.
    func insert(encoded blob: Blob, isNull: Bool, at row: Int) {
        precondition(!usesWords, "column '\(spec.name)' holds fixed-width values, not encoded bytes")
        var row = row
        if let stored, row == count {
            row -= stored.block.count
        } else {
            decodeStored()
        }
        place(blob, isNull: isNull, atAppendedOrDecoded: row)
    }

    /// Puts an encoded value at `row` of `blobStorage` (counted after the stored block's rows while it is kept).
    @inline(__always)
    private func place(_ blob: Blob, isNull: Bool, atAppendedOrDecoded row: Int) {
        inlineBytes += ColumnBuffer.storedSize(blob)
        ColumnBuffer.put(blob, at: row, in: &blobStorage)
        if hasNullBitmap { ColumnBuffer.put(isNull, at: row, in: &nullStorage) }
    }

    /// Appends or inserts within one access to the array (each access to a class's property is checked for
    /// exclusivity at run time, and bulk inserts make millions).
    private static func put<Element>(_ element: Element, at row: Int, in array: inout [Element]) {
        if row == array.count { array.append(element) } else { array.insert(element, at: row) }
    }

    /// Replaces the value at `row`, returning a node that no longer holds anything reachable (to free).
    @discardableResult
    func set(_ value: StorageValue, at row: Int) throws -> NodeRef {
        let word = usesWords && !value.isNull ? try encodeWord(value) : 0
        let blob = usesWords ? Blob.empty : try encodeBlob(value)
        if hasNullBitmap { nulls[row] = value.isNull }
        if usesWords {
            words[row] = word
            if blockEncoding == .packedInt, !value.isNull { widenBounds(word) }
            return .none
        }
        let old = blobs[row].external
        replaceBlob(at: row, with: blob)
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

    /// Removes `rows` (ascending, distinct, each below `count`) in one pass, appending the nodes of their long
    /// values to `freed`. Removing every row drops the column's storage without decoding a stored block (only a
    /// variable-size block is read, for its long values); otherwise the kept rows move down once each, where
    /// `remove(at:)` per row would move the rows after it every time.
    func remove(rows: [Int], freeing freed: inout [NodeRef]) {
        guard !rows.isEmpty else { return }
        if rows.count == count {
            if let stored {
                if !usesWords, stored.block.kind == .variable {
                    for row in 0..<stored.block.count {
                        // `init(spec:block:rowCount:)` checked every row of this block.
                        if case .external(let ref, _)? = try? stored.block.blob(row) { freed.append(ref) }
                    }
                }
            }
            // Every row when nothing is stored, else the rows appended after the stored ones.
            if !usesWords {
                for blob in blobStorage where !blob.external.isNone { freed.append(blob.external) }
            }
            stored = nil
            wordStorage = []
            blobStorage = []
            nullStorage = []
            inlineBytes = 0
            low = .max
            high = .min
            return
        }
        decodeStored()
        if hasNullBitmap { ColumnBuffer.compact(&nullStorage, removing: rows) }
        if usesWords {
            ColumnBuffer.compact(&wordStorage, removing: rows)
            return
        }
        for row in rows {
            let blob = blobStorage[row]
            inlineBytes -= ColumnBuffer.storedSize(blob)
            if !blob.external.isNone { freed.append(blob.external) }
        }
        ColumnBuffer.compact(&blobStorage, removing: rows)
    }

    /// Drops the elements at `rows` (ascending, distinct) from `array`, moving each kept element once.
    static func compact<Element>(_ array: inout [Element], removing rows: [Int]) {
        var write = rows[0]
        var next = 0
        for read in rows[0]..<array.count {
            if next < rows.count, rows[next] == read {
                next += 1
                continue
            }
            array.swapAt(write, read)
            write += 1
        }
        array.removeSubrange(write...)
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
            measureBounds()
            upper.measureBounds()
        } else {
            upper.blobs = Array(blobs[row...])
            blobs.removeSubrange(row...)
            upper.inlineBytes = upper.blobs.reduce(0) { $0 + ColumnBuffer.storedSize($1) }
            inlineBytes -= upper.inlineBytes
        }
        return upper
    }

    /// Makes room for `rows` rows (decoding a stored block first).
    func reserveCapacity(_ rows: Int) {
        decodeStored()
        if usesWords { wordStorage.reserveCapacity(rows) } else { blobStorage.reserveCapacity(rows) }
        if hasNullBitmap { nullStorage.reserveCapacity(rows) }
    }

    /// Appends every row of `other` (for a cluster merge).
    func absorb(_ other: ColumnBuffer) {
        nulls += other.nulls
        words += other.words
        blobs += other.blobs
        inlineBytes += other.inlineBytes
        low = min(low, other.low)
        high = max(high, other.high)
    }

    /// Bytes this column's block takes in its cluster node once encoded (`ClusterBuffer.encode`): the stored
    /// block's own size while it is untouched, else worked out from the row count, the packed width and the
    /// inline bytes, without a pass over the rows (a bulk insert asks after every row).
    var encodedByteCount: Int {
        if let stored, usesWords || blobStorage.isEmpty { return stored.block.bytes.count }
        let count = self.count
        let width = blockEncoding == .packedInt && low <= high ? IntPacking.width(forRange: UInt64(bitPattern: high &- low)) : 0
        return ColumnBlock.byteCount(kind: blockEncoding, count: count, hasNulls: hasNullBitmap, width: width, variableBytes: inlineBytes)
    }

    /// Takes `word` (a non-null value of a `.packedInt` column) into the bounds.
    @inline(__always)
    private func widenBounds(_ word: UInt64) {
        let value = Int64(bitPattern: word)
        if value < low { low = value }
        if value > high { high = value }
    }

    /// Sets the bounds from the rows (after a decode or a split, which already touch every row).
    private func measureBounds() {
        low = .max
        high = .min
        guard blockEncoding == .packedInt else { return }
        for (row, word) in wordStorage.enumerated() where !(hasNullBitmap && nullStorage[row]) { widenBounds(word) }
    }

    /// Whether row `row` is null, read from the stored block while it is kept (no decoding).
    func isNull(_ row: Int) -> Bool {
        guard hasNullBitmap else { return false }
        if let stored {
            let storedRows = stored.block.count
            return row < storedRows ? stored.block.isNull(row) : nullStorage[row - storedRows]
        }
        return nullStorage[row]
    }

    /// Row `row`'s fixed-width word, read from the stored block while it is kept (no decoding).
    func word(at row: Int) -> UInt64 {
        if let stored { return stored.block.word(row) }
        return wordStorage[row]
    }

    /// Row `row`'s variable-size or 16-byte value, read from the stored block while it is kept: reading one row
    /// of a cluster decoded for change (the sync recorder reads the object a write just appended) then does not
    /// decode the whole column.
    func blob(at row: Int) -> Blob {
        guard let stored else { return blobStorage[row] }
        let storedRows = stored.block.count
        if row >= storedRows { return blobStorage[row - storedRows] }
        return ColumnBuffer.storedBlob(stored.block, row)
    }

    /// Row `row` of a stored block as a value. `init(spec:block:rowCount:)` checked every row of a kept block, so
    /// reading one cannot fail here.
    private static func storedBlob(_ block: ColumnBlock, _ row: Int) -> Blob {
        switch (try? block.blob(row)) ?? .inline(UnsafeRawBufferPointer(start: nil, count: 0)) {
        case .inline(let bytes): return Blob(Array(bytes))
        case .external(let ref, let length): return Blob(external: ref, length: length)
        }
    }

    private func encodeWord(_ value: StorageValue) throws -> UInt64 {
        guard let word = ValueCodec.word(value, kind: kind) else { throw typeMismatch(value) }
        return word
    }

    /// A value as a blob: a string keeps its `String` (see `Blob`), anything else its encoded bytes.
    private func encodeBlob(_ value: StorageValue) throws -> Blob {
        if case .string(let text) = value, case .value(.string) = spec.type { return Blob(text: text) }
        return Blob(try encodeBytes(value))
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
        case .set(let kind):
            guard case .list(let elements) = value else {
                if value.isNull { return [] }
                throw typeMismatch(value)
            }
            for element in elements where !ValueCodec.accepts(element, kind: kind, nullable: spec.elementsNullable) {
                throw typeMismatch(element)
            }
            return CollectionCodec.encodeSet(elements, kind: kind)
        case .map(let kind):
            guard case .map(let entries) = value else {
                if value.isNull { return [] }
                throw typeMismatch(value)
            }
            for element in entries.values where !ValueCodec.accepts(element, kind: kind, nullable: spec.elementsNullable) {
                throw typeMismatch(element)
            }
            return CollectionCodec.encodeMap(entries, kind: kind)
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

/// A column block copied out of its cluster node, with the parsed view over the copy.
///
/// A copy rather than the mapped node: the buffer may outlive the node's pages being handed out again.
final class StoredBlock {
    private let memory: UnsafeMutableRawBufferPointer
    /// The parsed block; its pointers point into `memory`.
    let block: ColumnBlock

    init(copying source: ColumnBlock) throws {
        memory = .allocate(byteCount: max(source.bytes.count, 1), alignment: 8)
        memory.copyMemory(from: source.bytes)
        do {
            block = try ColumnBlock(UnsafeRawBufferPointer(rebasing: memory[..<source.bytes.count]), ref: source.ref)
        } catch {
            memory.deallocate()
            throw error
        }
    }

    deinit { memory.deallocate() }
}
