/// Where and how a database opens: its schema and, for a schema with `migrate: custom` steps, the app's
/// migration code.
///
/// ```swift
/// let config = Configuration(schema: Library.self)                              // no custom steps
/// let config = Configuration(schema: Library.self, migrations: MyMigrations())   // with custom steps
/// ```
///
/// A schema with custom steps has no `Configuration(schema:)`: the generated code only offers the initializer
/// that takes the migrations, so a missing migration does not compile.
public struct Configuration: Sendable {
    /// The generated schema the database holds.
    public let schema: any Schema.Type
    /// The app's code for the schema's `migrate: custom` steps (none for a schema without them).
    public let customMigrations: CustomMigrations

    /// A configuration for a schema that has no `migrate: custom` step.
    ///
    /// - Parameter schema: The generated schema type, for example `Library.self`.
    public init<S: SchemaWithoutCustomMigrations>(schema: S.Type) {
        self.schema = schema
        customMigrations = .none
    }

    /// A configuration for a schema with custom steps: generated `Configuration(schema:migrations:)` overloads
    /// call this after turning the app's typed migrations into ``CustomMigrations``.
    @_spi(StrataGenerated) public init(schema: any Schema.Type, customMigrations: CustomMigrations) {
        self.schema = schema
        self.customMigrations = customMigrations
    }
}
