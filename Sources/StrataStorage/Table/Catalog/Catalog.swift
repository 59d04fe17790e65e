/// The root of the table layer: tables by name, their columns, indexes and sequences, and a small key → bytes
/// metadata store (where the object layer records its schema, version history and fingerprints).
///
/// Open one per transaction: `Catalog(reader:)` for a read transaction, `Catalog(writer:)` for the write
/// transaction. Changes stay in memory and in dirty nodes until `flush()`, which writes them and sets the
/// writer's root; the pager's commit then makes them durable. To roll back, drop the catalog and let the pager
/// discard the transaction.
public final class Catalog {
    let reader: NodeReader
    let writer: NodeWriter?
    /// Every table in creation order: its record as the catalog node stores it until something asks for the table,
    /// then the `Table` built from it. Opening a catalog builds no `Table` (each builds its column context, its
    /// cluster tree and its indexes: 8 % of a one-value commit's CPU on strata-bench's W5 for two tables, of which
    /// the commit uses one); a table never asked for is flushed as the record it was read as.
    private var tableSlots: [TableSlot] = []
    private var nextTableKey: UInt32
    private var metadataRef: NodeRef
    private var metadataCache: [String: [UInt8]]?
    private var metadataChanged = false
    private var changed = false
    private let loadedRoot: NodeRef
    /// The catalog node the writer's root is, with what it holds (root offsets included): a flush whose tables
    /// only moved roots patches a copy of it.
    private var stored: (ref: NodeRef, contents: CatalogCodec.Contents)?
    /// When set (on a write transaction's catalog), every object its tables insert, change or delete is noted
    /// there as the change is made (``WriteChangeLog``): what the sync outbox records at commit. `nil` by default.
    package var changeLog: WriteChangeLog?

    /// Decoded clusters and index leaves a table keeps, per tree, before it writes them out mid-transaction.
    ///
    /// A decoded cluster takes about 70 KB (a 16 KiB node's values as Swift arrays), so 16 bound a bulk load's
    /// decoded clusters at about 1.1 MB. Measured on strata-bench's 1M-object insert (release build, Linux, CPU
    /// time as medians of three to five runs): 64 held about 1.7 MB more peak anonymous memory (W7-anon) than 16,
    /// and 8 no less than 16; W1's and W1-indexed's CPU time moved by about 1 %, inside the spread between runs (a
    /// bulk load appends, so a write-out rewrites only the right edge's branches and decodes only the tail
    /// cluster again). 16 rather than 8 because a transaction changing objects scattered over many clusters
    /// writes out, and rewrites the branches above them, once per this many clusters.
    static let loadedLeafLimit = 16

    /// Opens the catalog of the version `transaction` reads.
    /// - Throws: `StrataError.corruptFile` when the root node is not a catalog.
    public convenience init(reader transaction: ReadTransaction) throws {
        try self.init(reader: transaction as NodeReader)
    }

    /// Opens the catalog of the version `transaction` writes, for change.
    /// - Throws: `StrataError.corruptFile` when the root node is not a catalog.
    public convenience init(writer transaction: WriteTransaction) throws {
        try self.init(writer: transaction as NodeWriter)
    }

    /// Opens the catalog of a pinned version for reading, from any node space (a store's transaction, or the
    /// heap-backed spaces of tests).
    /// - Throws: `StrataError.corruptFile` when the root node is not a catalog.
    package convenience init(reader: NodeReader) throws {
        try self.init(reader: reader, writer: nil)
    }

    /// Opens the catalog of the version being written, for change, from any node space.
    /// - Throws: `StrataError.corruptFile` when the root node is not a catalog.
    package convenience init(writer: NodeWriter) throws {
        try self.init(reader: writer, writer: writer)
    }

