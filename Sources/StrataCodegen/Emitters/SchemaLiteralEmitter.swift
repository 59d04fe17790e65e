import StrataSchema

/// Emits the StrataSchema values (`SchemaVersion`, `ModelDefinition`, `MigrationPlan`, …) of a version, so that
/// the runtime holds the full description of every version without parsing YAML.
///
/// The description is built by many small statements, not one literal: `static let schema: SchemaVersion =
/// makeSchema()`, whose builder appends one model per statement, each model built by its own function that appends
/// one `PropertyDefinition` per statement. Each expression is tiny and its type is stated, so the Swift type
/// checker's time and memory grow linearly with the schema (one nested literal of a whole schema took it gigabytes
/// for a hundred models). Arguments equal to an initializer's default are left out, and source locations are
/// written through a private `at(line, column)` function of the enclosing version namespace.
enum SchemaLiteralEmitter {
    /// Writes `static let schema: SchemaVersion = makeSchema()` for `version`, and the private functions that
    /// build it.
    static func emitVersion(_ version: SchemaVersion, access: String, into writer: inout SwiftWriter) {
        writer.line("\(access)static let schema: SchemaVersion = makeSchema()")
        writer.line()
        writer.doc("Builds `schema`, one model per statement.")
        writer.block("private static func makeSchema() -> SchemaVersion") { body in
            if version.models.isEmpty {
                body.line("let models: [ModelDefinition] = []")
            } else {
                body.line("var models: [ModelDefinition] = []")
                body.line("models.reserveCapacity(\(version.models.count))")
                for index in version.models.indices { body.line("models.append(\(modelFunction(index))())") }
            }
            var arguments = [
                "schemaName: \(SwiftLiteral.string(version.schemaName))", "version: \(version.version)",
                "access: .\(version.access.rawValue)", "models: models",
            ]
            if !version.removedModels.isEmpty {
                arguments.append("removedModels: \(SwiftLiteral.stringArray(version.removedModels))")
            }
            arguments.append("location: \(location(version.location))")
            body.call("return SchemaVersion", arguments)
        }
        for (index, model) in version.models.enumerated() {
            writer.line()
            emitModel(model, function: modelFunction(index), version: version.version, into: &writer)
        }
    }

    /// The name of the function that builds the `index`th model: `makeModel0`. Numbered rather than named after
    /// the model, so that no model name can make it collide with another member of the namespace.
    private static func modelFunction(_ index: Int) -> String { "makeModel\(index)" }

    private static func emitModel(
        _ model: ModelDefinition, function: String, version: Int, into writer: inout SwiftWriter
    ) {
        writer.doc("Builds `\(model.name)` as version \(version) declares it, one property per statement.")
        writer.block("private static func \(function)() -> ModelDefinition") { body in
            if model.properties.isEmpty {
                body.line("let properties: [PropertyDefinition] = []")
            } else {
                body.line("var properties: [PropertyDefinition] = []")
                body.line("properties.reserveCapacity(\(model.properties.count))")
                for property in model.properties {
                    body.call("properties.append(PropertyDefinition", propertyArguments(property), tail: ")")
                }
            }
            var arguments = ["name: \(SwiftLiteral.string(model.name))"]
            if let doc = model.doc { arguments.append("doc: \(SwiftLiteral.string(doc))") }
            if let key = model.primaryKey { arguments.append("primaryKey: \(SwiftLiteral.string(key))") }
            arguments.append("properties: properties")
            if !model.compoundIndexes.isEmpty {
                arguments.append("compoundIndexes: [" + model.compoundIndexes.map(SwiftLiteral.stringArray)
                    .joined(separator: ", ") + "]")
            }
            if !model.uniqueGroups.isEmpty {
                arguments.append("uniqueGroups: [" + model.uniqueGroups.map(SwiftLiteral.stringArray)
                    .joined(separator: ", ") + "]")
            }
            if !model.removedProperties.isEmpty {
                arguments.append("removedProperties: \(SwiftLiteral.stringArray(model.removedProperties))")
            }
            if let old = model.renamedFrom { arguments.append("renamedFrom: \(SwiftLiteral.string(old))") }
            if model.needsCustomMigration { arguments.append("needsCustomMigration: true") }
            if model.isEmbedded { arguments.append("isEmbedded: true") }
            arguments.append("location: \(location(model.location))")
            body.call("return ModelDefinition", arguments)
        }
    }

    /// The arguments of `PropertyDefinition(name: "title", type: .string, isIndexed: true, location: at(12, 7))`.
    static func propertyArguments(_ property: PropertyDefinition) -> [String] {
        var arguments = ["name: \(SwiftLiteral.string(property.name))", "type: \(typeLiteral(property.type))"]
        if let value = property.defaultValue { arguments.append("defaultValue: \(defaultLiteral(value))") }
        if property.isIndexed { arguments.append("isIndexed: true") }
        if property.isUnique { arguments.append("isUnique: true") }
        if let old = property.renamedFrom { arguments.append("renamedFrom: \(SwiftLiteral.string(old))") }
        if property.isTransient { arguments.append("isTransient: true") }
        if let doc = property.doc { arguments.append("doc: \(SwiftLiteral.string(doc))") }
        arguments.append("location: \(location(property.location))")
        if property.isFullText { arguments.append("isFullText: true") }
        if let rule = property.deleteRule { arguments.append("deleteRule: .\(rule.rawValue)") }
        return arguments
    }

