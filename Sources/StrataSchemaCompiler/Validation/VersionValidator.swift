import StrataSchema

/// Checks one schema version on its own: names, types and links, primary keys, indexes, defaults, and the
/// consistency of `removed` / `renamedFrom` inside the file. Checks against the previous version are the
/// diff's job (`VersionDiff`).
struct VersionValidator {
    private(set) var diagnostics: [Diagnostic] = []
    private var version: SchemaVersion
    private let sourceMap: SourceMap
    /// The version's models by name, as loaded (validation changes only defaults, never names or types).
    private let models: NameLookup<ModelDefinition>
    /// The names no nested enum type of this version may take (computed once: per model, it would be quadratic).
    private let schemaTakenNames: Set<String>

    /// Prepares to check `file`.
    init(file: LoadedSchemaFile) {
        self.version = file.version
        self.sourceMap = file.sourceMap
        models = NameLookup(modelsOf: file.version)
        schemaTakenNames = EnumNaming.schemaTakenNames(of: file.version)
    }

    /// Checks the version; returns it with defaults normalized (`0` for a `double` becomes `0.0`, dates in
    /// full ISO 8601) so code generation sees one spelling per value.
    mutating func validate() -> SchemaVersion {
        checkSchemaName()
        checkRemovedModels()
        for index in version.models.indices {
            let model = version.models[index]
            checkTypeName(model.name, as: "model", at: sourceMap[.model(model.name)])
            if let problem = ReservedNames.modelProblem(model.name) {
                error(problem, at: sourceMap[.model(model.name)])
            }
            version.models[index] = validate(model)
        }
        var embeddedRules = EmbeddedModelRules(version: version, sourceMap: sourceMap, models: models)
        embeddedRules.check()
        diagnostics += embeddedRules.diagnostics
        return version
    }

    // MARK: - Names

    private mutating func checkSchemaName() {
        checkTypeName(version.schemaName, as: "schema", at: sourceMap[.topValue("schema")])
        if let problem = ReservedNames.schemaProblem(version.schemaName) {
            error(problem, at: sourceMap[.topValue("schema")])
        }
        if models.contains(version.schemaName) {
            error("schema '\(version.schemaName)' has a model of the same name: both would generate the Swift type "
                + "'\(version.schemaName)'; rename the model (with 'renamedFrom:') or the schema",
                at: sourceMap[.model(version.schemaName)])
        }
    }

    private mutating func checkTypeName(_ name: String, as what: String, at location: SourceLocation) {
        if let problem = Identifier.problem(with: name, as: what) {
            error(problem, at: location)
        } else if ReservedNames.typeNames.contains(name) {
            error("\(what) name '\(name)' is the name of a type generated code uses (Swift, Foundation or Strata): "
                + "choose another, such as '\(name)\(what == "schema" ? "Schema" : "Model")'", at: location)
        } else if !Identifier.isUpperCamel(name) {
            diagnostics.append(.warning(
                "\(what) name '\(name)' should start with an upper-case letter, as Swift type names do", at: location))
        }
    }

    // MARK: - Models

    private mutating func validate(_ original: ModelDefinition) -> ModelDefinition {
        var model = original
        var enumTypeNames: [String: String] = [:]
        let takenEnumNames = EnumNaming.takenNames(in: original, schemaTakenNames: schemaTakenNames)
        for index in model.properties.indices {
            let property = model.properties[index]
            let at = sourceMap[.property(model: model.name, property: property.name)]
            if let problem = Identifier.problem(with: property.name, as: "model '\(model.name)': property") {
                error(problem, at: at)
            } else if let problem = ReservedNames.propertyProblem(
                property.name, schema: version.schemaName, isModel: models.contains) {
                error("property '\(model.name).\(property.name)' cannot have this name: " + problem, at: at)
            }
            checkType(of: property, in: model)
            if case .enumeration(let cases) = property.type.unwrapped {
                checkEnumCases(cases, of: property, in: model)
                let typeName = EnumNaming.typeName(forProperty: property.name, taken: takenEnumNames)
                if let other = enumTypeNames[typeName] {
                    error("enum properties '\(other)' and '\(property.name)' of model '\(model.name)' would both "
                        + "generate the nested type '\(model.name).\(typeName)': rename one of them", at: at)
                }
                enumTypeNames[typeName] = property.name
            }
            checkFlags(of: property, in: model)
            if let value = property.defaultValue {
                model.properties[index].defaultValue = checkDefault(value, of: property, in: model)
            }
        }
        let properties = NameLookup(propertiesOf: model)
        checkPrimaryKey(of: model, properties: properties)
        checkCompoundIndexes(of: model, properties: properties)
        checkUniqueGroups(of: model, properties: properties)
        checkRemovedAndRenamed(in: model, properties: properties)
        return model
    }

