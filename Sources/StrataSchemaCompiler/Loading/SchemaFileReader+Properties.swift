import StrataSchema
import Yams

/// Reading a model's properties: the shorthand (`age: int`, `tags: [string]`) and the long form.
extension SchemaFileReader {
    /// Keys of a property in long form.
    static let propertyKeys = [
        "type", "enum", "linkingObjects", "optional", "default", "indexed", "unique", "fullText", "renamedFrom",
        "transient", "doc", "onDelete",
    ]

    mutating func readProperties(of model: String, _ entry: Entry) -> [PropertyDefinition] {
        if case .scalar(let scalar) = entry.value, scalar.string.isEmpty {
            return []
        }
        guard case .mapping = entry.value else {
            report("'properties' of model '\(model)' must be a mapping from property names to types, such as "
                + "'properties: { id: int, name: string }'", at: entry.valueLocation)
            return []
        }
        var properties: [PropertyDefinition] = []
        let propertyEntries = entries(of: entry.value, at: entry.valueLocation) {
            "property '\($0)' is defined twice in model '\(model)'"
        }
        for propertyEntry in propertyEntries {
            sourceMap.record(.property(model: model, property: propertyEntry.name), at: propertyEntry.keyLocation)
            if let property = readProperty(of: model, propertyEntry) { properties.append(property) }
        }
        return properties
    }

    private mutating func readProperty(of model: String, _ entry: Entry) -> PropertyDefinition? {
        let name = entry.name
        switch entry.value {
        case .scalar(let scalar) where scalar.string.trimmingSpaces.isEmpty:
            report("property '\(model).\(name)' has no type: write one after the colon, such as '\(name): string'",
                at: entry.keyLocation)
            return nil
        case .scalar, .sequence:
            sourceMap.record(.propertyValue(model: model, property: name, field: "type"), at: entry.valueLocation)
            guard let type = readType(entry.value, at: entry.valueLocation) else { return nil }
            return PropertyDefinition(name: name, type: type, location: entry.keyLocation)
        case .mapping:
            return readLongForm(of: model, entry)
        case .alias:
            report("property '\(model).\(name)' cannot be an alias", at: entry.valueLocation)
            return nil
        }
    }

    private mutating func readLongForm(of model: String, _ entry: Entry) -> PropertyDefinition? {
        let name = entry.name
        let qualified = "'\(model).\(name)'"
        var type: PropertyType?
        var typeKey: String?
        var typeIsReadable = true
        var isOptionalEnum = false
        var property = PropertyDefinition(name: name, type: .bool, location: entry.keyLocation)
        let fields = entries(of: entry.value, at: entry.valueLocation) {
            "key '\($0)' appears twice in property \(qualified)"
        }
        for field in fields {
            sourceMap.record(.propertyKey(model: model, property: name, field: field.name), at: field.keyLocation)
            sourceMap.record(.propertyValue(model: model, property: name, field: field.name), at: field.valueLocation)
            switch field.name {
            case "type", "enum", "linkingObjects":
                if let typeKey {
                    report("property \(qualified) has both '\(typeKey)' and '\(field.name)': give only one",
                        at: field.keyLocation)
                    continue
                }
                typeKey = field.name
                if field.name == "type" {
                    type = readType(field.value, at: field.valueLocation, model: model, property: name)
                } else if field.name == "enum" {
                    type = readEnum(field, model: model, property: name)
                } else {
                    type = readLinkingObjects(field, qualified: qualified)
                }
                typeIsReadable = type != nil
            case "optional":
                guard let flag = bool(field, qualified: qualified) else { continue }
                isOptionalEnum = flag
            case "default":
                switch ScalarLiteral.defaultValue(field.value) {
                case .success(let value): property.defaultValue = value
                case .failure(let problem):
                    report("default of property \(qualified): \(problem.message)", at: field.valueLocation)
                }
            case "indexed":
                property.isIndexed = bool(field, qualified: qualified) ?? false
            case "fullText":
                property.isFullText = bool(field, qualified: qualified) ?? false
            case "onDelete":
                guard let text = scalarText(field, expecting: "nullify, cascade or deny") else { continue }
                if let rule = DeleteRule(rawValue: text) {
                    property.deleteRule = rule
                } else {
                    report("'onDelete' of property \(qualified) is nullify, cascade or deny, not '\(text)'",
                        at: field.valueLocation)
                }
            case "unique":
                property.isUnique = bool(field, qualified: qualified) ?? false
            case "transient":
                property.isTransient = bool(field, qualified: qualified) ?? false
            case "renamedFrom":
                property.renamedFrom = scalarText(field, expecting: "the property's name in the previous version")
            case "doc":
                property.doc = scalarText(field, expecting: "the property's documentation as text")
            default:
                reportUnknownKey(field, among: Self.propertyKeys, in: "in property \(qualified)")
            }
        }
        if sourceMap.contains(.propertyKey(model: model, property: name, field: "optional")) {
            if typeKey != "enum" {
                report("'optional' is only for enum properties; for other types write '?' after the type, "
                    + "such as 'type: string?'",
                    at: sourceMap[.propertyKey(model: model, property: name, field: "optional")])
            } else if isOptionalEnum, let wrapped = type {
                type = .optional(wrapped)
            }
        }
        guard typeKey != nil else {
            report("property \(qualified) has no type: add 'type:' (or 'enum:' or 'linkingObjects:')",
                at: entry.keyLocation)
            return nil
        }
        guard typeIsReadable, let type else { return nil }
        property.type = type
        return property
    }

