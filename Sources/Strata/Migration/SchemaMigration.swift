import StrataSchema
import StrataStorage

/// Brings a file from the schema version it records to the code's, running every version step k→k+1→…→n in
/// the caller's single write transaction, then records the new version and the fingerprints it went through.
///
/// It never commits: the caller commits when it returns and rolls back when it throws, so a failure, a crash
/// or a kill leaves the file at its old version, exactly as it was.
struct SchemaMigration {
    let configuration: Configuration
    let catalog: Catalog
    let path: String

    /// Runs the steps from `recorded.version` to the code's version.
    ///
    /// - Throws: `StrataError.migrationNeeded` when the code's history does not reach back to the file's version;
    ///   `StrataError.migrationFailed` naming the step, model, property and objects of a failed step; what the
    ///   app's migration code throws.
    func run(from recorded: SchemaRecord) throws {
        let schema = configuration.schema
        let history = schema.history
        let target = schema.version
        guard history.versions.contains(where: { $0.version == recorded.version }) else {
            let known = history.versions.map { String($0.version) }.joined(separator: ", ")
            throw StrataError.migrationNeeded(
                path: path, fileVersion: recorded.version, schemaVersion: target,
                detail: "the code's history of \(schema.name) has versions \(known) but not \(recorded.version), so "
                    + "there is no path to migrate along; keep every released version's schema file")
        }
        var totalObjects = 0
        for table in catalog.tables { totalObjects += try table.count() }
        let session = MigrationSession(
            catalog: catalog, path: path, configuration: configuration, from: recorded.version, to: target,
            totalObjects: totalObjects)
        var record = recorded
        var version = recorded.version
        var stepIndex = 0
        while version < target {
            guard let plan = history.plans.first(where: { $0.fromVersion == version }),
                let old = history.versions.first(where: { $0.version == plan.fromVersion }),
                let new = history.versions.first(where: { $0.version == plan.toVersion })
            else {
                throw StrataError.migrationNeeded(
                    path: path, fileVersion: recorded.version, schemaVersion: target,
                    detail: "the code's history of \(schema.name) has no step from version \(version)")
            }
            session.fromVersion = plan.fromVersion
            session.toVersion = plan.toVersion
            session.begin(step: plan.toVersion, index: stepIndex)
            try VersionStep(session: session, plan: plan, old: old, new: new).run()
            if let fingerprint = schema.fingerprint(ofVersion: plan.toVersion) {
                record.fingerprints[String(plan.toVersion)] = fingerprint
            }
            version = plan.toVersion
            stepIndex += 1
        }
        record.version = target
        record.deleteRules = SchemaRecord.deleteRules(of: schema.history.current)
        try record.write(to: catalog)
        session.finish()
    }
}
