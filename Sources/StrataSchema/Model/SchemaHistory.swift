/// All versions of one schema, oldest first, with the migration plan between each consecutive pair.
public struct SchemaHistory: Hashable, Sendable {
    /// The schema's name (`schema:`), shared by every version.
    public var name: String
    /// The versions, strictly increasing.
    public var versions: [SchemaVersion]
    /// `plans[i]` leads from `versions[i]` to `versions[i + 1]`.
    public var plans: [MigrationPlan]

    /// Creates a history. Validation guarantees the invariants; this initializer does not check them.
    public init(name: String, versions: [SchemaVersion], plans: [MigrationPlan]) {
        self.name = name
        self.versions = versions
        self.plans = plans
    }

    /// The newest version: what the app uses.
    public var current: SchemaVersion { versions[versions.count - 1] }
}
