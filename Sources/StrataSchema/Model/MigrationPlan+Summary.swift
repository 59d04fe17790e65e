/// Plain-words descriptions of migration steps, for `strata-gen diff` and for error messages.
extension MigrationStep {
    /// What the step does, such as "rename property Person.yearsSinceBirth to age".
    public var summary: String {
        switch self {
        case .addModel(let model):
            return "add model \(model)"
        case .removeModel(let model):
            return "remove model \(model) and its objects"
        case .renameModel(let from, let to):
            return "rename model \(from) to \(to)"
        case .addProperty(let model, let property, let type, let defaultValue):
            let filling: String
            switch (defaultValue, type) {
            case (let value?, _) where value != .null: filling = "filled with \(describe(value))"
            case (_, .list), (_, .set), (_, .map): filling = "starting empty"
            case (_, .optional): filling = "starting as nil"
            default: filling = "filled with its zero value"
            }
            return "add property \(model).\(property) (\(type.schemaSpelling)), \(filling)"
        case .removeProperty(let model, let property):
            return "remove property \(model).\(property)"
        case .renameProperty(let model, let from, let to):
            return "rename property \(model).\(from) to \(to)"
        case .convertProperty(let model, let property, let from, let to):
            var text = "convert property \(model).\(property) from \(from.schemaSpelling) to \(to.schemaSpelling)"
            if case .list = from, case .set = to { text += " (duplicate elements are dropped)" }
            return text
        case .replaceNils(let model, let property, let from, let to, let defaultValue):
            return "make property \(model).\(property) non-optional (\(from.schemaSpelling) to "
                + "\(to.schemaSpelling)), nils become \(describe(defaultValue))"
        case .rebuildIndexes(let model):
            return "rebuild the indexes of \(model)"
        case .changePrimaryKey(let model, let from, let to):
            switch (from, to) {
            case (nil, let to?): return "make \(model).\(to) the primary key (checked for duplicates)"
            case (let from?, nil): return "drop the primary key \(model).\(from)"
            case (let from?, let to?):
                return "change the primary key of \(model) from \(from) to \(to) (checked for duplicates)"
            case (nil, nil): return "keep \(model) without a primary key"
            }
        case .custom(let model):
            return "run the app's custom migration for \(model)"
        case .changeEmbedded(let model, let embedded):
            return embedded
                ? "make \(model) an embedded model (each object must have exactly one owner; orphans and objects "
                    + "with several owners are refused)"
                : "make \(model) a top-level model (its objects keep their values and stop being deleted with "
                    + "their owners)"
        case .checkUniqueness(let model, let properties):
            let names = properties.map { "\(model).\($0)" }.joined(separator: " + ")
            return "make \(names) unique (existing objects are checked: equal values fail the migration, naming "
                + "the duplicates)"
        case .changeDeleteRule(let model, let property, let from, let to):
            return "change the delete rule of \(model).\(property) from \((from ?? .nullify).rawValue) to "
                + "\((to ?? .nullify).rawValue) (no data changes: the new rule applies to later deletes)"
        }
    }

    private func describe(_ value: DefaultValue) -> String {
        switch value {
        case .bool(let flag): return "\(flag)"
        case .integer(let number): return "\(number)"
        case .double(let number): return "\(number)"
        case .string(let text): return "\"\(text)\""
        case .auto: return "an automatic value"
        case .null: return "nil"
        }
    }
}

extension MigrationPlan {
    /// The plan in plain words, one step per line: `"v2 → v3:\n  - rename property Person.yearsSinceBirth to age"`.
    public var summary: String {
        let header = "v\(fromVersion) → v\(toVersion):"
        if steps.isEmpty { return header + "\n  (no changes to stored data)" }
        return ([header] + steps.map { "  - " + $0.summary }).joined(separator: "\n")
    }
}
