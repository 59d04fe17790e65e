/// What changes between two consecutive versions of a schema, as steps the runtime applies in order.
public struct MigrationPlan: Hashable, Sendable {
    /// The version the step starts from.
    public var fromVersion: Int
    /// The version it arrives at (`fromVersion`'s successor in the history).
    public var toVersion: Int
    /// The steps, in the order they are applied.
    public var steps: [MigrationStep]

    /// Creates a plan.
    public init(fromVersion: Int, toVersion: Int, steps: [MigrationStep]) {
        self.fromVersion = fromVersion
        self.toVersion = toVersion
        self.steps = steps
    }

    /// Models for which the app must supply code (`migrate: custom`).
    public var customModels: [String] {
        steps.compactMap { step in
            if case .custom(let model) = step { return model }
            return nil
        }
    }
}

/// One change between two versions; one case per row of docs/SCHEMA.md's migration table.
public enum MigrationStep: Hashable, Sendable {
    /// A model that is new in this version: created empty.
    case addModel(String)
    /// A model listed in `removedModels`: dropped with its objects.
    case removeModel(String)
    /// `renamedFrom` on a model: renamed, objects kept.
    case renameModel(from: String, to: String)
    /// A property that is new: created, filled with its default (`nil` = the type's zero value).
    case addProperty(model: String, property: String, type: PropertyType, defaultValue: DefaultValue?)
    /// A property listed in `removed`: dropped.
    case removeProperty(model: String, property: String)
    /// `renamedFrom` on a property: renamed, values kept.
    case renameProperty(model: String, from: String, to: String)
    /// A lossless conversion (`int8→…→int64`, `float→double`, `int*→double`, `T→T?`).
    case convertProperty(model: String, property: String, from: PropertyType, to: PropertyType)
    /// `T?→T` with a default: nils become the default.
    case replaceNils(model: String, property: String, from: PropertyType, to: PropertyType, defaultValue: DefaultValue)
    /// `indexed` or `indexes` changed: the model's indexes are rebuilt.
    case rebuildIndexes(model: String)
    /// `primaryKey` changed: the key is checked for duplicates (the migration fails naming them) and indexed.
    case changePrimaryKey(model: String, from: String?, to: String?)
    /// `migrate: custom`: the app's code runs for this model.
    case custom(model: String)
    /// `embedded: true` added (`embedded` is `true`) or removed: once the step's custom code has run, every object
    /// of a model becoming embedded must have exactly one owner (the migration fails naming the orphans and the
    /// objects with several owners).
    case changeEmbedded(model: String, embedded: Bool)
    /// `unique: true` or `unique: [[a, b]]` added: the existing objects are checked for equal values there (the
    /// migration fails naming the duplicates, the file untouched) before the unique index is built.
    case checkUniqueness(model: String, properties: [String])
    /// `onDelete:` changed (`nil` is the default, `nullify`): nothing to migrate, the rule applies to later deletes.
    case changeDeleteRule(model: String, property: String, from: DeleteRule?, to: DeleteRule?)
}
