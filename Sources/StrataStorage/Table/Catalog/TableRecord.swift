/// A table as the catalog node stores it (everything but its clusters and index entries).
struct TableRecord {
    var key: TableKey
    var name: String
    var primaryKey: ColumnKey?
    var nextObjectKey: Int64 = 0
    var sequences: [String: Int64] = [:]
    var nextColumnKey: UInt32 = 1
    var nextIndexKey: UInt32 = 1
    var columns: [ColumnSpec] = []
    var clusterRoot: NodeRef = .none
    var indexes: [(spec: IndexSpec, root: NodeRef, implied: Bool)] = []
    /// Whether the table holds embedded objects: each is owned by exactly one link or list element pointing at it,
    /// and deleted when that owner lets go of it (see `Table+Embedded.swift`).
    var isEmbedded = false
    /// Where the catalog node this record was read from (or written to) holds its roots; `nil` for a record not
    /// from a node.
    var rootOffsets: RootOffsets?

    /// Byte offsets, in a catalog node's payload, of a table's 64-bit little-endian fields that a commit may move
    /// without changing the node's layout: the cluster and index roots (node numbers), the next object key and
    /// the sequences' values. What a commit that moved only those rewrites in a copy of the node (`Catalog.flush`).
    struct RootOffsets {
        var cluster: Int
        var indexes: [Int]
        /// Each sequence's value, by the sequence's name (empty for a table without sequences).
        var sequences: [String: Int] = [:]

        /// The next object key sits right before the cluster root (docs/FILE-FORMAT.md, "The table layer's nodes").
        var nextObjectKey: Int { cluster - 8 }
    }

    /// Whether this record (a table as it is now) stores as `stored` does but for the fields ``RootOffsets`` locates:
    /// its cluster and index roots, its next object key and its sequences' values (the same sequences). A commit
    /// that inserts objects moves the next key (and perhaps a sequence) besides a root, and is patched as well.
    ///
    /// Column specs are compared by identity, not field by field: a table that changed none still holds the very
    /// array `stored` was decoded into (arrays copy on write, and the catalog keeps `stored`). A copy with equal
    /// specs answers `false`, which costs a full encode, never a wrong catalog.
    func hasShape(of stored: TableRecord) -> Bool {
        guard key == stored.key, name == stored.name, primaryKey == stored.primaryKey,
            nextColumnKey == stored.nextColumnKey, nextIndexKey == stored.nextIndexKey, isEmbedded == stored.isEmbedded,
            sequences.count == stored.sequences.count, columns.count == stored.columns.count,
            indexes.count == stored.indexes.count
        else { return false }
        if !sequences.isEmpty {
            guard sequences.keys.allSatisfy({ stored.sequences[$0] != nil }) else { return false }
        }
        if !columns.isEmpty {
            let mine = columns.withUnsafeBufferPointer { $0.baseAddress }
            guard mine == stored.columns.withUnsafeBufferPointer({ $0.baseAddress }) else { return false }
        }
        return zip(indexes, stored.indexes).allSatisfy { $0.spec == $1.spec && $0.implied == $1.implied }
    }
}

/// Reads and writes the catalog node and the metadata node (layouts in docs/FILE-FORMAT.md, "The table layer's nodes").
enum CatalogCodec {
    static let magic: UInt32 = 0x3154_4353  // "SCT1"
    static let metadataMagic: UInt32 = 0x3144_4D53  // "SMD1"
    /// The format written when no table has flags: files without embedded tables keep the bytes they always had.
    static let formatVersion: UInt32 = 1
    /// The format with a `u32` of flags per table (bit 0: embedded), written only when a table has one.
    static let flaggedFormatVersion: UInt32 = 2

    /// Where the catalog node holds the metadata node's number: after the magic, the format version, the next
    /// table key and the table count.
    static let metadataOffset = 16

    struct Contents {
        var nextTableKey: UInt32 = 1
        var metadata: NodeRef = .none
        var tables: [TableRecord] = []
    }

    static func encode(_ contents: Contents) -> ByteWriter {
        var copy = contents
        return encode(&copy)
    }

