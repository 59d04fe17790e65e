/// One model (an object type) in one schema version.
public struct ModelDefinition: Hashable, Sendable {
    /// The model's name, an upper-camel Swift identifier; the generated class is named after it.
    public var name: String
    /// `doc:`
    public var doc: String?
    /// `primaryKey:`: the name of an `int`, `string` or `uuid` property.
    public var primaryKey: String?
    /// The properties in the order the file lists them.
    public var properties: [PropertyDefinition]
    /// `indexes:`: compound indexes, each a list of property names.
    public var compoundIndexes: [[String]]
    /// `unique:` on the model: groups of properties whose values together are unique among the model's objects
    /// (a group in which any value is null never collides); each is kept by a unique index.
    public var uniqueGroups: [[String]]
    /// `removed:`: properties dropped since the previous version.
    public var removedProperties: [String]
    /// `renamedFrom:`: the model's name in the previous version.
    public var renamedFrom: String?
    /// `migrate: custom`: the step into this version needs app code for this model.
    public var needsCustomMigration: Bool
    /// `embedded: true`: the model's objects have no identity of their own; each belongs to exactly one parent
    /// object (through a link or a list element of the parent) and is deleted with it.
    public var isEmbedded: Bool
    /// Where the model's key is in the file.
    public var location: SourceLocation

    /// Creates a model definition.
    public init(
        name: String, doc: String? = nil, primaryKey: String? = nil, properties: [PropertyDefinition],
        compoundIndexes: [[String]] = [], uniqueGroups: [[String]] = [], removedProperties: [String] = [],
        renamedFrom: String? = nil, needsCustomMigration: Bool = false, isEmbedded: Bool = false,
        location: SourceLocation
    ) {
        self.name = name
        self.doc = doc
        self.primaryKey = primaryKey
        self.properties = properties
        self.compoundIndexes = compoundIndexes
        self.uniqueGroups = uniqueGroups
        self.removedProperties = removedProperties
        self.renamedFrom = renamedFrom
        self.needsCustomMigration = needsCustomMigration
        self.isEmbedded = isEmbedded
        self.location = location
    }

    /// The property named `name`, if the model has one.
    public func property(named name: String) -> PropertyDefinition? {
        properties.first { $0.name == name }
    }

    /// Every uniqueness rule of the model as lists of property names: each `unique: true` property alone, then
    /// each `unique:` group. The primary key is unique without being listed here.
    public var uniquenessRules: [[String]] {
        properties.filter { $0.isUnique && $0.name != primaryKey }.map { [$0.name] } + uniqueGroups
    }

    /// The properties the store keeps: everything but transient properties and linking objects.
    public var persistedProperties: [PropertyDefinition] {
        properties.filter(\.isPersisted)
    }
}
