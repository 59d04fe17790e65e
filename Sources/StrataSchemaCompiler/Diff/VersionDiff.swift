import StrataSchema

/// Compares a version with the one before it: matches models and properties through `renamedFrom`, checks that
/// nothing disappears without `removed`/`removedModels`, and turns every change into a `MigrationStep`.
///
/// Steps come in a fixed order, so that each one sees the names in force when it runs:
/// 1. renames (models, then properties): later steps use the new names;
/// 2. removals (models, then properties);
/// 3. conversions (`convertProperty`, `replaceNils`);
/// 4. additions (models, then properties): a new link can point at a new model;
/// 5. index changes (`rebuildIndexes`, then `changePrimaryKey`): indexes are built over final values;
/// 6. `custom` last: app code sees the finished structure.
/// Inside each group, models follow the new file's order (removed models: the previous file's order) and
/// properties their model's order.
struct VersionDiff {
    let previous: LoadedSchemaFile
    let current: LoadedSchemaFile
    private(set) var diagnostics: [Diagnostic] = []

    private var modelRenames: [MigrationStep] = []
    private var propertyRenames: [MigrationStep] = []
    private var modelRemovals: [MigrationStep] = []
    private var propertyRemovals: [MigrationStep] = []
    private var conversions: [MigrationStep] = []
    private var modelAdditions: [MigrationStep] = []
    private var propertyAdditions: [MigrationStep] = []
    private var indexChanges: [MigrationStep] = []
    private var keyChanges: [MigrationStep] = []
    private var customSteps: [MigrationStep] = []

    /// The previous version's models by name.
    private let oldModels: NameLookup<ModelDefinition>
    /// The current version's models by name.
    private let newModels: NameLookup<ModelDefinition>

    /// Prepares to compare `current` with `previous`, both already validated on their own.
    init(previous: LoadedSchemaFile, current: LoadedSchemaFile) {
        self.previous = previous
        self.current = current
        oldModels = NameLookup(modelsOf: previous.version)
        newModels = NameLookup(modelsOf: current.version)
    }

    private var old: SchemaVersion { previous.version }
    private var new: SchemaVersion { current.version }
    private var map: SourceMap { current.sourceMap }

    /// The plan from the previous version to the current one; check `diagnostics` before using it.
    mutating func plan() -> MigrationPlan {
        var renamedModels: [String: String] = [:]
        var matched: [(old: ModelDefinition, new: ModelDefinition)] = []
        for model in new.models {
            if let oldName = model.renamedFrom {
                if let oldModel = oldModels[oldName] {
                    renamedModels[oldName] = model.name
                    matched.append((oldModel, model))
                    modelRenames.append(.renameModel(from: oldName, to: model.name))
                } else if let sameName = oldModels[model.name] {
                    // Version n−1 already has the new name: the key was copied from its file.
                    matched.append((sameName, model))
                    error("model '\(model.name)' is renamed from '\(oldName)', but version \(old.version) already "
                        + "calls it '\(model.name)'" + ranInStep(sameName.renamedFrom == oldName)
                        + ": 'renamedFrom' looks copied from version \(old.version)'s file; delete 'renamedFrom: "
                        + "\(oldName)'", at: map[.modelValue(model: model.name, field: "renamedFrom")])
                } else {
                    let unclaimed = old.models.map(\.name).filter { !newModels.contains($0) }
                    let guess = Suggestion.closest(to: oldName, among: unclaimed)
                    // The likely intended old model is not reported again as "missing".
                    if let guess { renamedModels[guess] = model.name }
                    error("model '\(model.name)' is renamed from '\(oldName)', but version \(old.version) has no model "
                        + "'\(oldName)'"
                        + (guess.map { ": did you mean '\($0)'?" } ?? "; remove 'renamedFrom' if the model is new"),
                        at: map[.modelValue(model: model.name, field: "renamedFrom")])
                }
            } else if let oldModel = oldModels[model.name] {
                matched.append((oldModel, model))
            } else {
                modelAdditions.append(.addModel(model.name))
                checkNothingInheritedByNewModel(model)
            }
        }
        checkRemovedModels(renamedModels: renamedModels)
        for pair in matched {
            compare(pair.old, pair.new, renamedModels: renamedModels)
        }
        for model in new.models where model.needsCustomMigration {
            customSteps.append(.custom(model: model.name))
            checkCopiedCustomMigration(of: model, matched: matched.first { $0.new.name == model.name }?.old)
        }
        let steps = modelRenames + propertyRenames + modelRemovals + propertyRemovals + conversions
            + modelAdditions + propertyAdditions + indexChanges + keyChanges + customSteps
        return MigrationPlan(fromVersion: old.version, toVersion: new.version, steps: steps)
    }

