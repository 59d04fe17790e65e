/// Names the generated code needs for itself, so a schema may not take them (issue #23: schemas whose generated
/// code did not compile). Each set says where the generated code uses the names.
enum ReservedNames {
    /// Names of Swift, Foundation and Strata types (and of the modules) the generated code refers to
    /// unqualified, so a schema or model may not take them: a model called `Date` would hide Foundation's `Date`
    /// in every generated file of the target, one called `Element` would make `Query where Element == Element`.
    static let typeNames: Set<String> = [
        "Any", "AnyValue", "Array", "Bool", "CaseIterable", "Configuration", "CustomMigrations", "Data", "Database",
        "Date", "Decimal", "Dictionary", "Double", "Element", "EmbeddedObject", "Float", "Foundation", "Int", "Int8",
        "Int16", "Int32", "Int64", "LinkingObjects", "List", "ManagedObjectAccessor", "Migration", "MigrationPlan",
        "ModelDefinition", "ModelDescription", "Object", "ObjectBase", "ObjectId", "Optional", "PersistedValue",
        "PropertyDefinition", "Protocol", "Query", "QueryExpression", "Results", "Schema", "SchemaHistory",
        "SchemaVersion", "SchemaWithoutCustomMigrations", "Self", "Sendable", "Set", "SourceLocation", "Strata",
        "String", "Swift", "Type", "UUID", "UnmanagedValues",
    ]

    /// Members of the generated schema type (`Library.version`, `Library.V2`) and contextual keywords, which a
    /// model may not be named: the schema type lists its models by name, where these mean something else.
    static let schemaMemberNames: Set<String> = [
        "any", "customMigrations", "fingerprints", "history", "objectTypes", "self", "some", "version",
    ]

    /// Members every model class has (from `Object` or generated; `accessor` is the stored object of the views
    /// of older versions) and words that cannot name a member, which a property may not be named; nor may a
    /// schema, which the class refers to by name where they are in scope.
    static let memberNames: Set<String> = [
        "Protocol", "Self", "Type", "accessor", "changes", "database", "deinit", "freeze", "fromPersistedValue", "init",
        "isFrozen", "isInvalidated", "isManaged", "isSameObject", "managedAccessor", "model", "modelDescription",
        "observe", "persistedValue", "persistedValues", "self", "subscript", "super", "unmanaged",
    ]

    /// Whether `name` is a version namespace of the schema type (`V1`, `V23`).
    static func isVersionNamespace(_ name: String) -> Bool {
        guard name.first == "V", name.count > 1 else { return false }
        return name.dropFirst().allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// Why a model may not be called `name`, or `nil`.
    static func modelProblem(_ name: String) -> String? {
        if isVersionNamespace(name) {
            return "model name '\(name)' is the name of a version namespace of the schema type ('Schema.\(name)'): "
                + "choose another, such as '\(name)Model'"
        }
        if schemaMemberNames.contains(name) || memberNames.contains(name) {
            return "model name '\(name)' is a member of the generated schema type or model classes, or a Swift "
                + "keyword there: choose another, such as '\(upperCamel(name))Model'"
        }
        return nil
    }

    /// Why a schema may not be called `name`, or `nil`.
    static func schemaProblem(_ name: String) -> String? {
        if isVersionNamespace(name) {
            return "schema name '\(name)' is the name of a version namespace inside the schema type "
                + "('\(name).\(name)' would mean the namespace): choose another, such as '\(name)Schema'"
        }
        guard memberNames.contains(name) || schemaMemberNames.contains(name) else { return nil }
        return "schema name '\(name)' is the name of a member of every model class (or of the schema type): "
            + "the generated classes refer to the schema by name, where '\(name)' means that member; choose "
            + "another, such as '\(upperCamel(name))Schema'"
    }

    /// Why a property may not be called `name` in a schema named `schema` whose models are `models`, or `nil`.
    static func propertyProblem(_ name: String, schema: String, isModel: (String) -> Bool) -> String? {
        if memberNames.contains(name) {
            return "the model classes already have a member '\(name)' (from Strata's 'Object' or generated): "
                + "rename the property, for example '\(suggestedProperty(name))'"
        }
        if name == schema {
            return "it is the schema's name, which the generated class uses inside its body: rename the property, "
                + "for example '\(suggestedProperty(name))'"
        }
        if isModel(name) {
            return "it is the name of model '\(name)', which the generated classes use inside their bodies: "
                + "rename the property, for example '\(suggestedProperty(name))'"
        }
        if typeNames.contains(name) {
            return "it is the name of a type the generated class uses inside its body: rename the property, for "
                + "example '\(suggestedProperty(name))'"
        }
        return nil
    }

    /// `name` with its first letter in upper case.
    private static func upperCamel(_ name: String) -> String {
        guard let first = name.first else { return name }
        return first.uppercased() + name.dropFirst()
    }

    /// A property name for `name`: lower camel case if that is free (`Date` → `date`), else `name` + `Value`.
    private static func suggestedProperty(_ name: String) -> String {
        if let first = name.first, first.isUppercase {
            let lowered = first.lowercased() + name.dropFirst()
            if !memberNames.contains(lowered) && lowered != name { return lowered }
        }
        return name + "Value"
    }
}
