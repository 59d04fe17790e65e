import StrataSchema

/// Where each part of one schema file is, so that validation and diffing can point at the exact key or value
/// the author wrote. The schema model keeps one location per model and property; this keeps the rest.
struct SourceMap: Sendable {
    /// A part of a schema file.
    enum Element: Hashable, Sendable {
        /// A top-level key's value (`schema`, `version`, `access`, `models`, `removedModels`).
        case topValue(String)
        /// A top-level key itself.
        case topKey(String)
        /// The n-th name in `removedModels`.
        case removedModel(Int)
        /// A model's key (the model name).
        case model(String)
        /// The value of a model's field (`primaryKey`, `indexes`, `removed`, `renamedFrom`, `migrate`, ...).
        case modelValue(model: String, field: String)
        /// A model's field key.
        case modelKey(model: String, field: String)
        /// The n-th name in a model's `removed`.
        case removedProperty(model: String, index: Int)
        /// One property name inside a compound index.
        case compoundIndexEntry(model: String, index: Int, entry: Int)
        /// One property name inside a model's `unique:` group.
        case uniqueGroupEntry(model: String, index: Int, entry: Int)
        /// A property's key (the property name).
        case property(model: String, property: String)
        /// The value of a property's field (`type`, `default`, `indexed`, `renamedFrom`, `enum`, ...).
        case propertyValue(model: String, property: String, field: String)
        /// A property's field key.
        case propertyKey(model: String, property: String, field: String)
        /// The n-th case of an enum property.
        case enumCase(model: String, property: String, index: Int)
    }

    /// The file's path.
    let path: String
    private var locations: [Element: SourceLocation] = [:]

    /// Creates an empty map for the file at `path`.
    init(path: String) {
        self.path = path
    }

    /// The start of the file: where problems of the whole file are reported.
    var fileStart: SourceLocation { SourceLocation(path: path, line: 1, column: 1) }

    /// Records where `element` is; the first record wins (later ones are duplicates that were reported).
    mutating func record(_ element: Element, at location: SourceLocation) {
        if locations[element] == nil { locations[element] = location }
    }

    /// Where `element` is, or the nearest enclosing part that was recorded.
    subscript(element: Element) -> SourceLocation {
        if let location = locations[element] { return location }
        switch element {
        case .topValue(let key): return locations[.topKey(key)] ?? fileStart
        case .topKey, .model: return fileStart
        case .removedModel: return self[.topValue("removedModels")]
        case .modelValue(let model, let field):
            return locations[.modelKey(model: model, field: field)] ?? self[.model(model)]
        case .modelKey(let model, _): return self[.model(model)]
        case .removedProperty(let model, _): return self[.modelValue(model: model, field: "removed")]
        case .compoundIndexEntry(let model, _, _): return self[.modelValue(model: model, field: "indexes")]
        case .uniqueGroupEntry(let model, _, _): return self[.modelValue(model: model, field: "unique")]
        case .property(let model, _): return self[.model(model)]
        case .propertyValue(let model, let property, let field):
            return locations[.propertyKey(model: model, property: property, field: field)]
                ?? self[.property(model: model, property: property)]
        case .propertyKey(let model, let property, _): return self[.property(model: model, property: property)]
        case .enumCase(let model, let property, _):
            return self[.propertyValue(model: model, property: property, field: "enum")]
        }
    }

    /// Whether `element` was written in the file (as opposed to falling back to an enclosing part).
    func contains(_ element: Element) -> Bool { locations[element] != nil }
}

/// One schema file after loading: its version and where everything in it is.
struct LoadedSchemaFile: Sendable {
    /// The version the file declares.
    var version: SchemaVersion
    /// Locations of its parts.
    var sourceMap: SourceMap
    /// The file's path as given.
    var path: String { sourceMap.path }
}