    private init(reader: NodeReader, writer: NodeWriter?) throws {
        self.reader = reader
        self.writer = writer
        loadedRoot = reader.root
        var contents = CatalogCodec.Contents()
        if !reader.root.isNone {
            let raw = try reader.read(reader.root)
            if let cached = reader.catalogCache?.contents(of: raw) {
                contents = cached
            } else {
                contents = try CatalogCodec.decode(raw, ref: reader.root)
                reader.catalogCache?.remember(raw, contents: contents)
            }
        }
        if !reader.root.isNone { stored = (reader.root, contents) }
        nextTableKey = contents.nextTableKey
        metadataRef = contents.metadata
        tableSlots = contents.tables.map { .stored($0) }
    }

    // MARK: Tables

    /// Every table, in creation order.
    public var tables: [Table] { tableSlots.indices.map { table(at: $0) } }

    /// The table named `name`.
    public func table(named name: String) -> Table? {
        tableSlots.firstIndex { $0.name == name }.map { table(at: $0) }
    }

    /// The table with key `key`.
    public func table(_ key: TableKey) -> Table? {
        tableSlots.firstIndex { $0.key == key }.map { table(at: $0) }
    }

    /// The shape of the table named `name` (key, embeddedness, columns), read without building the table.
    public func shape(ofTableNamed name: String) -> TableShape? {
        tableSlots.first { $0.name == name }?.shape
    }

    /// The names of the tables built so far (asked for by `table(named:)`, `table(_:)` or `tables`, or created),
    /// in creation order: what tests check a shape leaves alone.
    var builtTableNames: [String] { tableSlots.compactMap { $0.table?.name } }

    /// The table of slot `index`, built from its record the first time it is asked for.
    private func table(at index: Int) -> Table {
        switch tableSlots[index] {
        case .built(let table):
            return table
        case .stored(let record):
            let table = Table(record: record, catalog: self)
            tableSlots[index] = .built(table)
            return table
        }
    }

    /// Creates an empty table.
    /// - Throws: `StrataError.invalidArgument` when the name is taken or not 1–255 UTF-8 bytes;
    ///   `StrataError.transactionMisuse` outside a write transaction.
    @discardableResult
    public func createTable(named name: String) throws -> Table {
        try requireWriter("create table '\(name)'")
        try Catalog.checkName(name, what: "table")
        guard table(named: name) == nil else {
            throw StrataError.invalidArgument("a table named '\(name)' already exists; pick another name or remove it first")
        }
        let record = TableRecord(key: TableKey(rawValue: nextTableKey), name: name)
        nextTableKey += 1
        let table = Table(record: record, catalog: self)
        tableSlots.append(.built(table))
        return table
    }

    /// Removes a table and every object, index and long value in it.
    /// - Throws: `StrataError.invalidArgument` when no such table exists, or when another table still links to it
    ///   (remove those link columns first).
    package func removeTable(named name: String) throws {
        let writer = try requireWriter("remove table '\(name)'")
        guard let table = table(named: name) else { throw StrataError.invalidArgument("there is no table named '\(name)' to remove") }
        for column in table.columns where column.type == .backlinks {
            guard let origin = column.target, origin != table.key, let source = self.table(origin) else { continue }
            let link = source.column(column.origin ?? ColumnKey(rawValue: 0))
            // Mixed values linking here become null, as when their objects are deleted.
            if let link, link.type.isMixed { continue }
            throw StrataError.invalidArgument("table '\(name)' is still the target of '\(source.name).\(link?.name ?? "?")'; "
                + "remove that column before removing the table")
        }
        for column in table.columns where column.type == .backlinks {
            guard let origin = column.target, origin != table.key, let source = self.table(origin),
                  let link = column.origin, source.column(link)?.type.isMixed == true else { continue }
            try table.forEachKey { key in
                for holder in Table.linkTargets(try table.value(key, column: column.key)) {
                    try source.unlink(holder, column: link, from: LinkTarget(table: table.key, key: key))
                }
                return true
            }
        }
        for column in table.columns where (column.type.isLink && column.target != table.key) || column.type.isMixed {
            try table.removeColumn(column.key)
        }
        try table.destroy(in: writer)
        tableSlots.removeAll { $0.table === table }
    }

