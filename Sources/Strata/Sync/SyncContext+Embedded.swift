import StrataSchema
import StrataStorage
internal import StrataSyncWire

/// Embedded objects on the wire (docs/SYNC.md, "Embedded objects"): they have no identity of their own, so they
/// travel with their owner, as the nested value of the owner's property. A link to an embedded object is the object
/// (its properties by name, nested embedded objects nested in turn) or null; a list of them an array; a map of them
/// an object of objects (or nulls). The owner's property is then one last-writer-wins register, like a scalar:
/// a change anywhere inside records a `set` of the whole value, and applying one replaces the embedded objects.
extension SyncContext {
    /// The embedded model property `index` of `model` holds (a link, list or map of it), else `nil`.
    func embeddedTarget(_ model: ModelBinding, property index: Int) -> ModelBinding? {
        guard let target = model.linkTargets[index], target.isEmbedded else { return nil }
        switch model.description.properties[index].type.unwrapped {
        case .link, .list, .map: return target
        default: return nil
        }
    }

    /// The nested value of the embedded objects property `index` of object `local` of `model` holds, read in
    /// `snapshot`.
    func embeddedJSON(
        _ local: ObjectKey, of model: ModelBinding, property index: Int, in snapshot: Catalog
    ) throws -> SyncValue {
        guard let target = embeddedTarget(model, property: index), let table = snapshot.table(model.tableKey) else {
            return .null
        }
        let column = model.columns[index]
        switch model.description.properties[index].type.unwrapped {
        case .list:
            return .array(
                try table.list(local, column: column).compactMap { value in
                    guard case .link(let key) = value else { return nil }
                    return try embeddedObjectJSON(key, of: target, in: snapshot)
                })
        case .map:
            var entries: [String: SyncValue] = [:]
            for (key, value) in try table.mapEntries(local, column: column) {
                guard case .link(let object) = value else {
                    entries[key] = .null
                    continue
                }
                entries[key] = try embeddedObjectJSON(object, of: target, in: snapshot)
            }
            return .object(entries)
        default:
            guard case .link(let key) = try table.value(local, column: column) else { return .null }
            return try embeddedObjectJSON(key, of: target, in: snapshot)
        }
    }

    /// One embedded object as JSON: every property but linking objects, by name.
    private func embeddedObjectJSON(
        _ local: ObjectKey, of model: ModelBinding, in snapshot: Catalog
    ) throws -> SyncValue {
        guard let table = snapshot.table(model.tableKey) else { return .null }
        var values: [String: SyncValue] = [:]
        for (index, property) in model.description.properties.enumerated() {
            let column = model.columns[index]
            if embeddedTarget(model, property: index) != nil {
                values[property.name] = try embeddedJSON(local, of: model, property: index, in: snapshot)
                continue
            }
            switch property.type.unwrapped {
            case .linkingObjects:
                continue
            case .list(let element):
                values[property.name] = .array(
                    try table.list(local, column: column).map { try json($0, type: element, in: snapshot) })
            case .set(let element):
                // In one order on every device, whatever order the set stores its elements in.
                let elements = try table.setElements(local, column: column).map {
                    try json($0, type: element, in: snapshot)
                }
                values[property.name] = .array(elements.sorted { $0.canonicalText < $1.canonicalText })
            case .map(let element):
                values[property.name] = .object(
                    try table.mapEntries(local, column: column).mapValues { try json($0, type: element, in: snapshot) })
            default:
                let value = try table.value(local, column: column)
                values[property.name] = try json(value, type: property.type, in: snapshot)
            }
        }
        return .object(values)
    }

    /// `value` with null read as the property's empty value (no object, an empty list or map): what
    /// ``embeddedJSON(_:of:property:in:)`` reads back after ``setEmbedded(_:into:of:property:)`` wrote it.
    func normalizedEmbedded(_ value: SyncValue, of model: ModelBinding, property index: Int) -> SyncValue {
        guard value == .null else { return value }
        switch model.description.properties[index].type.unwrapped {
        case .list: return .array([])
        case .map: return .object([:])
        default: return .null
        }
    }

