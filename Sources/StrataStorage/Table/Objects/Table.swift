#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One table of the catalog: objects keyed by `ObjectKey`, stored column-wise in clusters of a copy-on-write tree.
///
/// Obtain tables from a `Catalog`, and keep the catalog while using them: a table refers to its catalog without
/// owning it, and using a table whose catalog is gone stops the process. A table opened through a `NodeWriter`
/// can change; one opened through a `NodeReader` only reads. Reads of a stored cluster work in place on its node;
/// a change decodes the cluster (`ClusterBuffer`), which the catalog's `flush()` writes back.
public final class Table {
    /// The table's stable identity.
    public let key: TableKey
    /// The table's name (unique in the catalog).
    public internal(set) var name: String
    /// Every column, including the engine's backlink columns (`type == .backlinks`), in storage order.
    public var columns: [ColumnSpec] { context.specs }
    /// The primary-key column, if the table has one.
    public internal(set) var primaryKey: ColumnKey?
    /// The key the next inserted object gets.
    /// Not checked for exclusive access at run time (nor `indexes` and `columnOrder` below), for the reason the
    /// read caches further down give: every insert touches them.
    @exclusivity(unchecked) package internal(set) var nextObjectKey: Int64
    /// Named integer sequences (for example the next `auto` primary key).
    var sequences: [String: Int64]
    var nextColumnKey: UInt32
    var nextIndexKey: UInt32
    /// Whether the table holds embedded objects, each owned by exactly one link or list element (see
    /// `Table+Embedded.swift`); changed with ``setEmbedded(_:)``.
    package internal(set) var isEmbedded: Bool
    @exclusivity(unchecked) var indexes: [SortedIndex]

    let context: ClusterContext
    let tree: ClusterTree
    unowned let catalog: Catalog
    /// Whether the table belongs to a read transaction (its catalog has no writer, for its whole life): stored
    /// clusters then never change, so the last cluster read and its decoded blocks can be kept. Kept here
    /// because every property read asks, and reaching the catalog through its unowned reference costs more.
    private let readsOnly: Bool
    // The four read caches below are not checked for exclusive access at run time: a table belongs to one
    // transaction, used by one thread at a time, and they are only read and assigned whole (never held `inout`
    // across a call), so no two accesses can overlap; the check cost a tenth of reading a property.

    /// The stored cluster the last read found, in a read transaction (where clusters never change): reads in key
    /// order, as results iterate, then find their row without descending the tree again.
    @exclusivity(unchecked) private var lastReadCluster: ClusterView? {
        didSet {
            // Cleared at once by a new stamp: a result's reads move from cluster to cluster.
            keptBlocks.clear()
            lastReadRef = lastReadCluster?.ref
            lastReadRowCount = lastReadCluster?.rowCount ?? 0
            lastReadRow = nil
            lastReadBounds = (nil, nil)
        }
    }
    /// The first and the last key of `lastReadCluster`, each once read (the last may instead be one below the
    /// separator that followed the cluster on the tree's descent: no key of the table lies between the two): a read
    /// by key that the cluster does not hold, as a lookup of a key anywhere in the table usually is, is told so
    /// without reading the cluster's keys again (by the next lookup their lines have left the caches).
    @exclusivity(unchecked) private var lastReadBounds: (first: Int64?, last: Int64?) = (nil, nil)
    /// `lastReadCluster`'s node and row count, read without copying the view.
    @exclusivity(unchecked) private var lastReadRef: NodeRef?
    @exclusivity(unchecked) private var lastReadRowCount = 0
    /// The last key found in `lastReadCluster` and its row: reading several properties of one object finds the
    /// row once.
    @exclusivity(unchecked) private var lastReadRow: (key: Int64, row: Int)?
    /// Column blocks of `lastReadCluster` decoded so far, by storage position: reading the name and the salary of
    /// each object of a result decodes each block once per cluster, not once per object, and reads it in place.
    /// No slots outside a read transaction.
    private let keptBlocks: KeptBlocks
    /// A read transaction's columns in storage order, each with whether it holds strings: taken once from the
    /// context (a table without a writer never changes its columns), because every property read looks its
    /// column up, and reading the context's arrays costs a run-time exclusivity check (and a copy of the spec).
    @exclusivity(unchecked) private var readColumns: [(key: ColumnKey, isString: Bool)] = []
    /// A read transaction's storage position of each column, by the column key's number (`-1` for a number no
    /// column has): a property read finds its column with one array read instead of searching `readColumns`.
    /// Empty for a table whose column numbers run past ``readPositionLimit`` (then `readColumns` is searched).
    @exclusivity(unchecked) private var readPositions: [Int32] = []
    /// The largest column number ``readPositions`` covers.
    private static let readPositionLimit = 4_096
    /// The last `positions(of:)` answer, with the table's column keys it was computed for: one reference, so that
    /// checking it on every insert retains one object, not its three arrays.
    @exclusivity(unchecked) private var columnOrder: ColumnOrder?
    /// A row array an insert of an object with new embedded objects gave back, every value reset to the
    /// column's default (``takeDefaultRow()``, ``giveBack(row:)``), with the column keys it was made for: an
    /// object whose values are not a whole row (an embedded object has a backlinks column, its owner a link
    /// column, that the object layer does not pass) is filled into it instead of into a new copy of the defaults.
    @exclusivity(unchecked) private var spareRow: [StorageValue] = []
    @exclusivity(unchecked) private var spareRowKeys: [ColumnKey] = []
    var reader: NodeReader { catalog.reader }
    var writer: NodeWriter? { catalog.writer }