    /// Renames a table (its key, links to it and its data stay).
    package func renameTable(_ name: String, to newName: String) throws {
        try requireWriter("rename table '\(name)'")
        try Catalog.checkName(newName, what: "table")
        guard let table = table(named: name) else { throw StrataError.invalidArgument("there is no table named '\(name)' to rename") }
        guard self.table(named: newName) == nil else {
            throw StrataError.invalidArgument("cannot rename '\(name)' to '\(newName)': a table with that name exists")
        }
        table.name = newName
    }

    // MARK: Metadata

    /// The bytes stored under `key`, or `nil`.
    package func metadata(forKey key: String) throws -> [UInt8]? { try loadMetadata()[key] }

    /// Every metadata key, sorted.
    package func metadataKeys() throws -> [String] { try loadMetadata().keys.sorted() }

    /// Stores (or with `nil`, removes) the bytes under `key`.
    package func setMetadata(_ value: [UInt8]?, forKey key: String) throws {
        try requireWriter("set metadata '\(key)'")
        _ = try loadMetadata()
        metadataCache?[key] = value
        metadataChanged = true
    }

    private func loadMetadata() throws -> [String: [UInt8]] {
        if let metadataCache { return metadataCache }
        var entries: [String: [UInt8]] = [:]
        if !metadataRef.isNone {
            let raw = try reader.read(metadataRef)
            if let cached = reader.catalogCache?.metadata(of: raw) {
                entries = cached
            } else {
                entries = try CatalogCodec.decodeMetadata(raw, ref: metadataRef)
                reader.catalogCache?.rememberMetadata(Array(raw), entries: entries)
            }
        }
        metadataCache = entries
        return entries
    }

    // MARK: Writing

    /// Writes every change of this transaction to nodes and points the writer's root at the new catalog.
    /// Call before the pager commits; the catalog stays usable afterwards.
    /// - Throws: `StrataError` when a node cannot be allocated.
    public func flush() throws {
        guard let writer, changed || metadataChanged else { return }
        var contents = CatalogCodec.Contents(nextTableKey: nextTableKey, metadata: metadataRef)
        if metadataChanged, let metadataCache {
            if !metadataRef.isNone { writer.free(metadataRef) }
            if metadataCache.isEmpty {
                metadataRef = .none
            } else {
                let encoded = CatalogCodec.encodeMetadata(metadataCache)
                metadataRef = try encoded.store(in: writer)
                // The next transaction of this process most likely reads these entries: it need not decode them.
                writer.catalogCache?.rememberMetadata(encoded.bytes, entries: metadataCache)
            }
            contents.metadata = metadataRef
            metadataChanged = false
        }
        for slot in tableSlots {
            switch slot {
            case .built(let table): contents.tables.append(try table.flush(in: writer))
            // Never asked for, so unchanged: the record as read (root offsets included) is what it stores.
            case .stored(let record): contents.tables.append(record)
            }
        }
        if try patchRoots(of: &contents, in: writer) {
            changed = false
            return
        }
        let encoded = CatalogCodec.encode(&contents)
        let ref = try encoded.store(in: writer)
        // The next transaction of this process most likely opens this very catalog: it need not decode it.
        encoded.bytes.withUnsafeBytes { writer.catalogCache?.remember($0, contents: contents) }
        if !writer.root.isNone { writer.free(writer.root) }
        writer.root = ref
        stored = (ref, contents)
        changed = false
    }

