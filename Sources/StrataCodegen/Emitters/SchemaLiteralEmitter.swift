import StrataSchema

/// Emits Swift literals of the StrataSchema value types (`SchemaVersion`, `ModelDefinition`, `MigrationPlan`,
/// …), so that the runtime holds the full description of every version without parsing YAML.
///
/// Arguments equal to an initializer's default are left out, and source locations are written through a
/// private `at(line, column)` function of the enclosing version namespace, which keeps the literals short.
enum SchemaLiteralEmitter {
    /// Writes `static let schema = SchemaVersion(...)` for `version`.
    static func emitVersion(_ version: SchemaVersion, access: String, into writer: inout SwiftWriter) {
        writer.line("\(access)static let schema = SchemaVersion(")
        writer.indented { args in
            args.line("schemaName: \(SwiftLiteral.string(version.schemaName)), version: \(version.version), "
                + "access: .\(version.access.rawValue),")
            args.line("models: [")
            args.indented { models in
                for model in version.models { emitModel(model, into: &models) }
            }
            args.line("],")
            if !version.removedModels.isEmpty {
                args.line("removedModels: \(SwiftLiteral.stringArray(version.removedModels)),")
            }
            args.line("location: \(location(version.location))")
        }
        writer.line(")")
    }

    private static func emitModel(_ model: ModelDefinition, into writer: inout SwiftWriter) {
        writer.line("ModelDefinition(")
        writer.indented { args in
            var head = ["name: \(SwiftLiteral.string(model.name))"]
            if let doc = model.doc { head.append("doc: \(SwiftLiteral.string(doc))") }
            if let key = model.primaryKey { head.append("primaryKey: \(SwiftLiteral.string(key))") }
            args.line(head.joined(separator: ", ") + ",")
            args.line("properties: [")
            args.indented { properties in
                for property in model.properties {
                    properties.call("PropertyDefinition", propertyArguments(property), tail: ",")
                }
            }
            args.line("],")
            var tail: [String] = []
            if !model.compoundIndexes.isEmpty {
                tail.append("compoundIndexes: [" + model.compoundIndexes.map(SwiftLiteral.stringArray)
                    .joined(separator: ", ") + "]")
            }
            if !model.removedProperties.isEmpty {
                tail.append("removedProperties: \(SwiftLiteral.stringArray(model.removedProperties))")
            }
            if let old = model.renamedFrom { tail.append("renamedFrom: \(SwiftLiteral.string(old))") }
            if model.needsCustomMigration { tail.append("needsCustomMigration: true") }
            for argument in tail { args.line(argument + ",") }
            args.line("location: \(location(model.location))")
        }
        writer.line("),")
    }

    /// The arguments of `PropertyDefinition(name: "title", type: .string, isIndexed: true, location: at(12, 7))`.
    static func propertyArguments(_ property: PropertyDefinition) -> [String] {
        var arguments = ["name: \(SwiftLiteral.string(property.name))", "type: \(typeLiteral(property.type))"]
        if let value = property.defaultValue { arguments.append("defaultValue: \(defaultLiteral(value))") }
        if property.isIndexed { arguments.append("isIndexed: true") }
        if let old = property.renamedFrom { arguments.append("renamedFrom: \(SwiftLiteral.string(old))") }
        if property.isTransient { arguments.append("isTransient: true") }
        if let doc = property.doc { arguments.append("doc: \(SwiftLiteral.string(doc))") }
        arguments.append("location: \(location(property.location))")
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

    /// Writes `static let migrationPlan = MigrationPlan(...)`.
    static func emitPlan(_ plan: MigrationPlan, access: String, into writer: inout SwiftWriter) {
        writer.line("\(access)static let migrationPlan = MigrationPlan(")
        writer.indented { args in
            args.line("fromVersion: \(plan.fromVersion), toVersion: \(plan.toVersion),")
            if plan.steps.isEmpty {
                args.line("steps: []")
                return
            }
            args.line("steps: [")
            args.indented { steps in
                for step in plan.steps {
                    let (name, arguments) = stepCase(step)
                    steps.call(name, arguments, tail: ",")
                }
            }
            args.line("]")
        }
        writer.line(")")
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
