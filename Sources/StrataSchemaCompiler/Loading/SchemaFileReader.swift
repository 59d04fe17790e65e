import StrataSchema
import Yams

/// Reads one composed schema file into a `SchemaVersion` and its `SourceMap`, reporting every structural
/// problem (unknown or misplaced keys, wrong kinds of values, unreadable types) at the key or value concerned.
///
/// It keeps reading after a problem so that one run shows all of them; the meaning of the file (do links
/// resolve, is the primary key indexable, ...) is left to validation.
struct SchemaFileReader {
    /// Top-level keys of a schema file.
    static let topLevelKeys = ["schema", "version", "access", "models", "removedModels"]
    /// Keys of a model.
    static let modelKeys = [
        "doc", "primaryKey", "properties", "indexes", "unique", "removed", "renamedFrom", "migrate", "embedded",
    ]

    let document: YAMLDocument
    var sourceMap: SourceMap
    var diagnostics: [Diagnostic] = []

    /// Prepares to read `document`.
    init(document: YAMLDocument) {
        self.document = document
        self.sourceMap = SourceMap(path: document.path)
    }

    /// Reads the file; `nil` when it lacks what every version needs (`schema`, `version`, `models`).
    mutating func read() -> LoadedSchemaFile? {
        let start = sourceMap.fileStart
        guard let root = document.root, case .mapping = root else {
            let what = document.root == nil ? "the file is empty" : "the file is not a mapping of keys"
            report("\(what): a schema file starts with 'schema: Name', 'version: 1' and 'models:'", at: start)
            return nil
        }
        var schemaName: String?
        var version: Int?
        var access = AccessLevel.internal
        var models: [ModelDefinition] = []
        var removedModels: [String] = []
        var sawModels = false
        for entry in entries(of: root, at: start, duplicate: { "key '\($0)' appears twice at the top of the file" }) {
            sourceMap.record(.topKey(entry.name), at: entry.keyLocation)
            sourceMap.record(.topValue(entry.name), at: entry.valueLocation)
            switch entry.name {
            case "schema":
                schemaName = scalarText(entry, expecting: "the schema's name, such as 'schema: Library'")
            case "version":
                version = readVersion(entry)
            case "access":
                guard let text = scalarText(entry, expecting: "'public' or 'internal'") else { continue }
                if let level = AccessLevel(rawValue: text) {
                    access = level
                } else {
                    report("access '\(text)' is not 'public' or 'internal'"
                        + Suggestion.didYouMean(text, among: ["public", "internal"]), at: entry.valueLocation)
                }
            case "models":
                sawModels = true
                models = readModels(entry)
            case "removedModels":
                let names = nameList(entry, what: "model name")
                for (index, name) in names.enumerated() { sourceMap.record(.removedModel(index), at: name.location) }
                removedModels = names.map(\.name)
            default:
                reportUnknownKey(entry, among: Self.topLevelKeys, in: "at the top of a schema file")
            }
        }
        var missing: [String] = []
        if schemaName == nil && !sourceMap.contains(.topKey("schema")) { missing.append("'schema: Name'") }
        if version == nil && !sourceMap.contains(.topKey("version")) { missing.append("'version: 1'") }
        if !sawModels { missing.append("'models:'") }
        if !missing.isEmpty {
            report("the schema file lacks \(missing.joined(separator: ", ")): every version states its schema's "
                + "name, its version number and its models", at: start)
        }
        guard let schemaName, let version, sawModels else { return nil }
        let schemaVersion = SchemaVersion(
            schemaName: schemaName, version: version, access: access, models: models, removedModels: removedModels,
            location: sourceMap[.topKey("schema")])
        return LoadedSchemaFile(version: schemaVersion, sourceMap: sourceMap)
    }

    // MARK: - Top level

    private mutating func readVersion(_ entry: Entry) -> Int? {
        guard case .scalar(let scalar) = entry.value, scalar.style == .plain || scalar.style == .any,
            let number = ScalarLiteral.integer(scalar.string), Resolver.default.resolveTag(of: entry.value) == .int
        else {
            report("version must be a positive whole number such as 'version: 2', not "
                + describe(entry.value), at: entry.valueLocation)
            return nil
        }
        guard number > 0, number <= Int64(Int32.max) else {
            report("version \(number) is not a positive number (1 to \(Int32.max)): the first version is 1 and "
                + "each new file takes the next number", at: entry.valueLocation)
            return nil
        }
        return Int(number)
    }

