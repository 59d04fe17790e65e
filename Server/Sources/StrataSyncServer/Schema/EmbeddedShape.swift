import StrataSchema

/// The nested value an owner's property holds for its embedded objects (docs/SYNC.md, "Embedded objects"): an
/// embedded object is a JSON object of its properties (the key excluded: it has none), nested embedded objects
/// as nested values; a link to one is the object or null, a list of them an array, a map of them an object of
/// objects (or nulls). The server keeps the whole value in one `jsonb` column of the owner's table and checks its
/// shape and every field's type here.
struct EmbeddedShape: Sendable, Hashable {
    /// How the owner's property holds the embedded objects.
    enum Holder: Sendable, Hashable {
        /// A link: the object, or null.
        case single
        /// A list: an array of objects.
        case list
        /// A map: an object whose values are objects or null.
        case map
    }

    /// What one property of the embedded model holds.
    enum Field: Sendable, Hashable {
        /// A scalar (or a link to a top-level model: its key).
        case value(ColumnType)
        /// A list or set of scalars: an array.
        case list(ColumnType)
        /// A map of scalars: an object.
        case map(ColumnType)
        /// Embedded objects of another embedded model.
        case nested(EmbeddedShape)
    }

    /// The embedded model's name.
    var model: String
    /// How the owner holds it.
    var holder: Holder
    /// The embedded model's properties, by name.
    var fields: [String: Field]

    /// The shape of `property` of a model when it links to an embedded model, else `nil`.
    /// - Parameters:
    ///   - definition: A model definition by name.
    ///   - keyType: The key column type of a top-level model, by name (links from embedded objects to them).
    static func of(
        _ property: PropertyDefinition, definition: (String) -> ModelDefinition?, keyType: (String) -> ColumnType?
    ) -> EmbeddedShape? {
        let holder: Holder
        switch property.type.unwrapped {
        case .link: holder = .single
        case .list: holder = .list
        case .map: holder = .map
        default: return nil
        }
        guard let name = property.type.linkedModel, let model = definition(name), model.isEmbedded else { return nil }
        var fields: [String: Field] = [:]
        for field in model.persistedProperties {
            if let nested = of(field, definition: definition, keyType: keyType) {
                fields[field.name] = .nested(nested)
                continue
            }
            switch field.type.unwrapped {
            case .list(let element), .set(let element):
                if let column = ColumnType.forProperty(element, keyType: keyType) {
                    fields[field.name] = .list(column)
                }
            case .map(let element):
                if let column = ColumnType.forProperty(element, keyType: keyType) {
                    fields[field.name] = .map(column)
                }
            default:
                if let column = ColumnType.forProperty(field.type, keyType: keyType) {
                    fields[field.name] = .value(column)
                }
            }
        }
        return EmbeddedShape(model: name, holder: holder, fields: fields)
    }

    /// Checks a non-null value of the owner's property.
    /// - Throws: `SyncError.badRequest` naming the place in the value that does not fit.
    func check(_ value: SyncValue, context: String) throws {
        switch (holder, value) {
        case (.single, _):
            try checkObject(value, context: context)
        case (.list, .array(let objects)):
            for (index, object) in objects.enumerated() { try checkObject(object, context: "\(context)[\(index)]") }
        case (.map, .object(let entries)):
            for (key, object) in entries where object != .null {
                try checkObject(object, context: "\(context)[\(key)]")
            }
        case (.list, _):
            throw SyncError(.badRequest, "\(context) is a list of embedded \(model); \(value.kindName) was given")
        case (.map, _):
            throw SyncError(.badRequest, "\(context) is a map of embedded \(model); \(value.kindName) was given")
        }
    }

    private func checkObject(_ value: SyncValue, context: String) throws {
        guard case .object(let values) = value else {
            throw SyncError(
                .badRequest, "\(context) is an embedded \(model) (an object); \(value.kindName) was given")
        }
        for (name, field) in values.sorted(by: { $0.key < $1.key }) {
            guard let kind = fields[name] else {
                throw SyncError(.badRequest, "\(context): the embedded model \(model) has no property \(name)")
            }
            let place = "\(context).\(name)"
            switch (kind, field) {
            case (.value(let type), _):
                _ = try type.parameter(field, context: place)
            case (.list(let type), .array(let elements)):
                for element in elements { _ = try type.parameter(element, context: "an element of \(place)") }
            case (.map(let type), .object(let entries)):
                for (_, element) in entries { _ = try type.parameter(element, context: "a value of \(place)") }
            case (.nested(let shape), .null) where shape.holder == .single:
                continue
            case (.nested(let shape), _):
                try shape.check(field, context: place)
            case (.list, _), (.map, _):
                throw SyncError(.badRequest, "\(place) is a collection; \(field.kindName) was given")
            }
        }
    }
}
