import Strata
import StrataStorage

/// Encodes stored objects for the page: each property's value in the JSON form `strata export` writes
/// (docs/VALUES.md), except that links become references the page can follow.
///
/// A reference is `{"$ref": {"model": name, "key": objectKey, "label": text}}`, where `key` is the stable object
/// key and `label` the linked object's primary key (or `#key`). A list, set or map of links is
/// `{"$refs": [reference…], "count": n}` holding at most ``collectionPreview`` references (the object view asks
/// for all of them). A link to an embedded object stays the nested object, as in the export.
struct RowEncoder {
    /// How many elements of a collection of links a table cell lists.
    static let collectionPreview = 8

    let catalog: Catalog
    private let writer: RowJSONWriter

    init(catalog: Catalog) {
        self.catalog = catalog
        self.writer = RowJSONWriter(catalog: catalog)
    }

    /// The columns the page shows for `table`: every persisted property (linkingObjects are listed apart).
    static func visibleColumns(_ table: Table) -> [ColumnSpec] {
        table.columns.filter { $0.type != .backlinks }
    }

    /// One row: `{"key": k, "values": [cell…]}` in the order of `columns`.
    func row(_ key: ObjectKey, of table: Table, columns: [ColumnSpec], preview: Int = collectionPreview) throws
        -> JSONValue
    {
        var cells: [JSONValue] = []
        cells.reserveCapacity(columns.count)
        for spec in columns {
            cells.append(try cell(try table.value(key, column: spec.key), of: spec, in: table, preview: preview))
        }
        return .object([("key", .number(String(key.rawValue))), ("values", .array(cells))])
    }

    /// The page's form of `value`, read from column `spec` of `table`.
    func cell(_ value: StorageValue, of spec: ColumnSpec, in table: Table, preview: Int = collectionPreview) throws
        -> JSONValue
    {
        guard spec.type.isLink, let target = spec.target.flatMap(catalog.table), !target.isEmbedded else {
            return try writer.json(value, of: spec, in: table)
        }
        switch value {
        case .link(let key): return try reference(key, in: target)
        case .list(let elements):
            let keys = elements.compactMap { element -> ObjectKey? in
                if case .link(let key) = element { return key }
                return nil
            }
            return .object([
                ("$refs", .array(try keys.prefix(preview).map { try reference($0, in: target) })),
                ("count", .number(String(elements.count))),
            ])
        case .map(let entries):
            var members: [(key: String, value: JSONValue)] = []
            for name in entries.keys.sorted().prefix(preview) {
                if case .link(let key)? = entries[name] {
                    members.append((name, try reference(key, in: target)))
                } else {
                    members.append((name, .null))
                }
            }
            return .object([("$map", .object(members)), ("count", .number(String(entries.count)))])
        default:
            return .null
        }
    }

    /// A reference to object `key` of `target`.
    func reference(_ key: ObjectKey, in target: Table) throws -> JSONValue {
        .object([("$ref", .object([
            ("model", .string(target.name)), ("key", .number(String(key.rawValue))),
            ("label", .string(try label(key, in: target))),
        ]))])
    }

    /// How the page names object `key` of `table`: its primary key, else `#key`.
    func label(_ key: ObjectKey, in table: Table) throws -> String {
        guard let primaryKey = table.primaryKey else { return "#\(key.rawValue)" }
        switch try table.value(key, column: primaryKey) {
        case .string(let text): return text
        case .int(let number): return String(number)
        case let other: return other.description
        }
    }

    /// Each backlinks column of `table` (the inverse of a link, list, set or map of another model) with the
    /// objects that link to `key` through it: what a linkingObjects property of the model lists.
    func linkingObjects(_ key: ObjectKey, of table: Table) throws -> JSONValue {
        var groups: [JSONValue] = []
        for spec in table.columns where spec.type == .backlinks {
            guard let origin = spec.target.flatMap(catalog.table), let column = spec.origin.flatMap(origin.column)
            else { continue }
            var keys: [ObjectKey] = []
            if case .list(let elements) = try table.value(key, column: spec.key) {
                for case .link(let linker) in elements where !keys.contains(linker) { keys.append(linker) }
            }
            guard !keys.isEmpty else { continue }
            groups.append(.object([
                ("model", .string(origin.name)), ("property", .string(column.name)),
                ("objects", .array(try keys.map { try reference($0, in: origin) })),
            ]))
        }
        return .array(groups)
    }
}