    // MARK: - Models

    private mutating func checkRemovedModels(renamedModels: [String: String]) {
        let previouslyRemoved = Set(old.removedModels)
        for (index, name) in new.removedModels.enumerated() where !oldModels.contains(name) {
            if previouslyRemoved.contains(name) {
                error("'removedModels' lists '\(name)', which version \(old.version) already removed: the entry looks "
                    + "copied from version \(old.version)'s file; delete it", at: map[.removedModel(index)])
                continue
            }
            error("'removedModels' lists '\(name)', but version \(old.version) has no model '\(name)'"
                + Suggestion.didYouMean(name, among: old.models.map(\.name)), at: map[.removedModel(index)])
        }
        let added = new.models.filter { !oldModels.contains($0.name) && $0.renamedFrom == nil }.map(\.name)
        let removed = Set(new.removedModels)
        for model in old.models where !newModels.contains(model.name) && renamedModels[model.name] == nil {
            if removed.contains(model.name) {
                modelRemovals.append(.removeModel(model.name))
                continue
            }
            var message = "model '\(model.name)' of version \(old.version) is missing from version \(new.version): "
                + "list it in 'removedModels: [\(model.name)]' to drop its objects"
            if let guess = Suggestion.closest(to: model.name, among: added) {
                message += ", or add 'renamedFrom: \(model.name)' to model '\(guess)' if that is its new name"
            } else {
                message += ", or add 'renamedFrom: \(model.name)' to the model that replaces it"
            }
            error(message, at: map[.topKey("models")])
        }
    }

    /// A model new in this version has no previous values to rename or remove.
    private mutating func checkNothingInheritedByNewModel(_ model: ModelDefinition) {
        for property in model.persistedProperties where property.renamedFrom != nil {
            error("property '\(model.name).\(property.name)' is renamed from '\(property.renamedFrom ?? "")', but "
                + "model '\(model.name)' is new in version \(new.version), so there are no old values: remove "
                + "'renamedFrom', or add 'renamedFrom:' to the model if it replaces one of version \(old.version)",
                at: map[.propertyValue(model: model.name, property: property.name, field: "renamedFrom")])
        }
        if !model.removedProperties.isEmpty {
            error("model '\(model.name)' is new in version \(new.version), so it has no properties to remove: remove "
                + "'removed', or add 'renamedFrom:' to the model if it replaces one of version \(old.version)",
                at: map[.modelValue(model: model.name, field: "removed")])
        }
    }

    // MARK: - Properties

    private mutating func compare(
        _ oldModel: ModelDefinition, _ model: ModelDefinition, renamedModels: [String: String]
    ) {
        let oldProperties = oldModel.persistedProperties
        let oldStored = NameLookup(oldProperties, name: \.name)
        let oldAll = NameLookup(propertiesOf: oldModel)
        let newAll = NameLookup(propertiesOf: model)
        var renamed: [String: String] = [:]
        var pairs: [(old: PropertyDefinition, new: PropertyDefinition)] = []
        for property in model.persistedProperties {
            if let oldName = property.renamedFrom {
                if let oldProperty = oldStored[oldName] {
                    renamed[oldName] = property.name
                    pairs.append((oldProperty, property))
                    propertyRenames.append(.renameProperty(model: model.name, from: oldName, to: property.name))
                } else if let sameName = oldStored[property.name] {
                    // Version n−1 already has the new name: the key was copied from its file.
                    pairs.append((sameName, property))
                    error("property '\(model.name).\(property.name)' is renamed from '\(oldName)', but model "
                        + "'\(oldModel.name)' of version \(old.version) already calls it '\(property.name)'"
                        + ranInStep(sameName.renamedFrom == oldName) + ": 'renamedFrom' looks copied from version "
                        + "\(old.version)'s file; delete 'renamedFrom: \(oldName)'",
                        at: map[.propertyValue(model: model.name, property: property.name, field: "renamedFrom")])
                } else {
                    let wasTransient = oldAll[oldName]?.isTransient == true
                    let unclaimed = oldProperties.map(\.name).filter { !newAll.contains($0) }
                    let guess = Suggestion.closest(to: oldName, among: unclaimed)
                    // The likely intended old property is not reported again as "missing".
                    if let guess { renamed[guess] = property.name }
                    error("property '\(model.name).\(property.name)' is renamed from '\(oldName)', but model "
                        + "'\(oldModel.name)' of version \(old.version) "
                        + (wasTransient ? "only had it as a transient property, whose values were never stored"
                            : "has no stored property '\(oldName)'")
                        + (guess.map { ": did you mean '\($0)'?" } ?? "; remove 'renamedFrom' if the property is new"),
                        at: map[.propertyValue(model: model.name, property: property.name, field: "renamedFrom")])
                }
            } else if let oldProperty = oldStored[property.name] {
                pairs.append((oldProperty, property))
            } else {
                propertyAdditions.append(.addProperty(
                    model: model.name, property: property.name, type: property.type,
                    defaultValue: property.defaultValue))
            }
        }
        checkRemovedProperties(of: oldModel, model, properties: newAll, renamed: renamed)
        let inCompoundIndexes = Set(model.compoundIndexes.joined()).union(model.uniquenessRules.joined())
        var convertedIndexed = false
        for pair in pairs {
            if convert(pair.old, to: pair.new, in: model, renamedModels: renamedModels),
                pair.new.isIndexed || model.primaryKey == pair.new.name || inCompoundIndexes.contains(pair.new.name) {
                convertedIndexed = true
            }
        }
        compareIndexes(oldModel, model, pairs: pairs, renamed: renamed, convertedIndexed: convertedIndexed)
    }

