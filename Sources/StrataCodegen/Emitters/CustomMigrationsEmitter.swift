import StrataSchema

/// Emits what makes a missing custom migration a compile error: the `<Schema>Migrations` protocol with one
/// requirement per `migrate: custom` step, typed with the old version's view and the new object, and the only
/// `Configuration` initializer the schema offers, which takes an implementation of it.
struct CustomMigrationsEmitter {
    /// One `migrate: custom` step.
    struct Step {
        /// The model's name in the version the step arrives at.
        let model: String
        /// Its name in the version the step starts from.
        let oldModel: String
        /// The version the step starts from.
        let fromVersion: Int
        /// The version the step arrives at.
        let toVersion: Int
        /// Whether `toVersion` is the newest, so the new object is the model class (which `V<toVersion>` names
        /// with a type alias) rather than a view.
        let intoNewest: Bool
    }

    /// The history.
    let history: SchemaHistory

    /// Every custom step whose model existed in the previous version, in history order.
    var steps: [Step] {
        var steps: [Step] = []
        for plan in history.plans {
            guard
                let from = history.versions.first(where: { $0.version == plan.fromVersion }),
                let to = history.versions.first(where: { $0.version == plan.toVersion })
            else { continue }
            for modelName in plan.customModels {
                guard let model = to.model(named: modelName) else { continue }
                let oldName = model.renamedFrom ?? model.name
                guard from.model(named: oldName) != nil else { continue }
                steps.append(Step(
                    model: model.name, oldModel: oldName, fromVersion: plan.fromVersion, toVersion: plan.toVersion,
                    intoNewest: plan.toVersion == history.current.version
                ))
            }
        }
        return steps
    }

    /// The protocol's name: `LibraryMigrations`.
    var protocolName: String { history.name + "Migrations" }

    /// Writes the protocol, the `Configuration` initializer and the conversion to `CustomMigrations`.
    func emit(into writer: inout SwiftWriter) {
        let steps = self.steps
        guard !steps.isEmpty else { return }
        let access = history.current.access == .public ? "public " : ""
        let schema = SwiftIdentifier.escaped(history.name)
        writer.doc("The app's code for the `migrate: custom` steps of `\(history.name)`: pass an implementation to "
            + "`Configuration(schema: \(history.name).self, migrations:)`.\n\nEach method fills one new object "
            + "from the typed, read-only view of its old version; the automatic steps of the same version have "
            + "already run, so `new` holds every value they could carry over. A thrown error abandons the whole "
            + "migration and leaves the database as it was.")
        writer.block("\(access)protocol \(protocolName): Sendable") { body in
            for (offset, step) in steps.enumerated() {
                if offset > 0 { body.line() }
                body.doc("Migrates one `\(step.oldModel)` from version \(step.fromVersion) to `\(step.model)` in "
                    + "version \(step.toVersion).")
                let parameters = "from old: \(oldType(step, schema)), to new: \(newType(step, schema))"
                body.line("func \(methodName(step))(\(parameters)) throws")
            }
        }
        writer.line()
        writer.block("extension Configuration") { body in
            body.doc("A configuration for `\(history.name)`, with the app's code for its custom migration steps.")
            body.block("\(access)init(schema: \(schema).Type, migrations: some \(protocolName))") { initializer in
                initializer.line("self.init(schema: schema, customMigrations: \(schema).customMigrations(migrations))")
            }
        }
        writer.line()
        writer.block("extension \(schema)") { body in
            body.doc("Turns the app's typed migrations into steps the runtime runs over stored objects.")
            body.block("static func customMigrations(_ migrations: some \(protocolName)) -> CustomMigrations") { fn in
                fn.line("CustomMigrations(steps: [")
                fn.indented { list in
                    for step in steps {
                        let newObject = step.intoNewest
                            ? "\(newType(step, schema))(managedBy: new)"
                            : "\(newType(step, schema))(new)"
                        list.line("CustomMigrations.Step(model: \(SwiftLiteral.string(step.model)), "
                            + "toVersion: \(step.toVersion)) { old, new in")
                        list.line("    try migrations.\(methodName(step))(from: \(oldType(step, schema))(old), "
                            + "to: \(newObject))")
                        list.line("},")
                    }
                }
                fn.line("])")
            }
        }
    }

    /// `migrateMember`: overloads of one model's steps differ by their parameter types.
    private func methodName(_ step: Step) -> String {
        "migrate" + SwiftIdentifier.upperCamel(step.model)
    }

    private func oldType(_ step: Step, _ schema: String) -> String {
        "\(schema).\(VersionNamespaceEmitter.name(of: step.fromVersion)).\(SwiftIdentifier.escaped(step.oldModel))"
    }

    /// Always `Library.V3.Member`, also for the newest version (where it is a type alias of the model class), so
    /// that the app's code for a step keeps compiling when a later version is added.
    private func newType(_ step: Step, _ schema: String) -> String {
        "\(schema).\(VersionNamespaceEmitter.name(of: step.toVersion)).\(SwiftIdentifier.escaped(step.model))"
    }
}
