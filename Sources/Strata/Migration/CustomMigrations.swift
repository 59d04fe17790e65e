/// The app's code for the `migrate: custom` steps of a schema, in a form the runtime can run.
///
/// Built by generated code from the app's implementation of the schema's migrations protocol (for example
/// `LibraryMigrations`); apps pass that implementation to `Configuration(schema:migrations:)` and never build
/// this type themselves.
public struct CustomMigrations: Sendable {
    /// One custom step: the code that fills a new object of `model` in `toVersion` from the old object.
    public struct Step: Sendable {
        /// The model the step migrates (its name in `toVersion`).
        public let model: String
        /// The version the step arrives at.
        public let toVersion: Int
        /// Reads the old object and writes the new one, each through its store reference.
        let run: @Sendable (_ old: any ManagedObjectAccessor, _ new: any ManagedObjectAccessor) throws -> Void

        /// Creates a step.
        @_spi(StrataGenerated) public init(
            model: String, toVersion: Int,
            run: @escaping @Sendable (_ old: any ManagedObjectAccessor, _ new: any ManagedObjectAccessor) throws -> Void
        ) {
            self.model = model
            self.toVersion = toVersion
            self.run = run
        }
    }

    /// The steps, in the order the schema's history lists them.
    public let steps: [Step]

    /// No custom steps: what a schema without `migrate: custom` uses.
    public static let none = CustomMigrations(steps: [])

    /// Creates the custom steps of a schema.
    @_spi(StrataGenerated) public init(steps: [Step]) {
        self.steps = steps
    }

    /// The step for `model` arriving at `toVersion`, if the schema declares one.
    public func step(for model: String, toVersion: Int) -> Step? {
        steps.first { $0.model == model && $0.toVersion == toVersion }
    }

    /// Runs the step for `model` arriving at `toVersion` on one object.
    ///
    /// A model without a step is left as the automatic steps made it: generated code guarantees that every step
    /// the schema declares is here, so the runtime need not treat a missing one as an error.
    ///
    /// - Throws: Whatever the app's migration code throws; the runtime then abandons the whole migration.
    @_spi(StrataGenerated) public func run(
        model: String, toVersion: Int, old: any ManagedObjectAccessor, new: any ManagedObjectAccessor
    ) throws {
        try step(for: model, toVersion: toVersion)?.run(old, new)
    }
}