    /// Writes `contents` by rewriting fields in (a copy of) the stored catalog node, when nothing else differs from
    /// it: a one-value commit moves one cluster root, a one-object insert a root or two and the table's next object
    /// key, a synced commit the metadata node too, and encoding every table's names, columns and defaults again
    /// cost more than the rest of its catalog work. Returns `false`, having written nothing, when anything else
    /// changed.
    private func patchRoots(of contents: inout CatalogCodec.Contents, in writer: NodeWriter) throws -> Bool {
        guard let stored, stored.ref == writer.root, contents.nextTableKey == stored.contents.nextTableKey,
            contents.tables.count == stored.contents.tables.count
        else { return false }
        var patch = NodePatch()
        if contents.metadata != stored.contents.metadata {
            patch.replace(wordAt: CatalogCodec.metadataOffset, mask: .max, with: contents.metadata.rawValue)
        }
        for index in contents.tables.indices {
            let old = stored.contents.tables[index]
            let new = contents.tables[index]
            guard let offsets = old.rootOffsets, offsets.indexes.count == new.indexes.count,
                offsets.sequences.count == new.sequences.count, new.hasShape(of: old)
            else { return false }
            contents.tables[index].rootOffsets = offsets
            if new.clusterRoot != old.clusterRoot {
                patch.replace(wordAt: offsets.cluster, mask: .max, with: new.clusterRoot.rawValue)
            }
            if new.nextObjectKey != old.nextObjectKey {
                patch.replace(wordAt: offsets.nextObjectKey, mask: .max, with: UInt64(bitPattern: new.nextObjectKey))
            }
            for (name, value) in new.sequences where value != old.sequences[name] {
                guard let offset = offsets.sequences[name] else { return false }
                patch.replace(wordAt: offset, mask: .max, with: UInt64(bitPattern: value))
            }
            for (position, entry) in new.indexes.enumerated() where entry.root != old.indexes[position].root {
                patch.replace(wordAt: offsets.indexes[position], mask: .max, with: entry.root.rawValue)
            }
        }
        if !patch.edits.isEmpty, let copy = try patch.apply(to: stored.ref, in: writer, placement: .withCommitNodes) {
            writer.root = copy
        }
        writer.catalogCache?.remember(try reader.read(writer.root), contents: contents)
        self.stored = (writer.root, contents)
        return true
    }

    /// The writer, after recording that the catalog changes; or an error saying the catalog is read-only.
    ///
    /// `action` is an autoclosure: inserts call this once per object, and building the message each time showed
    /// in bulk-insert profiles.
    @discardableResult
    func requireWriter(_ action: @autoclosure () -> String) throws -> NodeWriter {
        guard let writer else {
            throw StrataError.transactionMisuse("cannot \(action()) in a read transaction; begin a write transaction first")
        }
        changed = true
        return writer
    }

    static func checkName(_ name: String, what: String) throws {
        guard !name.isEmpty, name.utf8.count <= 255 else {
            throw StrataError.invalidArgument("a \(what) name must be 1 to 255 UTF-8 bytes, '\(name.prefix(40))' has \(name.utf8.count)")
        }
    }
}

extension Catalog {
    /// One table of a catalog: as stored, or built (see `tableSlots`).
    fileprivate enum TableSlot {
        case stored(TableRecord)
        case built(Table)

        /// The table's name now (a built table may have been renamed).
        var name: String {
            switch self {
            case .stored(let record): record.name
            case .built(let table): table.name
            }
        }

        /// The table's key (it never changes).
        var key: TableKey {
            switch self {
            case .stored(let record): record.key
            case .built(let table): table.key
            }
        }

        /// What the table is, from its record or from the table built from it.
        var shape: TableShape {
            switch self {
            case .stored(let record):
                TableShape(key: record.key, name: record.name, isEmbedded: record.isEmbedded, columns: record.columns)
            case .built(let table):
                TableShape(key: table.key, name: table.name, isEmbedded: table.isEmbedded, columns: table.columns)
            }
        }

        /// The table when built.
        var table: Table? {
            if case .built(let table) = self { return table }
            return nil
        }
    }
}
