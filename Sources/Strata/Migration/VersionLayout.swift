import StrataSchema
import StrataStorage

/// One model of one schema version as a migration sees it: its ``ModelLayout`` and the models of the same version
/// its links point to.
final class VersionModel: ModelLayout {
    /// For each link or list-of-links column, the model it points to (filled once all are resolved).
    var linkTargets: [Int: VersionModel] = [:]
}

/// The layouts of every model of one schema version, resolved by name against the file's catalog.
struct VersionLayout {
    /// The version described.
    let version: Int
    /// The models, by name.
    let models: [String: VersionModel]

    /// Resolves `schema`'s models against `catalog`, whose tables and columns must carry the version's names.
    ///
    /// - Throws: `StrataError.schemaMismatch` naming the model or property the file lacks or stores with another
    ///   type (a file that was not written by this schema's history).
    init(_ schema: SchemaVersion, catalog: Catalog, path: String) throws {
        version = schema.version
        var models: [String: VersionModel] = [:]
        for model in schema.models {
            guard let table = catalog.shape(ofTableNamed: model.name) else {
                throw StrataError.schemaMismatch(
                    path: path,
                    detail: "version \(schema.version) has model \(model.name) but the file has no table for it")
            }
            let columns = try table.columnKeys(for: model, version: schema.version, path: path)
            models[model.name] = VersionModel(
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
    subscript(name: String) -> VersionModel? { models[name] }
}