    /// The table's default row, to fill in with a new object's values: the spare row an earlier insert gave back
    /// when it was made for the table's current columns, else a copy of the context's default row.
    func takeDefaultRow() -> [StorageValue] {
        guard !spareRow.isEmpty, spareRowKeys == context.keys else { return context.defaultRow }
        defer { spareRow = [] }
        return spareRow
    }

    /// Keeps `row` (a row ``takeDefaultRow()`` gave, placed since) for the next insert, each value reset to its
    /// column's default; `row` is left empty. Resetting a handful of columns in place costs less than the
    /// allocation and the copy of the defaults it saves.
    func giveBack(row: inout [StorageValue]) {
        let defaults = context.defaultRow
        guard row.count == defaults.count, !row.isEmpty else { return }
        for position in row.indices { row[position] = defaults[position] }
        spareRowKeys = context.keys
        swap(&spareRow, &row)
        row = []
    }

    init(record: TableRecord, catalog: Catalog) {
        key = record.key
        name = record.name
        primaryKey = record.primaryKey
        nextObjectKey = record.nextObjectKey
        sequences = record.sequences
        nextColumnKey = record.nextColumnKey
        nextIndexKey = record.nextIndexKey
        isEmbedded = record.isEmbedded
        context = ClusterContext(specs: record.columns)
        self.catalog = catalog
        readsOnly = catalog.writer == nil
        keptBlocks = KeptBlocks(count: readsOnly ? context.keys.count : 0)
        tree = NodeTree(root: record.clusterRoot, reader: catalog.reader, context: context, what: "clusters of table '\(record.name)'")
        indexes = record.indexes.map { [tree] in
            SortedIndex(spec: $0.spec, root: $0.root, reader: catalog.reader, table: record.name, impliedBy: $0.implied ? tree : nil,
                        mixed: Table.mixedFlags($0.spec.columns, record.columns),
                        indexesElements: Table.isElementIndex($0.spec.columns, record.columns))
        }
        if readsOnly {
            // A read transaction's nodes never change: each tree keeps the branches it reads (a lookup in a loop
            // then reads its index's and its clusters' inner branches once, not once per lookup).
            tree.cacheStoredBranches()
            for index in indexes { index.nodes.cacheStoredBranches() }
        }
    }

    // MARK: Columns

    /// The column named `name`.
    public func column(named name: String) -> ColumnSpec? { columns.first { $0.name == name } }

    /// The column with key `column`.
    public func column(_ column: ColumnKey) -> ColumnSpec? { columns.first { $0.key == column } }

    /// The storage position of a column, or an error naming the table.
    func position(of column: ColumnKey) throws -> Int {
        guard let index = context.keys.firstIndex(of: column) else { throw unknownColumn(column) }
        return index
    }

    func unknownColumn(_ column: ColumnKey) -> StrataError {
        .invalidArgument("table '\(name)' has no column \(column); look columns up with `column(named:)`")
    }