    /// The normalized default of `property`. The check holds a copy of `model` only while this runs: alive while
    /// the caller writes into the model's properties, it would make every write copy them all (quadratic).
    private mutating func checkDefault(
        _ value: DefaultValue, of property: PropertyDefinition, in model: ModelDefinition
    ) -> DefaultValue {
        var check = DefaultValueCheck(property: property, model: model, sourceMap: sourceMap)
        let normalized = check.normalized(value)
        diagnostics += check.diagnostics
        return normalized
    }

    private mutating func checkType(of property: PropertyDefinition, in model: ModelDefinition) {
        let location = sourceMap[.propertyValue(model: model.name, property: property.name, field: "type")]
        switch property.type {
        case .link(let target):
            if models.contains(target) {
                error("property '\(model.name).\(property.name)' links to model '\(target)' without '?': a link to a "
                    + "model is always optional: write '\(target)?'", at: location)
            } else {
                reportUnknownType(target, written: property.type, of: property, in: model, at: location)
            }
        case .optional(.link(let target)), .list(.link(let target)), .set(.link(let target)),
            .map(.optional(.link(let target))):
            if !models.contains(target) {
                reportUnknownType(target, written: property.type, of: property, in: model, at: location)
            }
        case .set(.optional(.link(let target))):
            if models.contains(target) {
                error("property '\(model.name).\(property.name)' is a set of model '\(target)' written with '?': a "
                    + "set of objects never holds nil: write 'set<\(target)>'", at: location)
            } else {
                reportUnknownType(target, written: property.type, of: property, in: model, at: location)
            }
        case .map(.link(let target)):
            if models.contains(target) {
                error("property '\(model.name).\(property.name)' maps to model '\(target)' without '?': a map's "
                    + "object values become nil when their object is deleted, so they are optional: write "
                    + "'map<\(target)?>'", at: location)
            } else {
                reportUnknownType(target, written: property.type, of: property, in: model, at: location)
            }
        case .linkingObjects(let target, let linkName):
            checkLinkingObjects(property, in: model, target: target, link: linkName)
        default:
            break
        }
    }

    private mutating func reportUnknownType(
        _ name: String, written: PropertyType, of property: PropertyDefinition, in model: ModelDefinition,
        at location: SourceLocation
    ) {
        let candidates = TypeSpelling.primitives.map(\.name) + version.models.map(\.name)
        var message = "unknown type '\(written.schemaSpelling)' for property "
            + "'\(model.name).\(property.name)': '\(name)' is neither a type nor a model of schema "
            + "'\(version.schemaName)'"
        if let guess = Suggestion.closest(to: name, among: candidates) {
            let isModel = models.contains(guess)
            var fixed = replacing(name, with: guess, in: written)
            if isModel, case .link = fixed { fixed = .optional(fixed) }
            if !isModel, case .optional(.link) = written { fixed = .optional(fixed.unwrapped) }
            message += ": did you mean '\(fixed.schemaSpelling)'?"
        }
        error(message, at: location)
    }

    private func replacing(_ name: String, with guess: String, in type: PropertyType) -> PropertyType {
        let replacement = TypeSpelling.primitives.first { $0.name == guess }?.type ?? .link(guess)
        switch type {
        case .link(let target) where target == name: return replacement
        case .optional(let wrapped): return .optional(replacing(name, with: guess, in: wrapped))
        case .list(let element): return .list(replacing(name, with: guess, in: element))
        case .set(let element): return .set(replacing(name, with: guess, in: element))
        case .map(let element): return .map(replacing(name, with: guess, in: element))
        default: return type
        }
    }