    /// A type written as a scalar (`string?`, `"[int]"`) or as a YAML list (`[string]`, `[Book]`).
    private mutating func readType(
        _ node: Node, at location: SourceLocation, model: String? = nil, property: String? = nil
    ) -> PropertyType? {
        switch node {
        case .scalar(let scalar):
            switch TypeSpelling.parse(scalar.string) {
            case .success(let type): return type
            case .failure(let problem):
                report(problem.message, at: location)
                return nil
            }
        case .sequence(let elements):
            guard elements.count == 1, case .scalar(let element) = elements[0] else {
                let what = elements.count == 1 ? "a list of lists or mappings" : "\(elements.count) element types"
                report("a list type names one element type, such as '[string]' or '[Book]', not \(what)",
                    at: location)
                return nil
            }
            let whole = "[\(element.string)]"
            switch TypeSpelling.element(element.string, in: whole) {
            case .success(let type): return .list(type)
            case .failure(let problem):
                report(problem.message, at: document.location(of: elements[0], or: location))
                return nil
            }
        case .mapping:
            // `type: { enum: [...] }` is accepted as a spelling of the enum form.
            if let model, let property, case .mapping(let pairs) = node, pairs.count == 1, let pair = pairs.first,
                document.keyName(pair.key) == "enum" {
                let entry = Entry(name: "enum", key: pair.key, value: pair.value,
                    keyLocation: document.location(of: pair.key, or: location),
                    valueLocation: document.location(of: pair.value, or: location))
                sourceMap.record(.propertyValue(model: model, property: property, field: "enum"),
                    at: entry.valueLocation)
                return readEnum(entry, model: model, property: property)
            }
            report("a type is written as text such as 'string' or 'Book?', not a mapping", at: location)
            return nil
        case .alias:
            report("a type cannot be an alias", at: location)
            return nil
        }
    }

    private mutating func readEnum(_ entry: Entry, model: String, property: String) -> PropertyType? {
        guard case .sequence(let items) = entry.value, !items.isEmpty else {
            report("'enum' of property '\(model).\(property)' must list its cases, such as "
                + "'enum: [active, suspended]'", at: entry.valueLocation)
            return nil
        }
        var cases: [String] = []
        for item in items {
            let location = document.location(of: item, or: entry.valueLocation)
            guard case .scalar(let scalar) = item else {
                report("enum cases of '\(model).\(property)' are names, not " + describe(item), at: location)
                return nil
            }
            sourceMap.record(.enumCase(model: model, property: property, index: cases.count), at: location)
            cases.append(scalar.string)
        }
        return .enumeration(cases)
    }

    private mutating func readLinkingObjects(_ entry: Entry, qualified: String) -> PropertyType? {
        guard case .scalar(let scalar) = entry.value else {
            report("'linkingObjects' of property \(qualified) names a link as 'Model.property', not "
                + describe(entry.value), at: entry.valueLocation)
            return nil
        }
        let parts = scalar.string.trimmingSpaces.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
            report("'linkingObjects' of property \(qualified) must be written 'Model.property' (the link or list "
                + "that points here), not '\(scalar.string)'", at: entry.valueLocation)
            return nil
        }
        return .linkingObjects(model: String(parts[0]), property: String(parts[1]))
    }

    private mutating func bool(_ entry: Entry, qualified: String) -> Bool? {
        guard let value = ScalarLiteral.bool(entry.value) else {
            report("'\(entry.name)' of property \(qualified) must be true or false, not " + describe(entry.value),
                at: entry.valueLocation)
            return nil
        }
        return value
    }
}