    /// The storage positions of `columns`, and whether they are every column in storage order (values in that
    /// order are then a whole row as they are). Kept for the next call with the same columns (and the same
    /// table columns): the object layer inserts each object of a model with the same column order.
    func positions(of columns: [ColumnKey]) throws -> (positions: [Int], isWholeRow: Bool) {
        let keys = context.keys
        if let columnOrder, columnOrder.columns == columns, columnOrder.keys == keys {
            return (columnOrder.positions, columnOrder.isWholeRow)
        }
        var positions: [Int] = []
        positions.reserveCapacity(columns.count)
        for column in columns {
            guard let index = keys.firstIndex(of: column) else { throw unknownColumn(column) }
            positions.append(index)
        }
        let isWholeRow = columns == keys
        columnOrder = ColumnOrder(columns: columns, keys: keys, positions: positions, isWholeRow: isWholeRow)
        return (positions, isWholeRow)
    }

    /// What ``positions(of:)`` worked out for a list of columns, kept for the next insert with the same columns.
    private final class ColumnOrder {
        /// The columns the caller passed.
        let columns: [ColumnKey]
        /// The table's column keys then.
        let keys: [ColumnKey]
        /// The storage position of each of `columns`.
        let positions: [Int]
        /// Whether `columns` are every column in storage order.
        let isWholeRow: Bool

        init(columns: [ColumnKey], keys: [ColumnKey], positions: [Int], isWholeRow: Bool) {
            self.columns = columns
            self.keys = keys
            self.positions = positions
            self.isWholeRow = isWholeRow
        }
    }

    // MARK: Counting and iterating

    /// The number of objects.
    /// - Complexity: O(clusters on one root-to-leaf path); the tree keeps counts per subtree.
    public func count() throws -> Int { try tree.count() }

    /// Whether an object with `key` exists.
    public func contains(_ key: ObjectKey) throws -> Bool {
        if readsOnly { return try keptRow(of: key) != nil }
        switch try locate(key) {
        case .none: return false
        default: return true
        }
    }

    /// Every object key in ascending order.
    package func keys() throws -> [ObjectKey] {
        var result: [ObjectKey] = []
        try forEachKey { result.append($0); return true }
        return result
    }

    /// Visits object keys in ascending order until `body` returns `false`.
    package func forEachKey(_ body: (ObjectKey) throws -> Bool) throws {
        try tree.forEachLeaf { location in
            switch location {
            case .loaded(let cluster):
                for key in cluster.keys where !(try body(ObjectKey(key))) { return false }
            case .stored(let ref):
                let view = try ClusterView(try reader.read(ref), ref: ref)
                for row in 0..<view.rowCount where !(try body(ObjectKey(view.key(at: row)))) { return false }
            }
            return true
        }
    }

    /// The key of the object at `position` in key order.
    /// - Complexity: O(log n) through the subtree counts.
    package func key(at position: Int) throws -> ObjectKey {
        guard position >= 0, let (location, row) = try tree.locate(position: position) else {
            throw StrataError.invalidArgument("position \(position) is outside table '\(name)' (\(try count()) objects)")
        }
        switch location {
        case .loaded(let cluster): return ObjectKey(cluster.keys[row])
        case .stored(let ref):
            let view = try ClusterView(try reader.read(ref), ref: ref)
            guard row < view.rowCount else { throw NodeDamage.error(ref, "cluster", "holds fewer rows than its branch counts") }
            return ObjectKey(view.key(at: row))
        }
    }

    // MARK: Finding rows

    /// Where an object's row is: in a decoded cluster, or in a stored one.
    enum RowLocation {
        case none
        case loaded(ClusterBuffer, Int)
        case stored(ClusterView, Int)
    }

    func locate(_ key: ObjectKey) throws -> RowLocation {
        if readsOnly {
            guard let row = try keptRow(of: key), let view = lastReadCluster else { return .none }
            return .stored(view, row)
        }
        guard let (location, _) = try ByteOrder.withKey(key.rawValue, { try tree.locateWithUpperBound($0) }) else {
            return .none
        }
        switch location {
        case .loaded(let cluster):
            let (row, found) = cluster.position(of: key.rawValue)
            return found ? .loaded(cluster, row) : .none
        case .stored(let ref):
            let view = try ClusterView(try tree.storedLeaf(ref), ref: ref)
            guard let row = view.row(of: key.rawValue) else { return .none }
            return .stored(view, row)
        }
    }