    private mutating func checkLinkingObjects(
        _ property: PropertyDefinition, in model: ModelDefinition, target: String, link: String
    ) {
        let location = sourceMap[.propertyValue(model: model.name, property: property.name, field: "linkingObjects")]
        let qualified = "'\(model.name).\(property.name)'"
        guard let targetModel = models[target] else {
            error("linkingObjects of \(qualified) names model '\(target)', which schema '\(version.schemaName)' does "
                + "not have" + Suggestion.didYouMean(target, among: version.models.map(\.name)), at: location)
            return
        }
        guard let linkProperty = targetModel.property(named: link) else {
            error("linkingObjects of \(qualified) names '\(target).\(link)', but model '\(target)' has no property "
                + "'\(link)'" + Suggestion.didYouMean(link, among: targetModel.properties.map(\.name)), at: location)
            return
        }
        if SchemaVersion.linkingObjectsKeyPath(of: property, in: model.name, modelNamed: { models[$0] }) != nil {
            return
        }
        let through = SchemaVersion.storedLinkTarget(of: linkProperty.type).flatMap { models[$0] }
        let hops = through?.properties.filter {
            !$0.isTransient && SchemaVersion.storedLinkTarget(of: $0.type) == model.name
        } ?? []
        if let through, hops.count > 1 {
            error("linkingObjects of \(qualified) names '\(target).\(link)', which leads to model '\(through.name)', "
                + "whose links \(hops.map { "'\($0.name)'" }.joined(separator: ", ")) all point to '\(model.name)': "
                + "it is ambiguous which one is meant; name a link that points to '\(model.name)' directly",
                at: location)
            return
        }
        error("linkingObjects of \(qualified) names '\(target).\(link)', which is "
            + "'\(linkProperty.type.schemaSpelling)'\(linkProperty.isTransient ? " and transient" : ""),"
            + " not a stored link ('\(model.name)?') or list ('[\(model.name)]') to model '\(model.name)'",
            at: location)
    }

    private mutating func checkEnumCases(
        _ cases: [String], of property: PropertyDefinition, in model: ModelDefinition
    ) {
        var seen: Set<String> = []
        for (index, name) in cases.enumerated() {
            let location = sourceMap[.enumCase(model: model.name, property: property.name, index: index)]
            let what = "property '\(model.name).\(property.name)': enum case"
            if let problem = Identifier.problem(with: name, as: what) {
                error(problem, at: location)
            }
            if !seen.insert(name).inserted {
                error("enum case '\(name)' of '\(model.name).\(property.name)' is listed twice: remove one",
                    at: location)
            }
        }
    }

    private mutating func checkFlags(of property: PropertyDefinition, in model: ModelDefinition) {
        let qualified = "'\(model.name).\(property.name)'"
        func key(_ field: String) -> SourceLocation {
            sourceMap[.propertyKey(model: model.name, property: property.name, field: field)]
        }
        if property.isIndexed {
            if property.isTransient {
                error("property \(qualified) is transient, so it is not stored and cannot be indexed: remove "
                    + "'indexed' or 'transient'", at: key("indexed"))
            } else if !property.type.isIndexable && !property.type.isIndexableSet {
                error("property \(qualified) of type '\(property.type.readableName)' cannot be indexed: indexes are "
                    + "for bool, int, string, date, uuid, decimal, objectId, any and enum properties (optional or "
                    + "not), and sets of those but any; remove 'indexed'",
                    at: key("indexed"))
            }
        }
        if property.isFullText {
            if property.isTransient {
                error("property \(qualified) is transient, so it is not stored and cannot have a full-text index: "
                    + "remove 'fullText' or 'transient'", at: key("fullText"))
            } else if property.type != .string && property.type != .optional(.string) {
                error("property \(qualified) of type '\(property.type.readableName)' cannot have a full-text index: "
                    + "'fullText' is for string and string? properties; remove 'fullText'", at: key("fullText"))
            }
        }
        if let rule = property.deleteRule {
            checkDeleteRule(rule, of: property, in: model, at: key("onDelete"))
        }
        if property.isUnique {
            if property.isTransient {
                error("property \(qualified) is transient, so it is not stored and cannot be unique: remove "
                    + "'unique' or 'transient'", at: key("unique"))
            } else if !property.type.isIndexable {
                error("property \(qualified) of type '\(property.type.readableName)' cannot be unique: uniqueness "
                    + "is kept by an index, and indexes are for bool, int, string, date, uuid, decimal, objectId, any "
                    + "and enum properties (optional or not), not lists, sets, maps or links; remove 'unique'",
                    at: key("unique"))
            }
        }
        if case .linkingObjects = property.type {
            for field in ["transient", "renamedFrom"] where sourceMap.contains(
                .propertyKey(model: model.name, property: property.name, field: field)) {
                error("linkingObjects property \(qualified) is computed by the store, so '\(field)' means nothing "
                    + "for it: remove '\(field)'", at: key(field))
            }
        }
        if property.isTransient, property.renamedFrom != nil, !property.type.isLinkingObjects {
            error("property \(qualified) is transient, so no data is kept to rename: remove 'renamedFrom'",
                at: key("renamedFrom"))
        }
    }

