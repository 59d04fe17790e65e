import StrataSchema

/// A schema the build plugin generated from `*.strata.yaml` files: `enum Library: Schema`.
///
/// It carries the full description of every version (so the runtime creates tables and checks the fingerprints
/// a database file recorded without parsing YAML), the migration plan between consecutive versions, and the
/// model classes of the newest version. Its metatype is sendable (`SendableMetatype`), so a ``Configuration``
/// holding it can cross threads.
public protocol Schema: SendableMetatype {
    /// The newest version: the one the app's model classes match.
    static var version: Int { get }
    /// Every version, oldest first, and the migration plan between each consecutive pair.
    static var history: SchemaHistory { get }
    /// The fingerprint of every version, by version number: a database file records those it went through, and
    /// opening it with a history that differs (an old version edited after release) is refused.
    static var fingerprints: [Int: String] { get }
    /// The fingerprint of version `version`, or `nil` for a version the history does not have: what
    /// ``fingerprints`` holds for it. Opening a file asks this, not ``fingerprints``: the generated code answers with
    /// a `switch`, where building the dictionary costs a fresh process a look-up of `Int`'s `Hashable`
    /// conformance in every conformance record the program has (about a twentieth of a millisecond).
    static func fingerprint(ofVersion version: Int) -> String?
    /// The model classes of the newest version, in the order the schema file lists them.
    static var objectTypes: [ObjectBase.Type] { get }
}

extension Schema {
    /// ``fingerprints``'s entry for `version` (schemas generated before this requirement existed).
    public static func fingerprint(ofVersion version: Int) -> String? { fingerprints[version] }

    /// The schema's name (`schema:` in its files).
    public static var name: String { history.name }

    /// The model class named `name` in the newest version, or `nil`: how the runtime creates managed instances
    /// of a stored table's objects without reflection.
    ///
    /// - Complexity: O(*n*) in the number of models.
    public static func objectType(named name: String) -> ObjectBase.Type? {
        objectTypes.first { $0.modelDescription.name == name }
    }
}

/// Marks a schema none of whose version steps has `migrate: custom`: only such a schema opens with
/// `Configuration(schema:)`. The generated code of a schema with custom steps adds an initializer that also takes
/// the app's migrations, so forgetting them does not compile.
public protocol SchemaWithoutCustomMigrations: Schema {}