    /// Encodes `contents`, recording in each table record where its roots went (`TableRecord.rootOffsets`).
    static func encode(_ contents: inout Contents) -> ByteWriter {
        var out = ByteWriter(capacity: 256)
        let flagged = contents.tables.contains(where: \.isEmbedded)
        out.u32(magic)
        out.u32(flagged ? flaggedFormatVersion : formatVersion)
        out.u32(contents.nextTableKey)
        out.u32(UInt32(contents.tables.count))
        out.u64(contents.metadata.rawValue)
        for tableIndex in contents.tables.indices {
            let table = contents.tables[tableIndex]
            var offsets = TableRecord.RootOffsets(cluster: 0, indexes: [])
            out.u32(table.key.rawValue)
            out.string(table.name)
            out.i64(table.nextObjectKey)
            offsets.cluster = out.bytes.count
            out.u64(table.clusterRoot.rawValue)
            out.u32(table.primaryKey?.rawValue ?? 0)
            out.u32(table.nextColumnKey)
            out.u32(table.nextIndexKey)
            if flagged { out.u32(table.isEmbedded ? 1 : 0) }
            out.u32(UInt32(table.sequences.count))
            for (name, value) in table.sequences.sorted(by: { $0.key < $1.key }) {
                out.string(name)
                offsets.sequences[name] = out.bytes.count
                out.i64(value)
            }
            out.u32(UInt32(table.columns.count))
            for column in table.columns {
                out.u32(column.key.rawValue)
                out.string(column.name)
                out.u8(column.type.code)
                out.u8((column.isNullable ? 1 : 0) | (column.elementsNullable ? 2 : 0))
                out.u32(column.target?.rawValue ?? 0)
                out.u32(column.origin?.rawValue ?? 0)
                encodeValue(column.defaultValue, into: &out)
            }
            out.u32(UInt32(table.indexes.count))
            for (spec, root, implied) in table.indexes {
                out.u32(spec.key.rawValue)
                out.u8((spec.isUnique ? 1 : 0) | (implied ? 2 : 0) | (spec.isFullText ? 4 : 0)
                    | (spec.isPostingBlocks ? 8 : 0) | (spec.isTrigrams ? 16 : 0)
                    | (spec.isCompactPostings ? 32 : 0) | (spec.isScoreBounds ? 64 : 0))
                out.u32(UInt32(spec.columns.count))
                for column in spec.columns { out.u32(column.rawValue) }
                offsets.indexes.append(out.bytes.count)
                out.u64(root.rawValue)
            }
            contents.tables[tableIndex].rootOffsets = offsets
        }
        return out
    }

    static func decode(_ raw: UnsafeRawBufferPointer, ref: NodeRef) throws -> Contents {
        var reader = ByteReader(raw, ref: ref, what: "catalog")
        guard try reader.u32() == magic else { throw reader.damage("is not a table catalog (wrong magic)") }
        let version = try reader.u32()
        guard version == formatVersion || version == flaggedFormatVersion else {
            throw reader.damage(
                "uses catalog format \(version); this version of Strata reads \(formatVersion) and "
                    + "\(flaggedFormatVersion)")
        }
        let flagged = version == flaggedFormatVersion
        var contents = Contents()
        contents.nextTableKey = try reader.u32()
        let tableCount = try reader.count(minimumItemSize: 40, label: "table count")
        contents.metadata = NodeRef(rawValue: try reader.u64())
        for _ in 0..<tableCount {
            var table = TableRecord(key: TableKey(rawValue: try reader.u32()), name: try reader.string())
            table.nextObjectKey = try reader.i64()
            var offsets = TableRecord.RootOffsets(cluster: reader.offset, indexes: [])
            table.clusterRoot = NodeRef(rawValue: try reader.u64())
            let primary = try reader.u32()
            table.primaryKey = primary == 0 ? nil : ColumnKey(rawValue: primary)
            table.nextColumnKey = try reader.u32()
            table.nextIndexKey = try reader.u32()
            if flagged {
                let flags = try reader.u32()
                guard flags & ~1 == 0 else { throw reader.damage("table '\(table.name)' has unknown flags \(flags)") }
                table.isEmbedded = flags & 1 != 0
            }
            for _ in 0..<(try reader.count(minimumItemSize: 12, label: "sequence count")) {
                let name = try reader.string()
                offsets.sequences[name] = reader.offset
                table.sequences[name] = try reader.i64()
            }
            for _ in 0..<(try reader.count(minimumItemSize: 15, label: "column count")) {
                let key = ColumnKey(rawValue: try reader.u32())
                let name = try reader.string()
                let code = try reader.u8()
                guard let type = ColumnType(code: code) else { throw reader.damage("column '\(name)' has unknown type \(code)") }
                let flags = try reader.u8()
                let target = try reader.u32()
                let origin = try reader.u32()
                table.columns.append(ColumnSpec(
                    key: key, name: name, type: type, isNullable: flags & 1 != 0, elementsNullable: flags & 2 != 0,
                    target: target == 0 ? nil : TableKey(rawValue: target), origin: origin == 0 ? nil : ColumnKey(rawValue: origin),
                    defaultValue: try decodeValue(&reader)))
            }
            for _ in 0..<(try reader.count(minimumItemSize: 17, label: "index count")) {
                let key = IndexKey(rawValue: try reader.u32())
                let flags = try reader.u8()
                var columns: [ColumnKey] = []
                for _ in 0..<(try reader.count(minimumItemSize: 4, label: "indexed column count")) {
                    columns.append(ColumnKey(rawValue: try reader.u32()))
                }
                offsets.indexes.append(reader.offset)
                let root = NodeRef(rawValue: try reader.u64())
                let implied = flags & 2 != 0
                // An implied index is a unique one-column index without nodes (see `SortedIndex+ObjectKeys`).
                if implied && (flags & 1 == 0 || columns.count != 1 || !root.isNone) {
                    throw reader.damage("has an implied index \(key) of table '\(table.name)' that is not a unique "
                        + "one-column index without nodes")
                }
                let spec = IndexSpec(
                    key: key, columns: columns, isUnique: flags & 1 != 0, isFullText: flags & 4 != 0,
                    isPostingBlocks: flags & 12 == 12, isTrigrams: flags & 20 == 20,
                    isCompactPostings: flags & 44 == 44, isScoreBounds: flags & 108 == 108)
                table.indexes.append((spec, root, implied))
            }
            table.rootOffsets = offsets
            contents.tables.append(table)
        }
        return contents
    }

