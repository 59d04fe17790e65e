/// Access level of generated code (`access:`).
public enum AccessLevel: String, Hashable, Sendable {
    /// `public`
    case `public`
    /// `internal` (the default)
    case `internal`
}

/// One schema file: one complete version of one schema.
public struct SchemaVersion: Hashable, Sendable {
    /// `schema:`: names the generated schema type.
    public var schemaName: String
    /// `version:`: positive, strictly increasing along the history.
    public var version: Int
    /// `access:`
    public var access: AccessLevel
    /// The models in the order the file lists them.
    public var models: [ModelDefinition]
    /// `removedModels:`: models dropped since the previous version.
    public var removedModels: [String]
    /// Where the file is (its `schema:` key).
    public var location: SourceLocation

    /// Creates a schema version.
    public init(
        schemaName: String, version: Int, access: AccessLevel = .internal, models: [ModelDefinition],
        removedModels: [String] = [], location: SourceLocation
    ) {
        self.schemaName = schemaName
        self.version = version
        self.access = access
        self.models = models
        self.removedModels = removedModels
        self.location = location
    }

    /// The model named `name`, if this version has one.
    public func model(named name: String) -> ModelDefinition? {
        models.first { $0.name == name }
    }
}