    /// In a read transaction, the row of `key`, after which ``lastReadCluster`` is the cluster holding it; `nil`
    /// when no object has that key.
    ///
    /// The typed reads and ``contains(_:)`` use the row and the kept cluster in place: ``locate(_:)`` hands back
    /// the cluster's view inside a `RowLocation`, a copy of about 150 bytes (through `memmove`) per lookup, of a
    /// view the table has just kept (see docs/BENCHMARKS.md, round eleven).
    private func keptRow(of key: ObjectKey) throws -> Int? {
        if let row = rowInLastReadCluster(key) { return row < 0 ? nil : row }
        guard let (location, upper) = try ByteOrder.withKey(key.rawValue, { try tree.locateWithUpperBound($0) }) else {
            return nil
        }
        guard case .stored(let ref) = location else {
            // A tree without a writer never decodes a leaf (only a change does).
            preconditionFailure("Strata: a read transaction's cluster tree of table '\(name)' holds a decoded cluster")
        }
        let view = try ClusterView(try tree.storedLeaf(ref), ref: ref)
        guard let row = view.row(of: key.rawValue) else { return nil }
        lastReadCluster = view
        lastReadRow = (key.rawValue, row)
        // Finding the row read the first key: kept while its line is in the caches. The separator after the
        // cluster on the descent bounds its keys from above, so that a later key past it is sent to the tree
        // without reading the cluster's last key (a line the lookup had not touched).
        lastReadBounds.first = view.key(at: 0)
        if let upper, upper > .min { lastReadBounds.last = upper - 1 }
        return row
    }

    /// In a read transaction, the row of `key` when `lastReadCluster` covers its key range (`-1` when no object
    /// of the cluster has that key), remembered as `lastReadRow`; `nil` when the cluster does not cover it.
    ///
    /// Results hand out their objects in key order, so a key past the last one found is looked for after that
    /// row: a key `d` past the last one is at most `d` rows further, and exactly there when no object between them
    /// was deleted (the common case, checked first with one key read; keys only grow from row to row, so finding
    /// the key there proves the row). Otherwise `ClusterView.row(of:after:)` searches the rows the bounds allow; a
    /// key before the last one found is searched for from the cluster's first row.
    private func rowInLastReadCluster(_ key: ObjectKey) -> Int? {
        let wanted = key.rawValue
        // The object read last, or the one a results loop just handed out (``noteRow(_:at:inCluster:)``): no copy
        // of the cluster's view, no key read. `lastReadRow` is cleared whenever `lastReadCluster` changes.
        if let last = lastReadRow, last.key == wanted { return last.row }
        // Outside the cluster's keys as far as they were read: no copy of its view, no key read.
        if let first = lastReadBounds.first, wanted < first { return nil }
        if let last = lastReadBounds.last, wanted > last { return nil }
        guard let view = lastReadCluster, view.rowCount > 0 else { return nil }
        if lastReadBounds.first == nil {
            let first = view.key(at: 0)
            lastReadBounds.first = first
            if wanted < first { return nil }
        }
        if lastReadBounds.last == nil {
            let last = view.key(at: view.rowCount - 1)
            lastReadBounds.last = last
            if wanted > last { return nil }
        }
        var anchor: (row: Int, key: Int64)?
        if let last = lastReadRow, wanted >= last.key {
            // The next object of a result, none deleted between: one key read, which proves the row by itself.
            let distance = UInt64(bitPattern: wanted &- last.key)
            if distance < UInt64(view.rowCount - last.row) {
                let guess = last.row + Int(distance)
                if view.key(at: guess) == wanted {
                    lastReadRow = (wanted, guess)
                    return guess
                }
            }
            anchor = (last.row, last.key)
        }
        // Within the cluster's first and last keys (checked above).
        guard let row = view.row(of: wanted, after: anchor) else { return -1 }
        lastReadRow = (wanted, row)
        return row
    }

    /// In a read transaction, makes `view` (a cluster a scan visits) the cluster reads by key look in first,
    /// unless it already is: the objects the scan selects are read next, while the cluster is in the caches.
    func noteScanned(_ view: ClusterView) {
        if readsOnly, lastReadRef != view.ref { lastReadCluster = view }
    }