    /// Replaces the embedded objects property `index` of object `local` of `model` holds with new ones made from
    /// `value` (the ones it held are deleted by the engine, as any embedded object that loses its slot).
    /// - Throws: `StrataError.invalidArgument` when `value` does not fit the property.
    func setEmbedded(_ value: SyncValue, into local: ObjectKey, of model: ModelBinding, property index: Int) throws {
        guard let target = embeddedTarget(model, property: index) else { return }
        let property = model.description.properties[index]
        let place = "\(model.name).\(property.name)"
        let stored: StorageValue
        switch (property.type.unwrapped, value) {
        case (.list, .null):
            stored = .list([])
        case (.list, .array(let objects)):
            stored = .list(try objects.map { .link(try insertEmbedded($0, of: target, place: place)) })
        case (.map, .null):
            stored = .map([:])
        case (.map, .object(let entries)):
            var map: [String: StorageValue] = [:]
            for (key, object) in entries {
                map[key] = object == .null ? .null : .link(try insertEmbedded(object, of: target, place: place))
            }
            stored = .map(map)
        case (.link, .null):
            stored = .null
        case (.link, _):
            stored = .link(try insertEmbedded(value, of: target, place: place))
        default:
            throw StrataError.invalidArgument(
                "sync: \(place) holds embedded \(target.name) objects; the server sent "
                    + "\(value.canonicalText.prefix(60))")
        }
        try table(model).set(local, column: model.columns[index], to: stored)
    }

    /// Inserts a new embedded object of `model` made from `value` (its nested embedded objects too); returns it.
    private func insertEmbedded(_ value: SyncValue, of model: ModelBinding, place: String) throws -> ObjectKey {
        guard case .object(let values) = value else {
            throw StrataError.invalidArgument(
                "sync: \(place) holds embedded \(model.name) objects; the server sent \(value.kindName)")
        }
        let table = try self.table(model)
        let local = try table.insert()
        for (index, property) in model.description.properties.enumerated() {
            guard let json = values[property.name] else { continue }
            if embeddedTarget(model, property: index) != nil {
                try setEmbedded(json, into: local, of: model, property: index)
                continue
            }
            let context = "\(model.name).\(property.name) in \(place)"
            let stored: StorageValue
            switch (property.type.unwrapped, json) {
            case (.linkingObjects, _):
                continue
            case (.list(let element), .array(let elements)), (.set(let element), .array(let elements)):
                stored = .list(
                    try elements.compactMap { item in
                        let value = try storage(item, type: element, context: context)
                        // A link whose object is not here (deleted) is left out, as a deleted object leaves a list.
                        return value == .null && element.linkedModel != nil ? nil : value
                    })
            case (.map(let element), .object(let entries)):
                stored = .map(try entries.mapValues { try storage($0, type: element, context: context) })
            default:
                stored = try storage(json, type: property.type, context: context)
            }
            try table.set(local, column: model.columns[index], to: stored)
        }
        return local
    }

    /// The top-level object that holds embedded object `local` of `model` (through other embedded objects,
    /// maybe), with the property of it that does, read in `snapshot`; `nil` when no slot holds it.
    func embeddedOwner(
        of local: ObjectKey, model: ModelBinding, in snapshot: Catalog
    ) throws -> (model: ModelBinding, local: ObjectKey, property: Int)? {
        guard let table = snapshot.table(model.tableKey) else { return nil }
        for owner in schema.models {
            for (index, target) in owner.linkTargets
            where target === model && embeddedTarget(owner, property: index) != nil {
                let column = owner.columns[index]
                guard let holder = try table.backlinks(of: local, from: owner.tableKey, column: column).first else {
                    continue
                }
                if owner.isEmbedded { return try embeddedOwner(of: holder, model: owner, in: snapshot) }
                return (owner, holder, index)
            }
        }
        return nil
    }
}