    // MARK: - Keys and indexes

    private mutating func checkPrimaryKey(of model: ModelDefinition, properties: NameLookup<PropertyDefinition>) {
        guard let name = model.primaryKey else { return }
        let location = sourceMap[.modelValue(model: model.name, field: "primaryKey")]
        guard let property = properties[name] else {
            error("primary key '\(name)' of model '\(model.name)' is not one of its properties"
                + Suggestion.didYouMean(name, among: model.properties.map(\.name)), at: location)
            return
        }
        let type = property.type.schemaSpelling
        if property.isTransient {
            error("primary key '\(name)' of model '\(model.name)' is transient, so it is never stored: choose a "
                + "stored property or remove 'transient'", at: location)
        } else if case .optional(let wrapped) = property.type, wrapped.canBePrimaryKey {
            error("primary key '\(name)' of model '\(model.name)' is optional ('\(type)'): a primary key always has "
                + "a value: write '\(wrapped.schemaSpelling)'", at: location)
        } else if !property.type.canBePrimaryKey {
            error("primary key '\(name)' of model '\(model.name)' has type '\(property.type.readableName)', which "
                + "cannot be a primary key: use an int, string, uuid or objectId property", at: location)
        }
    }

    private mutating func checkCompoundIndexes(
        of model: ModelDefinition, properties: NameLookup<PropertyDefinition>
    ) {
        for (index, names) in model.compoundIndexes.enumerated() {
            var seen: Set<String> = []
            for (entry, name) in names.enumerated() {
                let location = sourceMap[.compoundIndexEntry(model: model.name, index: index, entry: entry)]
                guard let property = properties[name] else {
                    error("index of model '\(model.name)' names '\(name)', which is not one of its properties"
                        + Suggestion.didYouMean(name, among: model.properties.map(\.name)), at: location)
                    continue
                }
                if !seen.insert(name).inserted {
                    error("index of model '\(model.name)' lists '\(name)' twice: remove one", at: location)
                } else if property.isTransient {
                    error("index of model '\(model.name)' names transient property '\(name)', which is never "
                        + "stored: remove it from the index", at: location)
                } else if !property.type.isIndexable {
                    error("index of model '\(model.name)' names '\(name)' of type '\(property.type.readableName)', "
                        + "which cannot be indexed: indexes are for bool, int, string, date, uuid, decimal, "
                        + "objectId, any and enum properties", at: location)
                }
            }
        }
    }

    /// `onDelete:` is for stored links, lists, sets and maps of objects and for linkingObjects (direct or through a
    /// list), and not for links to embedded objects (which always cascade).
    private mutating func checkDeleteRule(
        _ rule: DeleteRule, of property: PropertyDefinition, in model: ModelDefinition, at location: SourceLocation
    ) {
        let qualified = "'\(model.name).\(property.name)'"
        guard let target = property.type.linkedModel else {
            error("'onDelete' of property \(qualified) is for links, lists, sets and maps of objects and for "
                + "linkingObjects, not for '\(property.type.readableName)': remove 'onDelete'", at: location)
            return
        }
        if property.isTransient {
            error("property \(qualified) is transient, so it is not stored and deleting cannot follow it: remove "
                + "'onDelete' or 'transient'", at: location)
        } else if !property.type.isLinkingObjects, models[target]?.isEmbedded == true {
            error("'onDelete' of property \(qualified) links to embedded model '\(target)', whose objects are always "
                + "deleted with their owner: remove 'onDelete'", at: location)
        }
    }

