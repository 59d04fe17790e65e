import StrataSchema

/// How an enum property's nested Swift type is named: `status` → `Status` (docs/SCHEMA.md: "generates
/// `Person.Status: String`"), or `StatusKind` when `Status` would hide or clash with a name the class needs.
/// Validation uses it to refuse two enum properties that would clash; code generation uses the same functions so
/// both agree.
public enum EnumNaming {
    /// The nested enum type's name for the enum property `property`: its name with the first letter upper-cased.
    public static func typeName(forProperty property: String) -> String {
        guard let first = property.first else { return property }
        return first.uppercased() + property.dropFirst()
    }

    /// The nested enum type's name for the enum property `property`, with `Kind` appended when the plain name is
    /// among `taken` or is the property's own name (`名前`, `_1`, `V1`, whose first letter has no upper case).
    public static func typeName(forProperty property: String, taken: Set<String>) -> String {
        let name = typeName(forProperty: property)
        return taken.contains(name) || name == property ? name + "Kind" : name
    }

    /// Names a nested enum type of `model` must not take: the models and the schema (the class refers to them),
    /// the model's properties, and the Swift, Foundation and Strata types the generated class uses.
    public static func takenNames(in model: ModelDefinition, of version: SchemaVersion) -> Set<String> {
        takenNames(in: model, schemaTakenNames: schemaTakenNames(of: version))
    }

    /// ``takenNames(in:of:)`` for every model of a version at once: the names taken by `version` as a whole
    /// (computed once, so that naming every model's enums stays linear in the schema's size).
    public static func schemaTakenNames(of version: SchemaVersion) -> Set<String> {
        var taken = ReservedNames.typeNames.union(version.models.map(\.name))
        taken.insert(version.schemaName)
        return taken
    }

    /// The names a nested enum type of `model` must not take, given those its version takes as a whole.
    public static func takenNames(in model: ModelDefinition, schemaTakenNames: Set<String>) -> Set<String> {
        schemaTakenNames.union(model.properties.map(\.name))
    }
}