    /// In a read transaction, tells the reads by key that object `key` is at `row` of the cluster stored at
    /// `cluster` (``ScannedCluster/node``, a cluster this table's scan visited, where the scan found the object):
    /// a results loop that scans as it goes says so for each object it hands out, so the object's first property
    /// read finds its row without reading keys. Ignored unless that cluster is still the one reads look in first
    /// (no other cluster was read since); a read transaction's clusters never change, so the row stays the key's
    /// for as long as that holds. The caller must name the row the scan found `key` in (checked in debug builds).
    package func noteRow(_ key: ObjectKey, at row: Int, inCluster cluster: NodeRef) {
        guard readsOnly, lastReadRef == cluster, row >= 0, row < lastReadRowCount else { return }
        assert(
            lastReadCluster?.key(at: row) == key.rawValue, "Strata: a scan noted object \(key) at another object's row")
        lastReadRow = (key.rawValue, row)
    }

    /// In a read transaction, the row of `key` in the kept cluster, with the block of the column at storage `index`
    /// kept (read it as `keptBlocks[index]`, in place): what every typed read by key starts with.
    ///
    /// - Throws: `missing(key)` when no object has that key.
    @inline(__always)
    private func keptRow(of key: ObjectKey, keeping index: Int) throws -> Int {
        guard let row = try keptRow(of: key), try keepsBlock(index) else { throw missing(key) }
        return row
    }

    /// In a read transaction, whether ``keptBlocks`` holds the block of the column at storage `index` of
    /// `lastReadCluster`, decoded there once per cluster (read it as `keptBlocks[index]`, in place); `false` when
    /// no cluster is kept.
    @inline(__always)
    private func keepsBlock(_ index: Int) throws -> Bool {
        if keptBlocks.holds(index) { return true }
        return try keepBlock(index)
    }

    /// Decodes the block of the column at storage `index` of `lastReadCluster` into ``keptBlocks`` (`false` when
    /// no cluster is kept); the block is decoded where the kept view lies, without a copy of the view.
    private func keepBlock(_ index: Int) throws -> Bool {
        guard let ref = lastReadRef else { return false }
        keptBlocks.keep(try checked(try lastReadCluster?.block(context.keys[index], hint: index), index, in: ref), at: index)
        return true
    }

    /// `block`, the block of the column at storage `index` read from cluster `ref`, when it is there and of the
    /// kind the column stores; otherwise the damage, naming the column.
    @inline(__always)
    private func checked(_ block: ColumnBlock?, _ index: Int, in ref: NodeRef) throws -> ColumnBlock {
        let kind = context.blockKinds[index]
        guard let block, block.kind == kind else {
            throw NodeDamage.error(ref, "cluster of table '\(name)'", "has no \(kind) block for column '\(context.specs[index].name)'")
        }
        return block
    }

    func missing(_ key: ObjectKey) -> StrataError {
        .invalidArgument("table '\(name)' has no object \(key); it was deleted or never inserted")
    }

    /// The storage position of `column` for a typed read.
    @inline(__always)
    private func readPosition(of column: ColumnKey) throws -> Int {
        guard readsOnly else { return try position(of: column) }
        let number = Int(column.rawValue)
        if number < readPositions.count, case let position = Int(readPositions[number]), position >= 0 {
            return position
        }
        if readColumns.isEmpty { takeReadColumns() }
        guard let index = readColumns.firstIndex(where: { $0.key == column }) else { throw unknownColumn(column) }
        return index
    }

    /// Takes a read transaction's columns from the context once (``readColumns``, ``readPositions``).
    private func takeReadColumns() {
        readColumns = context.specs.map { ($0.key, $0.type == .value(.string)) }
        let largest = readColumns.map { Int($0.key.rawValue) }.max() ?? -1
        guard largest <= Self.readPositionLimit else { return }
        var positions = [Int32](repeating: -1, count: largest + 1)
        for (position, column) in readColumns.enumerated() { positions[Int(column.key.rawValue)] = Int32(position) }
        readPositions = positions
    }

    /// Whether the column at storage `index` holds strings.
    @inline(__always)
    private func holdsStrings(_ index: Int) -> Bool {
        if readsOnly, index < readColumns.count { return readColumns[index].isString }
        return context.specs[index].type == .value(.string)
    }

