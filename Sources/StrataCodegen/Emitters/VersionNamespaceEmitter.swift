import StrataSchema
import StrataSchemaCompiler

/// Emits `enum V<k>` inside the schema type for one version: its description, its fingerprint, the plan that
/// leads to it, and typed views of its objects for custom migrations: for older versions, view structs; for the
/// newest, type aliases of the model classes, so that `Library.V3.Member` names the same model whether or not a
/// later version exists (the app's migration code keeps compiling when version 4 is added).
struct VersionNamespaceEmitter {
    /// The version.
    let version: SchemaVersion
    /// Its fingerprint.
    let fingerprint: String
    /// The plan from the previous version, if there is one.
    let planIntoVersion: MigrationPlan?
    /// Whether this is the newest version (whose models are the top-level classes, so it needs no views).
    let isNewest: Bool
    /// Models of this version that are the target of a custom step from the previous version: their views can
    /// be written.
    let writableModels: Set<String>

    /// The namespace's name: `V3`.
    static func name(of version: Int) -> String { "V\(version)" }

    /// Writes the namespace as an extension of the schema type.
    func emit(schemaName: String, into writer: inout SwiftWriter) {
        let access = version.access == .public ? "public " : ""
        let namespace = Self.name(of: version.version)
        writer.block("extension \(schemaName)") { body in
            if isNewest { emitClassNames(access: access, into: &body) }
            body.doc("Version \(version.version) of the `\(version.schemaName)` schema, as "
                + "`\(SchemaLiteralEmitter.fileName(of: version))` declares it.")
            body.block("\(access)enum \(namespace)") { space in
                space.doc("The fingerprint of version \(version.version): a database records it, and refuses a "
                    + "history whose version \(version.version) differs.")
                space.line("\(access)static let fingerprint = \(SwiftLiteral.string(fingerprint))")
                space.line()
                space.doc("The complete description of version \(version.version).")
                SchemaLiteralEmitter.emitVersion(version, access: access, into: &space)
                if let plan = planIntoVersion {
                    space.line()
                    space.doc("What changes from version \(plan.fromVersion) to version \(plan.toVersion).")
                    SchemaLiteralEmitter.emitPlan(plan, access: access, into: &space)
                }
                space.line()
                space.doc("A position in `\(SchemaLiteralEmitter.fileName(of: version))`.")
                space.block("private static func at(_ line: Int, _ column: Int) -> SourceLocation") { function in
                    let file = SwiftLiteral.string(SchemaLiteralEmitter.fileName(of: version))
                    function.line("SourceLocation(path: \(file), line: line, column: column)")
                }
                if isNewest {
                    emitClassAliases(schemaName: schemaName, access: access, into: &space)
                    return
                }
                let prefix = "\(SwiftIdentifier.escaped(schemaName)).\(namespace)."
                let schemaTakenNames = EnumNaming.schemaTakenNames(of: version)
                for model in version.models {
                    space.line()
                    emitView(
                        of: model, prefix: prefix, access: access, schemaTakenNames: schemaTakenNames, into: &space)
                }
            }
        }
    }

    /// The prefix of the schema type's names for the model classes: `_Newest`, with more underscores in front
    /// when a model's name starts with it (so that `_NewestMember` never hides a model).
    private var classNamePrefix: String {
        var prefix = "_Newest"
        while version.models.contains(where: { $0.name.hasPrefix(prefix) }) { prefix = "_" + prefix }
        return prefix
    }

    /// `typealias _NewestMember = Member` in the schema type, for each model: inside `V3`, `Member` is the
    /// version's own alias, so the alias needs another way to reach the model class.
    private func emitClassNames(access: String, into writer: inout SwiftWriter) {
        for model in version.models {
            writer.doc("The `\(model.name)` model class, for `\(Self.name(of: version.version)).\(model.name)`.")
            writer.line("\(access)typealias \(classNamePrefix)\(model.name) = \(SwiftIdentifier.escaped(model.name))")
        }
        writer.line()
    }

    /// `typealias Member = Library._NewestMember` in the newest version's namespace, for each model.
    private func emitClassAliases(schemaName: String, access: String, into writer: inout SwiftWriter) {
        for model in version.models {
            writer.line()
            writer.doc("The `\(model.name)` model class: version \(version.version) is the newest. Custom migrations "
                + "into this version receive it under this name, which stays valid when a later version is added "
                + "(then it names a view of the stored object).")
            writer.line("\(access)typealias \(SwiftIdentifier.escaped(model.name)) = "
                + "\(schemaName).\(classNamePrefix)\(model.name)")
        }
    }

    private func emitView(
        of model: ModelDefinition, prefix: String, access: String, schemaTakenNames: Set<String>,
        into writer: inout SwiftWriter
    ) {
        let isWritable = writableModels.contains(model.name)
        let properties = GeneratedProperty.translate(model, schemaTakenNames: schemaTakenNames)
            .filter { $0.column != nil }
        let kind = isWritable
            ? "its primitive properties can be written while a custom step migrates into this version"
            : "read-only, for custom migration steps"
        writer.doc("The `\(model.name)` model as version \(version.version) stores it: \(kind).")
        writer.block("\(access)struct \(SwiftIdentifier.escaped(model.name))") { body in
            for property in properties {
                guard let cases = property.enumCases, let enumName = property.enumTypeName else { continue }
                body.doc("The values `\(property.definition.name)` could take in version \(version.version).")
                body.block("\(access)enum \(enumName): String, CaseIterable, Sendable") { enumBody in
                    for name in cases { enumBody.line("case \(SwiftIdentifier.escaped(name))") }
                }
                body.line()
            }
            body.doc("The stored object this view reads.")
            body.line("private let accessor: any ManagedObjectAccessor")
            body.line()
            body.doc("A view of the stored object behind `accessor`.")
            body.block("init(_ accessor: any ManagedObjectAccessor)") { initializer in
                initializer.line("self.accessor = accessor")
            }
            for property in properties {
                body.line()
                body.doc(property.definition.doc)
                let declaration = "\(access)var \(property.name): \(property.viewType(modelPrefix: prefix))"
                if isWritable && property.isWritableInView {
                    body.block(declaration) { accessors in
                        accessors.line("get { \(property.viewRead(modelPrefix: prefix)) }")
                        accessors.line("nonmutating set { \(property.managedWrite("accessor")) }")
                    }
                } else {
                    body.line("\(declaration) { \(property.viewRead(modelPrefix: prefix)) }")
                }
            }
        }
    }
}
