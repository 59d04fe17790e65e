import Strata
import StrataStorage

/// Describes the schema stored in the file, for the page: each model with its properties (name, type, whether
/// optional, link target), indexes, uniqueness and delete rules and linkingObjects, and the version history
/// the file records (its schema's name, the version its tables match and every version it was created at or
/// migrated through, with what each step did in words).
///
/// It reads only the file: the catalog (tables, columns, indexes) and the schema record (`strata.schema`
/// metadata: name, version, fingerprints by version, delete rules) that the runtime writes on every open.
struct SchemaDescriber {
    let catalog: Catalog

    /// The whole description.
    func describe() throws -> JSONValue {
        let record = try SchemaRecordSummary(catalog: catalog)
        var models: [JSONValue] = []
        for table in catalog.tables.sorted(by: { $0.name < $1.name }) {
            models.append(try model(table, rules: record.deleteRules))
        }
        return .object([("models", .array(models)), ("history", record.history())])
    }

    private func model(_ table: Table, rules: [String: String]) throws -> JSONValue {
        let columns = RowEncoder.visibleColumns(table).map { column($0, of: table) }
        let key = [table.primaryKey].compactMap { $0 }
        var indexes: [JSONValue] = []
        for spec in table.indexSpecs {
            let names = spec.columns.map { table.column($0)?.name ?? "?" }
            let kind = spec.columns == key ? "primary key" : (spec.isUnique ? "unique" : "index")
            indexes.append(.object([("properties", .array(names.map { .string($0) })), ("kind", .string(kind))]))
        }
        for spec in table.fullTextIndexSpecs {
            let names = spec.columns.map { table.column($0)?.name ?? "?" }
            indexes.append(.object([("properties", .array(names.map { .string($0) })), ("kind", .string("full-text"))]))
        }
        let prefix = table.name + "."
        let deleteRules = rules.filter { $0.key.hasPrefix(prefix) }.sorted { $0.key < $1.key }.map { rule in
            JSONValue.object([
                ("property", .string(String(rule.key.dropFirst(prefix.count)))), ("rule", .string(rule.value)),
            ])
        }
        var linking: [JSONValue] = []
        for spec in table.columns where spec.type == .backlinks {
            guard let origin = spec.target.flatMap(catalog.table), let link = spec.origin.flatMap(origin.column)
            else { continue }
            linking.append(.object([("model", .string(origin.name)), ("property", .string(link.name))]))
        }
        return .object([
            ("name", .string(table.name)),
            ("embedded", .bool(table.isEmbedded)),
            ("objects", .number(String(try table.count()))),
            ("primaryKey", table.primaryKey.flatMap(table.column).map { .string($0.name) } ?? .null),
            ("properties", .array(columns)),
            ("indexes", .array(indexes)),
            ("deleteRules", .array(deleteRules)),
            ("linkingObjects", .array(linking)),
        ])
    }

    /// One property: `{"name", "type", "optional", "kind", "target"}`, where `kind` is value, list, set or map
    /// and `target` the linked model.
    func column(_ spec: ColumnSpec, of table: Table) -> JSONValue {
        let kind: String
        let element: ValueKind?
        switch spec.type {
        case .value(let value): (kind, element) = ("value", value)
        case .list(let value): (kind, element) = ("list", value)
        case .set(let value): (kind, element) = ("set", value)
        case .map(let value): (kind, element) = ("map", value)
        case .backlinks: (kind, element) = ("linkingObjects", nil)
        }
        let target = spec.target.flatMap(catalog.table)
        return .object([
            ("name", .string(spec.name)),
            ("type", .string("\(spec.type)" + (spec.isNullable ? "?" : ""))),
            ("kind", .string(kind)),
            ("element", element.map { .string($0.description) } ?? .null),
            ("optional", .bool(spec.isNullable)),
            ("target", target.map { .string($0.name) } ?? .null),
            ("targetEmbedded", .bool(target?.isEmbedded ?? false)),
            ("primaryKey", .bool(spec.key == table.primaryKey)),
        ])
    }
}
