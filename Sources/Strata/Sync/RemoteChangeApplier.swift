import StrataSchema
import StrataStorage

/// Applies downloaded changes of other clients to the local objects under the conflict rules of docs/SYNC.md, the
/// same decisions the server makes (`ChangeApplier` in `Server/`):
///
/// - a `create` of a deleted object starts a new, empty life only when it is later than the delete; of a live
///   object it merges property by property, and an earlier create moves the life's start back;
/// - every other change of a deleted object, or older than the current life's create, is dropped;
/// - scalar properties, set elements and map keys are last-writer-wins registers;
/// - list elements are inserted once by id, removed for good, and kept in position-then-id order.
///
/// Runs inside the session's write transaction for one downloaded page; nothing it writes enters the outbox.
struct RemoteChangeApplier {
    let context: SyncContext

    init(context: SyncContext) { self.context = context }

    /// Applies `change` if the rules let it win.
    /// - Throws: `StrataError.invalidArgument` when a value does not fit the local schema; storage errors.
    func apply(_ change: SyncChange) throws {
        guard let model = context.schema.model(named: change.model), !model.isEmbedded else { return }
        let table = try context.table(model)
        let stored = try state(model, change.object)
        if change.op == .create {
            try applyCreate(change, model: model, table: table, object: stored)
            return
        }
        guard var object = stored, object.deleted == nil, !change.hlc.syncPrecedes(object.created) else { return }
        let local = try context.localKey(of: change.object, model: model)
        switch change.op {
        case .create:
            return
        case .delete:
            object.deleted = change.hlc
            object.local = nil
            if let local {
                try table.delete(local)
                if model.primaryKeyColumn == nil { try context.tables.setSyncID(nil, model: model.name, local: local) }
            }
        case .set:
            guard let local, let name = change.property, let index = model.column(named: name),
                ObjectSyncState.wins(change.hlc, over: object.fields[name])
            else { break }
            object.fields[name] = change.hlc
            let property = model.description.properties[index]
            try table.set(
                local, column: model.columns[index],
                to: try context.storage(change.value ?? .null, type: property.type, context: "\(model.name).\(name)"))
        case .listInsert, .listRemove:
            guard let local else { break }
            try applyList(change, model: model, table: table, local: local, object: &object)
        case .setAdd, .setRemove:
            guard let local, let name = change.property, let index = model.column(named: name) else { break }
            let value = change.value ?? .null
            let text = value.canonicalText
            var registers = object.sets[name] ?? [:]
            guard ObjectSyncState.wins(change.hlc, over: registers[text]?.hlc) else { break }
            registers[text] = .init(hlc: change.hlc, removed: change.op == .setRemove)
            object.sets[name] = registers
            let element = try context.storage(
                value, type: model.description.properties[index].type.collectionElement ?? .any,
                context: "an element of \(model.name).\(name)")
            if change.op == .setAdd {
                _ = try table.setInsert(local, column: model.columns[index], element)
            } else {
                _ = try table.setRemove(local, column: model.columns[index], element)
            }
        case .mapSet, .mapRemove:
            guard let local, let name = change.property, let index = model.column(named: name),
                let mapKey = change.key
            else { break }
            var registers = object.maps[name] ?? [:]
            guard ObjectSyncState.wins(change.hlc, over: registers[mapKey]?.hlc) else { break }
            registers[mapKey] = .init(hlc: change.hlc, removed: change.op == .mapRemove)
            object.maps[name] = registers
            if change.op == .mapSet {
                let value = try context.storage(
                    change.value ?? .null, type: model.description.properties[index].type.collectionElement ?? .any,
                    context: "an element of \(model.name).\(name)")
                try table.mapSet(local, column: model.columns[index], for: mapKey, to: value)
            } else {
                _ = try table.mapRemove(local, column: model.columns[index], for: mapKey)
            }
        }
        try remember(object, model, change.object)
    }

    private func applyCreate(
        _ change: SyncChange, model: ModelBinding, table: Table, object existing: ObjectSyncState?
    ) throws {
        var object: ObjectSyncState
        var local: ObjectKey?
        if var existing, existing.deleted == nil {
            if change.hlc.syncPrecedes(existing.created) { existing.created = change.hlc }
            object = existing
            local = try context.localKey(of: change.object, model: model)
        } else {
            if let deleted = existing?.deleted, !deleted.syncPrecedes(change.hlc) { return }
            object = ObjectSyncState(created: change.hlc)
        }
        if local == nil {
            var values: [(ColumnKey, StorageValue)] = []
            if let column = model.primaryKeyColumn {
                let property = model.description.properties[column]
                values.append(
                    (model.columns[column],
                    try context.storage(change.object, type: property.type, context: "\(model.name)'s key")))
            }
            let key = try table.insert(values)
            if model.primaryKeyColumn == nil, case .string(let id) = change.object {
                try context.tables.setSyncID(id, model: model.name, local: key)
                object.local = key.rawValue
            }
            local = key
        }
        guard let local else { return }
        if case .object(let values) = change.value ?? .null {
            for (name, value) in values.sorted(by: { $0.key < $1.key }) {
                guard let index = model.column(named: name), index != model.primaryKeyColumn,
                    ObjectSyncState.wins(change.hlc, over: object.fields[name])
                else { continue }
                object.fields[name] = change.hlc
                let property = model.description.properties[index]
                try table.set(
                    local, column: model.columns[index],
                    to: try context.storage(value, type: property.type, context: "\(model.name).\(name)"))
            }
        }
        try remember(object, model, change.object)
    }

    /// Inserts or removes one list element, then writes the local list from the element records.
    private func applyList(
        _ change: SyncChange, model: ModelBinding, table: Table, local: ObjectKey, object: inout ObjectSyncState
    ) throws {
        guard let name = change.property, let index = model.column(named: name), let element = change.element else {
            return
        }
        var list = object.lists[name] ?? ObjectSyncState.ListState()
        if change.op == .listInsert {
            guard !list.removed.contains(element), !list.slots.contains(where: { $0.id == element }) else { return }
            let slot = ObjectSyncState.Slot(id: element, position: change.position ?? "", value: change.value ?? .null)
            let at = list.slots.firstIndex { slot.precedes($0) } ?? list.slots.count
            list.slots.insert(slot, at: at)
        } else {
            list.removed.insert(element)
            guard let at = list.slots.firstIndex(where: { $0.id == element }) else {
                object.lists[name] = list
                return
            }
            list.slots.remove(at: at)
        }
        object.lists[name] = list
        let type = model.description.properties[index].type.collectionElement ?? .any
        var values: [StorageValue] = []
        for slot in list.slots {
            let value = try context.storage(slot.value, type: type, context: "an element of \(model.name).\(name)")
            // A link whose object is not here (deleted) is left out, as a deleted object leaves a list.
            if case .link = type.unwrapped, value == .null { continue }
            values.append(value)
        }
        try table.set(local, column: model.columns[index], to: .list(values))
    }

    // MARK: States

    private func state(_ model: ModelBinding, _ key: SyncValue) throws -> ObjectSyncState? {
        try context.tables.state(model: model.name, key: key)
    }

    /// Records the object's state at once: later changes of the page find the object through it.
    private func remember(_ object: ObjectSyncState, _ model: ModelBinding, _ key: SyncValue) throws {
        try context.tables.setState(object, model: model.name, key: key)
    }
}
