import StrataSchema
import StrataSchemaCompiler

/// Emits the `final class` of one model of a schema's newest version.
///
/// Each persisted property is a computed property that reads the store when the object is managed and a typed
/// stored value (in the private `UnmanagedValues` struct) when it is not: no boxing, no dictionary.
struct ModelClassEmitter {
    /// The model.
    let model: ModelDefinition
    /// Its position in the version's `models`, which the generated description indexes.
    let index: Int
    /// The schema's Swift type name (`Library`).
    let schemaName: String
    /// The newest version number.
    let version: Int
    /// `public ` or empty.
    let access: String
    /// The model's properties, translated.
    let properties: [GeneratedProperty]

    /// Prepares the emission of `model`, the `index`th model of `schema`. `schemaTakenNames` are the names no
    /// nested enum type of the schema may take (``EnumNaming/schemaTakenNames(of:)``), computed once per schema by
    /// the caller: a set per model would make generation quadratic in the models.
    init(model: ModelDefinition, index: Int, in schema: SchemaVersion, schemaTakenNames: Set<String>) {
        self.model = model
        self.index = index
        schemaName = SwiftIdentifier.escaped(schema.schemaName)
        version = schema.version
        access = schema.access == .public ? "public " : ""
        properties = GeneratedProperty.translate(model, schemaTakenNames: schemaTakenNames)
    }

    /// `@_spi(StrataGenerated) public ` for a public schema (runtime hooks stay out of the app's public API).
    private var hookAccess: String { access.isEmpty ? "" : "@_spi(StrataGenerated) public " }

    private var className: String { SwiftIdentifier.escaped(model.name) }

    /// Writes the class.
    func emit(into writer: inout SwiftWriter) {
        let summary = "The `\(model.name)` model, as version \(version) of the `\(schemaName)` schema declares it."
        writer.doc(model.doc ?? summary)
        writer.block("\(access)final class \(className): \(model.isEmbedded ? "EmbeddedObject" : "Object")") { body in
            emitEnums(into: &body)
            body.doc("The model's description, built once from the schema's newest version.")
            body.line("private static let model = ModelDescription(\(schemaName).V\(version).schema.models[\(index)])")
            for property in properties {
                body.line()
                emitProperty(property, into: &body)
            }
            body.line()
            emitInitializers(into: &body)
            body.line()
            emitHooks(into: &body)
            body.line()
            emitUnmanagedValues(into: &body)
        }
    }

    // MARK: Parts

    private func emitEnums(into writer: inout SwiftWriter) {
        for property in properties {
            guard let cases = property.enumCases, let enumName = property.enumTypeName else { continue }
            writer.doc("The values `\(property.definition.name)` can take.")
            writer.block("\(access)enum \(enumName): String, CaseIterable, Sendable") { body in
                for name in cases { body.line("case \(SwiftIdentifier.escaped(name))") }
            }
            writer.line()
        }
    }

    /// A property's doc comment: its `doc:`, then a paragraph per integrity rule on it (docs/SCHEMA.md,
    /// "Uniqueness" and "Delete rules"), so that the rules show where the app reads and writes the property.
    static func documentation(of property: PropertyDefinition, in model: ModelDefinition) -> String? {
        var paragraphs = property.doc.map { [$0] } ?? []
        if property.isUnique, property.name != model.primaryKey {
            paragraphs.append("Unique: no two `\(model.name)` objects hold equal values here (nil never collides); "
                + "a write that would fails and keeps nothing.")
        }
        for group in model.uniqueGroups where group.contains(property.name) {
            let others = group.filter { $0 != property.name }.map { "`\($0)`" }.joined(separator: ", ")
            paragraphs.append("Unique together with \(others): no two `\(model.name)` objects hold equal values in "
                + "all of them (a nil never collides); a write that would fails and keeps nothing.")
        }
        if let rule = deleteRuleDocumentation(of: property, in: model) { paragraphs.append(rule) }
        return paragraphs.isEmpty ? nil : paragraphs.joined(separator: "\n\n")
    }

    /// The paragraph for an `onDelete:` rule other than the default (docs/SCHEMA.md, "Delete rules").
    private static func deleteRuleDocumentation(of property: PropertyDefinition, in model: ModelDefinition) -> String? {
        var reached = "the objects this property reaches"
        if case .linkingObjects = property.type { reached = "the objects that link here through this property's inverse" }
        switch property.deleteRule {
        case .cascade:
            return "On delete: cascade. Deleting a `\(model.name)` also deletes \(reached), with their own rules, in "
                + "the same write."
        case .deny:
            return "On delete: deny. Deleting a `\(model.name)` fails, keeping nothing of the write, while \(reached) "
                + "include any that the same delete keeps."
        case .nullify?, nil:
            return nil
        }
    }

