/// How far a migration has got, as ``Configuration/migrationProgress`` reports it.
///
/// `total` is the number of objects the file held when the migration began times the number of version steps
/// it runs, so `done / total` grows steadily from 0 to 1 even when a step touches only some models.
public struct MigrationProgress: Hashable, Sendable {
    /// The version the file is at before the migration.
    public var fromVersion: Int
    /// The version the migration brings it to (the code's).
    public var toVersion: Int
    /// The version step being run now (its target version).
    public var currentStep: Int
    /// Objects processed so far, over every step.
    public var done: Int
    /// Objects the whole migration processes.
    public var total: Int

    /// The fraction done, from 0 to 1 (1 for an empty file).
    public var fraction: Double { total == 0 ? 1 : min(1, Double(done) / Double(total)) }
}