    private mutating func readModels(_ entry: Entry) -> [ModelDefinition] {
        if case .scalar(let scalar) = entry.value, Resolver.default.resolveTag(of: entry.value) == .null,
            scalar.style == .plain || scalar.style == .any {
            return []
        }
        guard case .mapping = entry.value else {
            report("'models' must be a mapping from model names to their definitions, not "
                + describe(entry.value), at: entry.valueLocation)
            return []
        }
        var models: [ModelDefinition] = []
        let modelEntries = entries(of: entry.value, at: entry.valueLocation) { "model '\($0)' is defined twice" }
        for modelEntry in modelEntries {
            if let model = readModel(modelEntry) { models.append(model) }
        }
        return models
    }

    // MARK: - Models

    private mutating func readModel(_ entry: Entry) -> ModelDefinition? {
        let name = entry.name
        sourceMap.record(.model(name), at: entry.keyLocation)
        guard case .mapping = entry.value else {
            report("model '\(name)' must be a mapping with 'properties:' (and optionally 'primaryKey:', 'doc:', "
                + "...), not " + describe(entry.value), at: entry.valueLocation)
            return nil
        }
        var model = ModelDefinition(name: name, properties: [], location: entry.keyLocation)
        var sawProperties = false
        let fields = entries(of: entry.value, at: entry.valueLocation) {
            "key '\($0)' appears twice in model '\(name)'"
        }
        for field in fields {
            sourceMap.record(.modelKey(model: name, field: field.name), at: field.keyLocation)
            sourceMap.record(.modelValue(model: name, field: field.name), at: field.valueLocation)
            switch field.name {
            case "doc":
                model.doc = scalarText(field, expecting: "the model's documentation as text")
            case "primaryKey":
                model.primaryKey = scalarText(field, expecting: "the name of an int, string, uuid or objectId property")
            case "properties":
                sawProperties = true
                model.properties = readProperties(of: name, field)
            case "indexes":
                model.compoundIndexes = readIndexes(of: name, field)
            case "unique":
                model.uniqueGroups = readIndexes(of: name, field)
            case "removed":
                let names = nameList(field, what: "property name")
                for (index, removed) in names.enumerated() {
                    sourceMap.record(.removedProperty(model: name, index: index), at: removed.location)
                }
                model.removedProperties = names.map(\.name)
            case "renamedFrom":
                model.renamedFrom = scalarText(field, expecting: "the model's name in the previous version")
            case "embedded":
                if let flag = ScalarLiteral.bool(field.value) {
                    model.isEmbedded = flag
                } else {
                    report("'embedded' of model '\(name)' must be true or false, not " + describe(field.value),
                        at: field.valueLocation)
                }
            case "migrate":
                guard let text = scalarText(field, expecting: "'custom'") else { continue }
                if text == "custom" {
                    model.needsCustomMigration = true
                } else {
                    report("migrate '\(text)' is not known: the only value is 'migrate: custom'"
                        + Suggestion.didYouMean(text, among: ["custom"]), at: field.valueLocation)
                }
            default:
                reportUnknownKey(field, among: Self.modelKeys, in: "in model '\(name)'")
            }
        }
        if !sawProperties {
            report("model '\(name)' has no 'properties:': list its properties, such as 'properties: { id: int }'",
                at: entry.keyLocation)
        }
        return model
    }