    /// The raw word of a fixed-width column (`nil` = null).
    func word(_ key: ObjectKey, _ column: ColumnKey) throws -> UInt64? {
        let index = try readPosition(of: column)
        // A read transaction's object in the cluster read last (the common case of reading several properties
        // of one object, or objects in key order): no tree descent, no copy of the cluster's view.
        if readsOnly {
            let row = try keptRow(of: key, keeping: index)
            let kind = keptBlocks[index].kind
            guard kind != .variable, kind != .fixed16 else { throw wrongKind(columns[index], "a fixed-width value") }
            return keptBlocks[index].isNull(row) ? nil : keptBlocks[index].word(row)
        }
        switch try locate(key) {
        case .none: throw missing(key)
        case .loaded(let cluster, let row):
            let buffer = cluster.columns[index]
            guard buffer.usesWords else { throw wrongKind(buffer.spec, "a fixed-width value") }
            return buffer.isNull(row) ? nil : buffer.word(at: row)
        case .stored(let view, let row):
            let block = try storedBlock(view, index)
            guard block.kind != .variable, block.kind != .fixed16 else { throw wrongKind(columns[index], "a fixed-width value") }
            return block.isNull(row) ? nil : block.word(row)
        }
    }

    /// The bytes of a variable-size or UUID column (`nil` = null), long values read from their node.
    func bytes(_ key: ObjectKey, _ column: ColumnKey) throws -> [UInt8]? {
        let index = try readPosition(of: column)
        switch try locate(key) {
        case .none: throw missing(key)
        case .loaded(let cluster, let row):
            let buffer = cluster.columns[index]
            guard !buffer.usesWords else { throw wrongKind(buffer.spec, "bytes") }
            return buffer.isNull(row) ? nil : try blobBytes(buffer.blob(at: row))
        case .stored(let view, let row):
            let block = try storedBlock(view, index)
            guard block.kind == .variable || block.kind == .fixed16 else { throw wrongKind(columns[index], "bytes") }
            if block.isNull(row) { return nil }
            return try withBlob(block, row) { Array($0) }
        }
    }

    func storedBlock(_ view: ClusterView, _ index: Int) throws -> ColumnBlock {
        let cached = readsOnly && lastReadRef == view.ref
        if cached, keptBlocks.holds(index) { return keptBlocks[index] }
        let block = try checked(try view.block(context.keys[index], hint: index), index, in: view.ref)
        if cached { keptBlocks.keep(block, at: index) }
        return block
    }

    /// Runs `body` on the bytes of a stored variable-size value without copying inline ones.
    func withBlob<R>(_ block: ColumnBlock, _ row: Int, _ body: (UnsafeRawBufferPointer) throws -> R) throws -> R {
        switch try block.blob(row) {
        case .inline(let bytes): return try body(bytes)
        case .external(let ref, let length):
            let node = try reader.read(ref)
            guard length <= node.count else {
                throw NodeDamage.error(ref, "long value of table '\(name)'", "holds \(node.count) bytes, \(length) expected")
            }
            return try body(UnsafeRawBufferPointer(rebasing: node[..<length]))
        }
    }

    func blobBytes(_ blob: Blob) throws -> [UInt8] {
        guard !blob.external.isNone else { return blob.bytes }
        let node = try reader.read(blob.external)
        guard blob.length <= node.count else {
            throw NodeDamage.error(blob.external, "long value of table '\(name)'", "holds \(node.count) bytes, \(blob.length) expected")
        }
        return Array(node[..<blob.length])
    }

    private func wrongKind(_ spec: ColumnSpec, _ wanted: String) -> StrataError {
        .invalidArgument("column '\(spec.name)' of table '\(name)' holds \(spec.type), not \(wanted); use the accessor of its type")
    }

    // MARK: Typed reads

    /// An integer column's value (`nil` = null).
    public func int(_ key: ObjectKey, column: ColumnKey) throws -> Int64? {
        try word(key, column).map { Int64(bitPattern: $0) }
    }

    /// A bool column's value (`nil` = null).
    public func bool(_ key: ObjectKey, column: ColumnKey) throws -> Bool? { try word(key, column).map { $0 != 0 } }

    /// A float column's value (`nil` = null).
    public func float(_ key: ObjectKey, column: ColumnKey) throws -> Float? {
        try word(key, column).map { Float(bitPattern: UInt32(truncatingIfNeeded: $0)) }
    }