    /// `.integer(.int32)`, `.optional(.link("Book"))`, `.enumeration(["a", "b"])`, …
    static func typeLiteral(_ type: PropertyType) -> String {
        switch type {
        case .bool: return ".bool"
        case .integer(let width): return ".integer(.\(width.rawValue))"
        case .float: return ".float"
        case .double: return ".double"
        case .string: return ".string"
        case .date: return ".date"
        case .data: return ".data"
        case .uuid: return ".uuid"
        case .enumeration(let cases): return ".enumeration(\(SwiftLiteral.stringArray(cases)))"
        case .link(let model): return ".link(\(SwiftLiteral.string(model)))"
        case .optional(let wrapped): return ".optional(\(typeLiteral(wrapped)))"
        case .list(let element): return ".list(\(typeLiteral(element)))"
        case .linkingObjects(let model, let property):
            return ".linkingObjects(model: \(SwiftLiteral.string(model)), property: \(SwiftLiteral.string(property)))"
        case .set(let element): return ".set(\(typeLiteral(element)))"
        case .map(let element): return ".map(\(typeLiteral(element)))"
        case .decimal: return ".decimal"
        case .objectId: return ".objectId"
        case .any: return ".any"
        }
    }

    /// `.integer(5)`, `.string("x")`, `.auto`, …
    static func defaultLiteral(_ value: DefaultValue) -> String {
        switch value {
        case .bool(let flag): return ".bool(\(flag))"
        case .integer(let number): return ".integer(\(number))"
        case .double(let number): return ".double(\(SwiftLiteral.floatingPoint(number)))"
        case .string(let text): return ".string(\(SwiftLiteral.string(text)))"
        case .auto: return ".auto"
        case .null: return ".null"
        }
    }

    /// Writes `static let migrationPlan: MigrationPlan = makeMigrationPlan()` and the private function that builds
    /// it, one step per statement.
    static func emitPlan(_ plan: MigrationPlan, access: String, into writer: inout SwiftWriter) {
        writer.line("\(access)static let migrationPlan: MigrationPlan = makeMigrationPlan()")
        writer.line()
        writer.doc("Builds `migrationPlan`, one step per statement.")
        writer.block("private static func makeMigrationPlan() -> MigrationPlan") { body in
            if plan.steps.isEmpty {
                body.line("let steps: [MigrationStep] = []")
            } else {
                body.line("var steps: [MigrationStep] = []")
                body.line("steps.reserveCapacity(\(plan.steps.count))")
                for step in plan.steps {
                    let (name, arguments) = stepCase(step)
                    body.call("steps.append(\(name)", arguments, tail: ")")
                }
            }
            body.call("return MigrationPlan", [
                "fromVersion: \(plan.fromVersion)", "toVersion: \(plan.toVersion)", "steps: steps",
            ])
        }
    }

    /// One `MigrationStep` case: its name (`.addModel`) and its arguments.
    static func stepCase(_ step: MigrationStep) -> (String, [String]) {
        let text = SwiftLiteral.string
        switch step {
        case .addModel(let model): return (".addModel", [text(model)])
        case .removeModel(let model): return (".removeModel", [text(model)])
        case .renameModel(let old, let new): return (".renameModel", ["from: \(text(old))", "to: \(text(new))"])
        case .addProperty(let model, let property, let type, let value):
            return (".addProperty", [
                "model: \(text(model))", "property: \(text(property))", "type: \(typeLiteral(type))",
                "defaultValue: \(value.map(defaultLiteral) ?? "nil")",
            ])
        case .removeProperty(let model, let property):
            return (".removeProperty", ["model: \(text(model))", "property: \(text(property))"])
        case .renameProperty(let model, let old, let new):
            return (".renameProperty", ["model: \(text(model))", "from: \(text(old))", "to: \(text(new))"])
        case .convertProperty(let model, let property, let old, let new):
            return (".convertProperty", [
                "model: \(text(model))", "property: \(text(property))", "from: \(typeLiteral(old))",
                "to: \(typeLiteral(new))",
            ])
        case .replaceNils(let model, let property, let old, let new, let value):
            return (".replaceNils", [
                "model: \(text(model))", "property: \(text(property))", "from: \(typeLiteral(old))",
                "to: \(typeLiteral(new))", "defaultValue: \(defaultLiteral(value))",
            ])
        case .rebuildIndexes(let model): return (".rebuildIndexes", ["model: \(text(model))"])
        case .changePrimaryKey(let model, let old, let new):
            return (".changePrimaryKey", [
                "model: \(text(model))", "from: \(old.map(text) ?? "nil")", "to: \(new.map(text) ?? "nil")",
            ])
        case .custom(let model): return (".custom", ["model: \(text(model))"])
        case .changeEmbedded(let model, let embedded):
            return (".changeEmbedded", ["model: \(text(model))", "embedded: \(embedded)"])
        case .changeDeleteRule(let model, let property, let from, let to):
            return (".changeDeleteRule", [
                "model: \(text(model))", "property: \(text(property))",
                "from: \(from.map { ".\($0.rawValue)" } ?? "nil")", "to: \(to.map { ".\($0.rawValue)" } ?? "nil")",
            ])
        case .checkUniqueness(let model, let properties):
            return (".checkUniqueness", [
                "model: \(text(model))", "properties: \(SwiftLiteral.stringArray(properties))",
            ])
        }
    }

    /// `at(line, column)`: the path is the version's, kept once by the `at` function.
    private static func location(_ location: SourceLocation) -> String {
        "at(\(location.line), \(location.column))"
    }

    /// The file name a version's locations use: only the last path component, so the generated text does not
    /// depend on where the package was checked out.
    static func fileName(of version: SchemaVersion) -> String {
        let path = version.location.path
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }
}