    /// `indexes: [[a, b]]` or `unique: [[a, b]]`: lists of property names (`entry.name` says which).
    private mutating func readIndexes(of model: String, _ entry: Entry) -> [[String]] {
        let isUnique = entry.name == "unique"
        let what = isUnique ? "a uniqueness rule" : "an index"
        guard case .sequence(let indexes) = entry.value else {
            report("'\(entry.name)' in model '\(model)' must be a list of lists of property names, "
                + "such as '\(entry.name): [[author, title]]'", at: entry.valueLocation)
            return []
        }
        var result: [[String]] = []
        for index in indexes {
            let location = document.location(of: index, or: entry.valueLocation)
            if case .sequence(let names) = index, names.isEmpty {
                report("\(what) in model '\(model)' lists no property: remove the empty '[]'", at: location)
                continue
            }
            guard case .sequence(let names) = index else {
                let written = index.scalar?.string ?? "…"
                let single = isUnique ? "'unique: true'" : "'indexed: true'"
                report("each entry of '\(entry.name)' in model '\(model)' is a list of property names: write "
                    + "'[\(written)]' (and \(single) on a property for a single property)", at: location)
                continue
            }
            var compound: [String] = []
            for nameNode in names {
                let nameLocation = document.location(of: nameNode, or: location)
                guard case .scalar(let scalar) = nameNode else {
                    report("\(what) lists property names, not " + describe(nameNode), at: nameLocation)
                    continue
                }
                let element: SourceMap.Element = isUnique
                    ? .uniqueGroupEntry(model: model, index: result.count, entry: compound.count)
                    : .compoundIndexEntry(model: model, index: result.count, entry: compound.count)
                sourceMap.record(element, at: nameLocation)
                compound.append(scalar.string)
            }
            if !compound.isEmpty { result.append(compound) }
        }
        return result
    }

    // MARK: - Shared readers

    /// One key/value pair of a mapping, with the key as the author wrote it.
    struct Entry {
        var name: String
        var key: Node
        var value: Node
        var keyLocation: SourceLocation
        var valueLocation: SourceLocation
    }

    /// The pairs of `mapping`, in file order, each name once: later duplicates are reported (with
    /// `duplicate(name)` as the message) and dropped.
    mutating func entries(
        of mapping: Node, at location: SourceLocation, duplicate: (String) -> String
    ) -> [Entry] {
        guard case .mapping(let pairs) = mapping else { return [] }
        var result: [Entry] = []
        var seen: [String: SourceLocation] = [:]
        for (key, value) in pairs {
            let keyLocation = document.location(of: key, or: location)
            guard let name = document.keyName(key) else {
                report("keys must be plain names, not " + describe(key), at: keyLocation)
                continue
            }
            if let first = seen[name] {
                report(duplicate(name) + " (first at line \(first.line)): remove or rename one of them",
                    at: keyLocation)
                continue
            }
            seen[name] = keyLocation
            result.append(Entry(
                name: name, key: key, value: value, keyLocation: keyLocation,
                valueLocation: document.location(of: value, or: keyLocation)))
        }
        return result
    }

    /// The text of a scalar value, or a report that `expecting` was expected.
    mutating func scalarText(_ entry: Entry, expecting: String) -> String? {
        guard case .scalar(let scalar) = entry.value else {
            report("'\(entry.name)' must be \(expecting), not " + describe(entry.value), at: entry.valueLocation)
            return nil
        }
        return scalar.string
    }

    /// A list of names (`removed: [a, b]`); a single name is accepted as a list of one.
    mutating func nameList(_ entry: Entry, what: String) -> [(name: String, location: SourceLocation)] {
        if case .scalar(let scalar) = entry.value, !scalar.string.isEmpty {
            return [(scalar.string, entry.valueLocation)]
        }
        guard case .sequence(let items) = entry.value else {
            report("'\(entry.name)' must be a list of \(what)s, such as '\(entry.name): [a, b]'",
                at: entry.valueLocation)
            return []
        }
        var names: [(name: String, location: SourceLocation)] = []
        for item in items {
            let location = document.location(of: item, or: entry.valueLocation)
            guard case .scalar(let scalar) = item else {
                report("'\(entry.name)' lists \(what)s, not " + describe(item), at: location)
                continue
            }
            names.append((scalar.string, location))
        }
        return names
    }

    /// Reports an unknown key, suggesting the closest known one.
    mutating func reportUnknownKey(_ entry: Entry, among known: [String], in place: String) {
        let hint = Suggestion.closest(to: entry.name, among: known).map { ": did you mean '\($0)'?" }
            ?? " (known keys: \(known.joined(separator: ", ")))"
        report("unknown key '\(entry.name)' \(place)" + hint, at: entry.keyLocation)
    }

    mutating func report(_ message: String, at location: SourceLocation) {
        diagnostics.append(.error(message, at: location))
    }

    /// A short description of a node for messages ("a list", "a mapping", "'text'").
    func describe(_ node: Node) -> String {
        switch node {
        case .scalar(let scalar):
            let text = scalar.string.count > 40 ? scalar.string.prefix(40) + "…" : scalar.string
            return text.isEmpty ? "nothing" : "'\(text)'"
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        case .alias: return "an alias"
        }
    }
}