    /// A double column's value (`nil` = null).
    public func double(_ key: ObjectKey, column: ColumnKey) throws -> Double? {
        try word(key, column).map { Double(bitPattern: $0) }
    }

    /// A timestamp column's value in nanoseconds since 1970 (`nil` = null).
    public func timestamp(_ key: ObjectKey, column: ColumnKey) throws -> Int64? {
        try word(key, column).map { Int64(bitPattern: $0) }
    }

    /// A link column's target (`nil` = no link).
    public func link(_ key: ObjectKey, column: ColumnKey) throws -> ObjectKey? {
        try word(key, column).map { ObjectKey(Int64(bitPattern: $0)) }
    }

    /// A string column's value (`nil` = null).
    public func string(_ key: ObjectKey, column: ColumnKey) throws -> String? {
        let index = try readPosition(of: column)
        if readsOnly {
            let row = try keptRow(of: key, keeping: index)
            return try string(in: keptBlocks[index], row, column: index)
        }
        switch try locate(key) {
        case .none: throw missing(key)
        case .stored(let view, let row):
            return try string(in: try storedBlock(view, index), row, column: index)
        case .loaded:
            guard let raw = try bytes(key, column) else { return nil }
            return String(decoding: raw, as: UTF8.self)
        }
    }

    /// The string of `row` in the stored block of the column at storage `index` (`nil` = null).
    ///
    /// The closure decodes and nothing else: one that threw the damage itself captured the table (its name), which
    /// every string read then retained and released. Inlined, so that the caller's kept block is read in place.
    @inline(__always)
    private func string(in block: ColumnBlock, _ row: Int, column index: Int) throws -> String? {
        guard block.kind == .variable, holdsStrings(index) else { throw wrongKind(context.specs[index], "a string") }
        if block.isNull(row) { return nil }
        guard let text = try withBlob(block, row, { StoredText.decode($0) }) else {
            throw NodeDamage.error(block.ref, "cluster of table '\(name)'", "a string is not valid UTF-8")
        }
        return text
    }

    /// A binary column's value (`nil` = null).
    public func binary(_ key: ObjectKey, column: ColumnKey) throws -> [UInt8]? { try bytes(key, column) }

    /// A UUID column's value (`nil` = null).
    public func uuid(_ key: ObjectKey, column: ColumnKey) throws -> UUID? {
        guard let raw = try bytes(key, column) else { return nil }
        guard case .uuid(let id)? = raw.withUnsafeBytes({ ValueCodec.value(bytes: $0, kind: .uuid) }) else {
            throw StrataError.invalidArgument("column \(column) of table '\(name)' does not hold UUIDs")
        }
        return id
    }

    /// Any column's value as a `StorageValue` (a list or set column gives `.list`, a map `.map`, backlinks a
    /// `.list` of `.link`).
    public func value(_ key: ObjectKey, column: ColumnKey) throws -> StorageValue {
        let spec = context.specs[try position(of: column)]
        switch spec.type {
        case .value(let kind):
            if kind.isWord {
                guard let word = try word(key, column) else { return .null }
                return ValueCodec.value(word: word, kind: kind)
            }
            guard let raw = try bytes(key, column) else { return .null }
            guard let value = raw.withUnsafeBytes({ ValueCodec.value(bytes: $0, kind: kind) }) else {
                throw StrataError.corruptFile(path: StrataError.unnamedFile, location: "table '\(name)', object \(key), column '\(spec.name)'",
                                              detail: "the stored bytes are not a valid \(kind)")
            }
            return value
        case .list(let kind):
            let raw = try bytes(key, column) ?? []
            return .list(try raw.withUnsafeBytes { try ValueCodec.decodeList($0, kind: kind, ref: .none) })
        case .backlinks:
            let raw = try bytes(key, column) ?? []
            return .list(try raw.withUnsafeBytes { try ValueCodec.decodeBacklinks($0, ref: .none) }.map { .link(ObjectKey($0)) })
        case .set(let kind):
            let raw = try bytes(key, column) ?? []
            return .list(try raw.withUnsafeBytes { try CollectionCodec.decodeSet($0, kind: kind, ref: .none) })
        case .map(let kind):
            let raw = try bytes(key, column) ?? []
            return .map(try raw.withUnsafeBytes { try CollectionCodec.decodeMap($0, kind: kind, ref: .none) })
        }
    }
}
