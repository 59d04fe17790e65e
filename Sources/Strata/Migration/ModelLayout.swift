import StrataSchema
import StrataStorage

/// Where one model of one schema version lives in the file during a migration: its table and the store column of
/// each persisted property, by the column numbers of that version's ``ModelDescription`` (the numbers generated
/// views of old versions and generated model classes use).
///
/// Keys, not names, are kept: table and column keys survive renames, so a layout resolved before a step still
/// reads the old values after the step renamed or set aside their columns.
final class ModelLayout {
    /// The schema version the layout describes.
    let version: Int
    /// The model as that version declares it.
    let definition: ModelDefinition
    /// Its persisted properties in column order.
    let description: ModelDescription
    /// The table holding its objects.
    let tableKey: TableKey
    /// The store column of each persisted property.
    let columns: [ColumnKey]
    /// For each link or list-of-links column, the layout of the model it points to (filled once all are resolved).
    var linkTargets: [Int: ModelLayout] = [:]

    init(version: Int, definition: ModelDefinition, tableKey: TableKey, columns: [ColumnKey]) {
        self.version = version
        self.definition = definition
        self.description = ModelDescription(definition)
        self.tableKey = tableKey
        self.columns = columns
    }

    /// The model's name in its version.
    var name: String { definition.name }

    /// The name of the property in column `column`, for messages.
    func propertyName(_ column: Int) -> String {
        column >= 0 && column < description.properties.count ? description.properties[column].name : "#\(column)"
    }
}

/// The layouts of every model of one schema version, resolved by name against the file's catalog.
struct VersionLayout {
    /// The version described.
    let version: Int
    /// The models, by name.
    let models: [String: ModelLayout]

    /// Resolves `schema`'s models against `catalog`, whose tables and columns must carry the version's names.
    ///
    /// - Throws: `StrataError.schemaMismatch` naming the model or property the file lacks or stores with another
    ///   type (a file that was not written by this schema's history).
    init(_ schema: SchemaVersion, catalog: Catalog, path: String) throws {
        version = schema.version
        var models: [String: ModelLayout] = [:]
        for model in schema.models {
            guard let table = catalog.table(named: model.name) else {
                throw StrataError.schemaMismatch(
                    path: path, detail: "version \(schema.version) has model \(model.name) but the file has no table for it")
            }
            let columns = try table.columnKeys(for: model, version: schema.version, path: path)
            models[model.name] = ModelLayout(
                version: schema.version, definition: model, tableKey: table.key, columns: columns)
        }
        for layout in models.values {
            for (column, property) in layout.description.properties.enumerated() {
                if let target = property.type.linkedModel { layout.linkTargets[column] = models[target] }
            }
        }
        self.models = models
    }

    /// The layout of the model named `name`.
    subscript(name: String) -> ModelLayout? { models[name] }
}