    private mutating func checkRemovedProperties(
        of oldModel: ModelDefinition, _ model: ModelDefinition, properties: NameLookup<PropertyDefinition>,
        renamed: [String: String]
    ) {
        let oldNames = oldModel.persistedProperties.map(\.name)
        let oldNameSet = Set(oldNames)
        let removed = Set(model.removedProperties)
        let previouslyRemoved = Set(oldModel.removedProperties)
        for (index, name) in model.removedProperties.enumerated() where !oldNameSet.contains(name) {
            if previouslyRemoved.contains(name) {
                error("'removed' of model '\(model.name)' lists '\(name)', which version \(old.version) already "
                    + "removed: the entry looks copied from version \(old.version)'s file; delete it",
                    at: map[.removedProperty(model: model.name, index: index)])
                continue
            }
            error("'removed' of model '\(model.name)' lists '\(name)', but model '\(oldModel.name)' of version "
                + "\(old.version) has no stored property '\(name)'" + Suggestion.didYouMean(name, among: oldNames),
                at: map[.removedProperty(model: model.name, index: index)])
        }
        let added = model.persistedProperties.filter { $0.renamedFrom == nil && !oldNameSet.contains($0.name) }
            .map(\.name)
        for name in oldNames where renamed[name] == nil {
            if let property = properties[name], !property.isTransient { continue }
            if removed.contains(name) {
                propertyRemovals.append(.removeProperty(model: model.name, property: name))
                continue
            }
            let becameTransient = properties[name]?.isTransient == true
            var message = "property '\(oldModel.name).\(name)' of version \(old.version) is "
                + (becameTransient ? "transient in version \(new.version), so its stored values would be lost: "
                    : "missing from model '\(model.name)' in version \(new.version): ")
                + "list it in 'removed: [\(name)]' to drop its values"
            if let guess = Suggestion.closest(to: name, among: added) {
                message += ", or add 'renamedFrom: \(name)' to property '\(guess)' if that is its new name"
            } else if !becameTransient {
                message += ", or add 'renamedFrom: \(name)' to the property that replaces it"
            }
            error(message, at: map[.modelKey(model: model.name, field: "properties")])
        }
    }

    /// Adds the step for a type change; returns whether the stored values change.
    private mutating func convert(
        _ oldProperty: PropertyDefinition, to property: PropertyDefinition, in model: ModelDefinition,
        renamedModels: [String: String]
    ) -> Bool {
        let oldType = TypeConversion.renamingModels(in: oldProperty.type, renamedModels)
        let change = "from '\(oldProperty.type.schemaSpelling)' to "
            + "'\(property.type.schemaSpelling)'"
        let qualified = "'\(model.name).\(property.name)'"
        let typeField = map.contains(.propertyValue(model: model.name, property: property.name, field: "enum"))
            ? "enum" : "type"
        let location = map[.propertyValue(model: model.name, property: property.name, field: typeField)]
        switch TypeConversion.classify(from: oldType, to: property.type) {
        case .unchanged:
            return false
        case .lossless, .droppingDuplicates:
            conversions.append(.convertProperty(
                model: model.name, property: property.name, from: oldProperty.type, to: property.type))
        case .unwrapping:
            if let value = property.defaultValue, value != .null {
                conversions.append(.replaceNils(
                    model: model.name, property: property.name, from: oldProperty.type, to: property.type,
                    defaultValue: value))
            } else if model.needsCustomMigration {
                recreate(property, in: model)
            } else {
                error("property \(qualified) changes \(change), but existing nils need a value: add a 'default:' "
                    + "(nils become it) or 'migrate: custom' to model '\(model.name)' and set the values in the "
                    + "migration", at: location)
            }
        case .needsCustomCode:
            if model.needsCustomMigration {
                recreate(property, in: model)
            } else {
                error("property \(qualified) changes type \(change), which Strata cannot convert by itself: add "
                    + "'migrate: custom' to model '\(model.name)' and convert the values in the migration, or keep "
                    + "the old type", at: location)
            }
        }
        return true
    }