    private func emitProperty(_ property: GeneratedProperty, into writer: inout SwiftWriter) {
        writer.doc(Self.documentation(of: property.definition, in: model))
        let declaration = "\(access)var \(property.name): \(property.swiftType())"
        switch property.storage {
        case .transient:
            writer.line("\(declaration) = \(property.unmanagedDefault)")
        case .linkingObjects(let source, let sourceProperty):
            let sourceType = SwiftIdentifier.escaped(source)
            let name = SwiftLiteral.string(sourceProperty)
            writer.block(declaration) { body in
                body.managedBranch(
                    "accessor.linkingObjects(\(sourceType).self, through: \(name))",
                    else: "LinkingObjects(fromType: \(sourceType).self, property: \(name))"
                )
            }
        case .persisted:
            writer.block(declaration) { body in
                if let objectRead = property.objectRead {
                    body.objectGetter(managed: objectRead, unmanaged: property.unmanagedRead)
                } else {
                    body.accessor("get", managed: property.managedRead("accessor"), unmanaged: property.unmanagedRead)
                }
                body.accessor("set", managed: property.managedWrite("accessor"), unmanaged: property.unmanagedWrite)
            }
        }
    }

    private func emitInitializers(into writer: inout SwiftWriter) {
        let parameters = properties.filter { property in
            if case .linkingObjects = property.storage { return false }
            return true
        }
        writer.doc(initializerDoc(parameters))
        if parameters.isEmpty {
            writer.block("\(access)override init()") { body in
                body.line("unmanaged = UnmanagedValues()")
                body.line("super.init()")
            }
        } else {
            let declarations = parameters.map { "\($0.name): \($0.parameterType) = \($0.parameterDefault)" }
            writer.call("\(access)init", declarations, tail: " {")
            writer.indented { body in
                let persisted = parameters.filter { $0.column != nil }
                let arguments = persisted.map {
                    "\(SwiftIdentifier.label($0.definition.name)): \($0.unmanagedFromParameter)"
                }
                body.call("unmanaged = UnmanagedValues", arguments)
                for property in parameters where property.column == nil {
                    body.line("self.\(property.name) = \(property.name)")
                }
                body.line("super.init()")
            }
            writer.line("}")
        }
        writer.line()
        writer.doc("Creates a managed `\(model.name)` over a store reference: the runtime calls this.")
        writer.block("\(hookAccess)required init(managedBy accessor: any ManagedObjectAccessor)") { body in
            body.line("unmanaged = UnmanagedValues()")
            body.line("super.init(managedBy: accessor)")
        }
    }

    private func initializerDoc(_ parameters: [GeneratedProperty]) -> String {
        var text = "Creates an unmanaged `\(model.name)`; add it to a database to store it."
        if !parameters.isEmpty {
            text += "\n\nEvery parameter defaults to the schema's `default:` or to its type's zero value."
        }
        if let key = parameters.first(where: \.isAutoIncrementedKey) {
            text += " Leave `\(key.definition.name)` `nil` to have the next integer assigned when the object is added."
        }
        return text
    }

    private func emitHooks(into writer: inout SwiftWriter) {
        writer.doc("The model's name, persisted properties in column order, and primary key.")
        writer.line("\(hookAccess)override class var modelDescription: ModelDescription { model }")
        writer.line()
        writer.doc("The persisted values of an unmanaged `\(model.name)`, in column order.")
        let persisted = properties.filter { $0.column != nil }
        if persisted.isEmpty {
            writer.line("\(hookAccess)override func persistedValues() -> [PersistedValue] { [] }")
            return
        }
        // One statement per value, not an array literal: the type checker's memory grows with a literal's
        // elements faster than linearly (1.6 GB for a model of 1,000 properties).
        writer.block("\(hookAccess)override func persistedValues() -> [PersistedValue]") { body in
            body.line("var values: [PersistedValue] = []")
            body.line("values.reserveCapacity(\(persisted.count))")
            for property in persisted { body.line("values.append(\(property.persistedValue))") }
            body.line("return values")
        }
        writer.line()
        writer.doc(
            "Writes the persisted values of an unmanaged `\(model.name)` into the row an add inserts, in column order.")
        writer.block("\(hookAccess)override func writeValues(into row: inout UnmanagedRow)") { body in
            for property in persisted { body.line(property.rowWrite) }
        }
    }

    private func emitUnmanagedValues(into writer: inout SwiftWriter) {
        let persisted = properties.filter { $0.column != nil }
        writer.doc("The values of an unmanaged `\(model.name)`; a managed one reads and writes the store instead.")
        writer.block("private struct UnmanagedValues") { body in
            for property in persisted {
                body.line("var \(property.name): \(property.unmanagedType) = \(property.unmanagedDefault)")
            }
        }
        writer.line()
        writer.line("private var unmanaged: UnmanagedValues")
    }
}

extension GeneratedProperty {
    /// Translates every property of `model`, numbering the persisted ones in order (their columns).
    static func translate(_ model: ModelDefinition, schemaTakenNames: Set<String>) -> [GeneratedProperty] {
        let taken = EnumNaming.takenNames(in: model, schemaTakenNames: schemaTakenNames)
        var nextColumn = 0
        return model.properties.map { property in
            var column: Int?
            if property.isPersisted {
                column = nextColumn
                nextColumn += 1
            }
            return GeneratedProperty(property, column: column, in: model, takenEnumNames: taken)
        }
    }
}
