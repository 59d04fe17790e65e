import StrataSchema

/// What the runtime needs to know about one generated model: its name, its persisted properties in column
/// order, and its primary key.
///
/// Generated classes build it from the newest `SchemaVersion` the schema carries, so the runtime never parses
/// YAML. Column `i` of the model's table holds `properties[i]`.
public struct ModelDescription: Hashable, Sendable {
    /// The model's name, which is also the generated class's name.
    public var name: String
    /// The name of the primary-key property, if the model has one.
    public var primaryKey: String?
    /// The persisted properties (no transient properties, no linking objects), in column order.
    public var properties: [PropertyDefinition]
    /// The linking-objects properties: computed by the store from other models' links, never stored.
    public var linkingObjects: [PropertyDefinition]

    /// Creates a description from its parts.
    public init(
        name: String, primaryKey: String?, properties: [PropertyDefinition], linkingObjects: [PropertyDefinition] = []
    ) {
        self.name = name
        self.primaryKey = primaryKey
        self.properties = properties
        self.linkingObjects = linkingObjects
    }

    /// Describes `model` as the schema compiler validated it: persisted properties keep the order the schema
    /// file lists them in.
    public init(_ model: ModelDefinition) {
        var linkingObjects: [PropertyDefinition] = []
        for property in model.properties {
            if case .linkingObjects = property.type, !property.isTransient { linkingObjects.append(property) }
        }
        self.init(
            name: model.name, primaryKey: model.primaryKey, properties: model.persistedProperties,
            linkingObjects: linkingObjects
        )
    }

    /// The column that holds the property named `name`, or `nil` if it is not a persisted property.
    ///
    /// - Complexity: O(*n*) in the number of properties.
    public func column(named name: String) -> Int? {
        properties.firstIndex { $0.name == name }
    }

    /// The column of the primary key, if the model has one.
    public var primaryKeyColumn: Int? {
        primaryKey.flatMap(column(named:))
    }
}