    /// `unique: [[a, b]]`: each group names distinct, stored, indexable properties of the model.
    private mutating func checkUniqueGroups(of model: ModelDefinition, properties: NameLookup<PropertyDefinition>) {
        for (index, names) in model.uniqueGroups.enumerated() {
            var seen: Set<String> = []
            for (entry, name) in names.enumerated() {
                let location = sourceMap[.uniqueGroupEntry(model: model.name, index: index, entry: entry)]
                guard let property = properties[name] else {
                    error("uniqueness rule of model '\(model.name)' names '\(name)', which is not one of its "
                        + "properties" + Suggestion.didYouMean(name, among: model.properties.map(\.name)),
                        at: location)
                    continue
                }
                if !seen.insert(name).inserted {
                    error("uniqueness rule of model '\(model.name)' lists '\(name)' twice: remove one", at: location)
                } else if property.isTransient {
                    error("uniqueness rule of model '\(model.name)' names transient property '\(name)', which is "
                        + "never stored: remove it from the rule", at: location)
                } else if !property.type.isIndexable {
                    error("uniqueness rule of model '\(model.name)' names '\(name)' of type "
                        + "'\(property.type.readableName)', which cannot be indexed: uniqueness is for bool, int, "
                        + "string, date, uuid, decimal, objectId, any and enum properties, not lists, sets, maps or "
                        + "links", at: location)
                }
            }
        }
    }

    // MARK: - Removed and renamed, inside one file

    private mutating func checkRemovedModels() {
        for (index, name) in version.removedModels.enumerated() where models.contains(name) {
            error("model '\(name)' is listed in 'removedModels' but is still defined: remove it from one of the two",
                at: sourceMap[.removedModel(index)])
        }
        let removedModels = Set(version.removedModels)
        var renamedFrom: [String: String] = [:]
        for model in version.models {
            guard let old = model.renamedFrom else { continue }
            let location = sourceMap[.modelValue(model: model.name, field: "renamedFrom")]
            if old == model.name {
                error("model '\(model.name)' is 'renamedFrom' itself: remove 'renamedFrom'", at: location)
            } else if let other = renamedFrom[old] {
                error("models '\(other)' and '\(model.name)' are both renamed from '\(old)': only one can keep its "
                    + "data", at: location)
            } else if models.contains(old) {
                error("model '\(model.name)' is renamed from '\(old)', but '\(old)' is still defined in this version: "
                    + "rename one of them", at: location)
            } else if removedModels.contains(old) {
                error("model '\(model.name)' is renamed from '\(old)', which is also listed in 'removedModels': "
                    + "its data is either kept or dropped, not both", at: location)
            }
            renamedFrom[old] = model.name
        }
    }

    private mutating func checkRemovedAndRenamed(
        in model: ModelDefinition, properties: NameLookup<PropertyDefinition>
    ) {
        let removed = Set(model.removedProperties)
        for (index, name) in model.removedProperties.enumerated() {
            if let property = properties[name], !property.isTransient {
                error("property '\(name)' of model '\(model.name)' is listed in 'removed' but is still defined: "
                    + "remove it from one of the two", at: sourceMap[.removedProperty(model: model.name, index: index)])
            }
        }
        var renamedFrom: [String: String] = [:]
        for property in model.properties where !property.isTransient {
            guard let old = property.renamedFrom else { continue }
            let location = sourceMap[.propertyValue(model: model.name, property: property.name, field: "renamedFrom")]
            let qualified = "'\(model.name).\(property.name)'"
            if old == property.name {
                error("property \(qualified) is 'renamedFrom' itself: remove 'renamedFrom'", at: location)
            } else if let other = renamedFrom[old] {
                error("properties '\(other)' and '\(property.name)' of model '\(model.name)' are both renamed from "
                    + "'\(old)': only one can keep its values", at: location)
            } else if let existing = properties[old], !existing.isTransient {
                error("property \(qualified) is renamed from '\(old)', but '\(old)' is still defined in this "
                    + "version: rename one of them", at: location)
            } else if removed.contains(old) {
                error("property \(qualified) is renamed from '\(old)', which is also listed in 'removed': its "
                    + "values are either kept or dropped, not both", at: location)
            }
            renamedFrom[old] = property.name
        }
    }

    private mutating func error(_ message: String, at location: SourceLocation) {
        diagnostics.append(.error(message, at: location))
    }
}
