import StrataSchema

/// The server's view of the app's schemas: the newest version of each schema found in `--schemas DIR`, mapped to
/// PostgreSQL tables.
public struct SyncSchema: Sendable {
    /// The schema versions the tables follow, one per schema name.
    public let versions: [SchemaVersion]
    /// The tables, by model name.
    let tables: [String: ModelTable]
    /// Models removed by the newest versions (`removedModels:`), whose tables are dropped.
    let removedModels: [String]

    /// Maps schema versions to tables.
    /// - Throws: `SyncSchemaError` when two schemas define the same model.
    public init(versions: [SchemaVersion]) throws {
        var definitions: [String: ModelDefinition] = [:]
        for version in versions {
            for model in version.models {
                if definitions[model.name] != nil {
                    throw SyncSchemaError(
                        "model \(model.name) is defined by more than one schema; names must be unique")
                }
                definitions[model.name] = model
            }
        }
        let keyTypes = definitions.mapValues(ModelTable.keyType(of:))
        var tables: [String: ModelTable] = [:]
        // Embedded objects travel inside their owners' values (docs/SYNC.md, "Embedded objects"): no table.
        for (name, model) in definitions where !model.isEmbedded {
            tables[name] = ModelTable(model, keyType: { keyTypes[$0] }, definition: { definitions[$0] })
        }
        self.versions = versions
        self.tables = tables
        self.removedModels = versions.flatMap(\.removedModels)
    }

    /// The table of `model`, if the schemas define it.
    func table(_ model: String) -> ModelTable? { tables[model] }

    /// The names of every model, sorted.
    public var modelNames: [String] { tables.keys.sorted() }
}

/// A problem with the schema files or with mapping them to PostgreSQL.
public struct SyncSchemaError: Error, Sendable, CustomStringConvertible {
    /// What was wrong.
    public var description: String

    /// Creates an error.
    public init(_ description: String) { self.description = description }
}
