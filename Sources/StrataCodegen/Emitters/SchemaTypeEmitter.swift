import StrataSchema

/// Emits the schema type (`enum Library: Schema`): the newest version number, the history of every version,
/// their fingerprints and the model classes.
struct SchemaTypeEmitter {
    /// The history.
    let history: SchemaHistory
    /// Whether some step of the history has `migrate: custom`.
    let hasCustomSteps: Bool

    /// Writes the type.
    func emit(into writer: inout SwiftWriter) {
        let current = history.current
        let access = current.access == .public ? "public " : ""
        let name = SwiftIdentifier.escaped(history.name)
        let conformances = hasCustomSteps ? "Schema" : "Schema, SchemaWithoutCustomMigrations"
        var summary = "The `\(history.name)` schema: its newest version (\(current.version)) and the description of "
            + "every version since \(history.versions[0].version)."
        if hasCustomSteps {
            summary += "\n\nSome of its steps have `migrate: custom`: open it with "
                + "`Configuration(schema: \(history.name).self, migrations:)` and an implementation of "
                + "`\(history.name)Migrations`."
        }
        writer.doc(summary)
        writer.block("\(access)enum \(name): \(conformances)") { body in
            body.doc("The newest version: the one the model classes match.")
            body.line("\(access)static let version = \(current.version)")
            body.line()
            body.doc("Every version, oldest first, and the migration plan between each consecutive pair.")
            body.line("\(access)static let history = SchemaHistory(")
            body.indented { args in
                let versions = history.versions.map { "\(VersionNamespaceEmitter.name(of: $0.version)).schema" }
                let plans = history.plans.map { "\(VersionNamespaceEmitter.name(of: $0.toVersion)).migrationPlan" }
                args.line("name: \(SwiftLiteral.string(history.name)),")
                args.line("versions: [\(versions.joined(separator: ", "))],")
                args.line("plans: [\(plans.joined(separator: ", "))]")
            }
            body.line(")")
            body.line()
            body.doc("The fingerprint of every version, by version number.")
            let fingerprints = history.versions.map {
                "\($0.version): \(VersionNamespaceEmitter.name(of: $0.version)).fingerprint"
            }
            body.line("\(access)static let fingerprints = [\(fingerprints.joined(separator: ", "))]")
            body.line()
            body.doc("The fingerprint of version `version`, without building `fingerprints`: what an open asks.")
            body.block("\(access)static func fingerprint(ofVersion version: Int) -> String?") { function in
                function.line("switch version {")
                for version in history.versions {
                    let namespace = VersionNamespaceEmitter.name(of: version.version)
                    function.line("case \(version.version): \(namespace).fingerprint")
                }
                function.line("default: nil")
                function.line("}")
            }
            body.line()
            body.doc("The model classes of the newest version.")
            let types = current.models.map { SwiftIdentifier.escaped($0.name) + ".self" }
            body.line("\(access)static var objectTypes: [ObjectBase.Type] { [\(types.joined(separator: ", "))] }")
        }
    }
}