    /// A type change the app's code performs: the property is dropped and created again with its new type (and
    /// default); the custom migration fills it from the old version's read-only objects.
    private mutating func recreate(_ property: PropertyDefinition, in model: ModelDefinition) {
        propertyRemovals.append(.removeProperty(model: model.name, property: property.name))
        propertyAdditions.append(.addProperty(
            model: model.name, property: property.name, type: property.type, defaultValue: property.defaultValue))
    }

    // MARK: - Indexes and keys

    private mutating func compareIndexes(
        _ oldModel: ModelDefinition, _ model: ModelDefinition,
        pairs: [(old: PropertyDefinition, new: PropertyDefinition)], renamed: [String: String], convertedIndexed: Bool
    ) {
        let rename = { (name: String) in renamed[name] ?? name }
        let flagsChanged = pairs.contains {
            $0.old.isIndexed != $0.new.isIndexed || $0.old.isFullText != $0.new.isFullText
        }
        let oldCompound = Set(oldModel.compoundIndexes.map { $0.map(rename) })
        let compoundChanged = oldCompound != Set(model.compoundIndexes)
        let oldUnique = Set(oldModel.uniquenessRules.map { $0.map(rename) })
        let added = model.uniquenessRules.filter { !oldUnique.contains($0) }
        let uniqueChanged = !added.isEmpty || oldUnique != Set(model.uniquenessRules)
        if flagsChanged || compoundChanged || convertedIndexed || uniqueChanged {
            indexChanges.append(.rebuildIndexes(model: model.name))
        }
        for rule in added {
            indexChanges.append(.checkUniqueness(model: model.name, properties: rule))
        }
        let oldKey = oldModel.primaryKey.map(rename)
        if oldKey != model.primaryKey {
            keyChanges.append(.changePrimaryKey(model: model.name, from: oldKey, to: model.primaryKey))
        }
        if oldModel.isEmbedded != model.isEmbedded {
            keyChanges.append(.changeEmbedded(model: model.name, embedded: model.isEmbedded))
        }
        // Delete rules are not stored: a change is listed for the plan's text, and the migration does nothing.
        for property in model.properties {
            guard let old = oldModel.properties.first(where: { rename($0.name) == property.name }),
                (old.deleteRule ?? .nullify) != (property.deleteRule ?? .nullify) else { continue }
            keyChanges.append(.changeDeleteRule(
                model: model.name, property: property.name, from: old.deleteRule, to: property.deleteRule))
        }
    }

    // MARK: - Keys copied from the previous file

    /// `" (the rename ran in the step into version 2)"` when the previous file has the same `renamedFrom`.
    private func ranInStep(_ sameKeyInPrevious: Bool) -> String {
        sameKeyInPrevious ? " (the rename ran in the step into version \(old.version))" : ""
    }

    /// Warns about `migrate: custom` on a model whose properties are those of the previous version, when the
    /// previous version's file has the key too: a new version file copied from the last one keeps it, and the app
    /// would then have to write a migration that has nothing to do.
    private mutating func checkCopiedCustomMigration(of model: ModelDefinition, matched oldModel: ModelDefinition?) {
        guard let oldModel, oldModel.needsCustomMigration, model.renamedFrom == nil else { return }
        let changesModel = (propertyRenames + propertyRemovals + conversions + propertyAdditions).contains {
            Self.changedModel(by: $0) == model.name
        }
        guard !changesModel else { return }
        diagnostics.append(.warning(
            "model '\(model.name)' has 'migrate: custom', but its stored properties are those of version "
                + "\(old.version), whose file has 'migrate: custom' too: the key looks copied from version "
                + "\(old.version)'s file; delete it, unless the step into version \(new.version) must recompute "
                + "values (then the app implements one more method of '\(new.schemaName)Migrations')",
            at: map[.modelValue(model: model.name, field: "migrate")]))
    }

    /// The model whose properties a property step changes.
    private static func changedModel(by step: MigrationStep) -> String? {
        switch step {
        case .addProperty(let model, _, _, _), .removeProperty(let model, _), .renameProperty(let model, _, _),
            .convertProperty(let model, _, _, _), .replaceNils(let model, _, _, _, _):
            return model
        default:
            return nil
        }
    }

    private mutating func error(_ message: String, at location: SourceLocation) {
        diagnostics.append(.error(message, at: location))
    }
}