    /// A value as `tag u8` (0 = null, a `ValueKind` raw value, 0xFF = list, 0xFE = map) and its payload.
    static func encodeValue(_ value: StorageValue, into out: inout ByteWriter) {
        switch value {
        case .null: out.u8(0)
        case .map(let entries):
            out.u8(0xFE)
            out.u32(UInt32(entries.count))
            for (key, element) in entries.sorted(by: { $0.key < $1.key }) {
                out.string(key)
                encodeValue(element, into: &out)
            }
        case .list(let elements):
            out.u8(0xFF)
            out.u32(UInt32(elements.count))
            for element in elements { encodeValue(element, into: &out) }
        default:
            guard let kind = value.kind else { return out.u8(0) }
            out.u8(kind.rawValue)
            if kind.isWord {
                out.u64(ValueCodec.word(value, kind: kind) ?? 0)
            } else {
                let bytes = ValueCodec.bytes(value, kind: kind) ?? []
                out.u32(UInt32(bytes.count))
                out.append(bytes)
            }
        }
    }

    static func decodeValue(_ reader: inout ByteReader, depth: Int = 0) throws -> StorageValue {
        let tag = try reader.u8()
        if tag == 0 { return .null }
        if tag == 0xFF {
            guard depth == 0 else { throw reader.damage("a list value is nested in a list") }
            var elements: [StorageValue] = []
            for _ in 0..<(try reader.count(minimumItemSize: 1, label: "list length")) {
                elements.append(try decodeValue(&reader, depth: depth + 1))
            }
            return .list(elements)
        }
        if tag == 0xFE {
            guard depth == 0 else { throw reader.damage("a map value is nested in a list or map") }
            var entries: [String: StorageValue] = [:]
            for _ in 0..<(try reader.count(minimumItemSize: 3, label: "map length")) {
                let key = try reader.string()
                entries[key] = try decodeValue(&reader, depth: depth + 1)
            }
            return .map(entries)
        }
        guard let kind = ValueKind(rawValue: tag) else { throw reader.damage("unknown value tag \(tag)") }
        if kind.isWord { return ValueCodec.value(word: try reader.u64(), kind: kind) }
        let length = Int(try reader.u32())
        guard let value = ValueCodec.value(bytes: try reader.slice(length), kind: kind) else {
            throw reader.damage("a stored \(kind) value is not valid")
        }
        return value
    }

    static func encodeMetadata(_ entries: [String: [UInt8]]) -> ByteWriter {
        var out = ByteWriter(capacity: 64)
        out.u32(metadataMagic)
        out.u32(UInt32(entries.count))
        for (key, value) in entries.sorted(by: { $0.key < $1.key }) {
            out.string(key)
            out.u32(UInt32(value.count))
            out.append(value)
        }
        return out
    }

    static func decodeMetadata(_ raw: UnsafeRawBufferPointer, ref: NodeRef) throws -> [String: [UInt8]] {
        var reader = ByteReader(raw, ref: ref, what: "catalog metadata")
        guard try reader.u32() == metadataMagic else { throw reader.damage("is not catalog metadata (wrong magic)") }
        var entries: [String: [UInt8]] = [:]
        for _ in 0..<(try reader.count(minimumItemSize: 8, label: "metadata entry count")) {
            let key = try reader.string()
            let length = Int(try reader.u32())
            entries[key] = try reader.bytes(length)
        }
        return entries
    }
}
