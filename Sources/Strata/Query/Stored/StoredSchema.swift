import StrataSchema
import StrataStorage

/// The models of a database file as its catalog describes them, bound as an app's schema would be: what lets the
/// query engine run over a file with no app code (``StoredQuery``; `strata export --filter` and Strata Studio).
///
/// Each table becomes a model and each stored column a property of the type the column holds: its value kind
/// (`int` for every integer width, `string` for enumerations), optional when the column holds nil, a list, set or
/// map of such values, a link to the target table's model. What the file does not record is left out: transient
/// properties, defaults, and linkingObjects (their names live in the app's schema only; the studio lists the
/// inverse links apart). Indexes, full-text indexes and the primary key are the tables' own, so the planner uses
/// them as it does for the app.
struct StoredSchema {
    /// The bound models, one per table, in the catalog's order.
    let binding: SchemaBinding

    /// Binds every table of `catalog`.
    init(catalog: Catalog) {
        var models: [ModelBinding] = []
        for table in catalog.tables {
            var properties: [PropertyDefinition] = []
            var columns: [ColumnKey] = []
            for spec in table.columns {
                guard let type = Self.propertyType(of: spec, in: catalog) else { continue }
                properties.append(PropertyDefinition(
                    name: spec.name, type: type, isIndexed: table.index(on: [spec.key]) != nil,
                    location: Self.location, isFullText: table.fullTextIndex(on: spec.key) != nil))
                columns.append(spec.key)
            }
            let definition = ModelDefinition(
                name: table.name, primaryKey: table.primaryKey.flatMap(table.column)?.name, properties: properties,
                isEmbedded: table.isEmbedded, location: Self.location)
            // There is no generated class: `ObjectBase` stands for every model (no object is ever made from them).
            models.append(ModelBinding(
                index: models.count, type: ObjectBase.self, version: 0, definition: definition, tableKey: table.key,
                columns: columns))
        }
        binding = SchemaBinding(models: models)
        for model in models {
            for (column, property) in model.description.properties.enumerated() {
                if let target = property.type.linkedModel { model.linkTargets[column] = binding.model(named: target) }
            }
        }
    }

    /// Where a property read from a file comes from, for the schema types that want a source location.
    private static let location = SourceLocation(path: "<stored schema>", line: 0, column: 0)

    /// The schema type of the property `spec` stores; `nil` for backlinks and for what no property declares.
    static func propertyType(of spec: ColumnSpec, in catalog: Catalog) -> PropertyType? {
        func element(_ kind: ValueKind, nullable: Bool) -> PropertyType? {
            guard let type = valueType(kind, target: spec.target.flatMap(catalog.table)?.name) else { return nil }
            switch type {
            case .link, .any: return type
            default: return nullable ? .optional(type) : type
            }
        }
        switch spec.type {
        case .value(let kind): return element(kind, nullable: spec.isNullable)
        case .list(let kind): return element(kind, nullable: spec.elementsNullable).map(PropertyType.list)
        case .set(let kind): return element(kind, nullable: spec.elementsNullable).map(PropertyType.set)
        case .map(let kind): return element(kind, nullable: spec.elementsNullable).map(PropertyType.map)
        case .backlinks: return nil
        }
    }

    /// The schema type of one stored value kind (a link to `target`).
    private static func valueType(_ kind: ValueKind, target: String?) -> PropertyType? {
        switch kind {
        case .int: return .integer(.int)
        case .bool: return .bool
        case .float: return .float
        case .double: return .double
        case .string: return .string
        case .binary: return .data
        case .timestamp: return .date
        case .uuid: return .uuid
        case .link: return target.map(PropertyType.link)
        case .decimal: return .decimal
        case .objectId: return .objectId
        case .mixed: return .any
        // A typed link is held inside mixed values, never declared as a property.
        case .typedLink: return nil
        }
    }
}
