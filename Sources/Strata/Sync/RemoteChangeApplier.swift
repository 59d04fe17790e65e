import StrataSchema
import StrataStorage
internal import StrataSyncWire

/// Applies a downloaded page of the server's change log (docs/SYNC.md, "The client"): every entry, the client's
/// own included, goes into its object's confirmed state in the server's order with the server's rules
/// (``ObjectSyncState/apply(_:)``), so the confirmed state equals the server's whatever order the client made its
/// own changes in. Then each object the page touched is written locally as its confirmed state with the client's
/// own changes still waiting to come back (``pending``) applied on top, in their order and with the same rules:
/// what the server will hold once they arrive. Runs inside the page's write transaction; nothing it writes enters
/// the outbox.
struct RemoteChangeApplier {
    let context: SyncContext
    /// The client's own changes not yet seen in the log, by ``SyncTables/objectID(model:key:)``.
    private var pending: [String: [SyncChange]]
    /// The objects the page touched, with their states and the rows of `~sync objects` holding them (`nil`: none
    /// yet), each found once per page.
    private var touched: [String: Touched] = [:]

    /// An object the page touched.
    private struct Touched {
        let model: ModelBinding
        let key: SyncValue
        var row: ObjectKey?
        var state: ObjectSyncState
    }

    init(context: SyncContext, pending: [SyncChange]) {
        self.context = context
        self.pending = Dictionary(grouping: pending) { SyncTables.objectID(model: $0.model, key: $0.object) }
    }

    /// Applies one entry of the log to its object's confirmed state.
    mutating func apply(_ change: SyncChange, isOwn: Bool) throws {
        let id = SyncTables.objectID(model: change.model, key: change.object)
        if isOwn {
            // Back from the server: from here on it is part of the log, no longer waiting.
            pending[id]?.removeAll { $0.seq == change.seq }
        }
        guard let model = context.schema.model(named: change.model), !model.isEmbedded else { return }
        var entry: Touched
        if let known = touched[id] {
            entry = known
        } else {
            let stored = try context.tables.stateEntry(id: id)
            entry = Touched(
                model: model, key: change.object, row: stored?.row, state: stored?.state ?? ObjectSyncState())
        }
        entry.state.apply(change)
        touched[id] = entry
    }

    /// Writes every touched object: its confirmed state with the waiting own changes on top. Objects are created
    /// and deleted first, then their values written, so that links find the objects the page created.
    func finish() throws {
        var writes: [(id: String, entry: Touched, projected: ObjectSyncState, local: ObjectKey?)] = []
        for (id, entry) in touched.sorted(by: { $0.key < $1.key }) {
            var entry = entry
            var projected = entry.state
            for change in (pending[id] ?? []).sorted(by: { $0.seq < $1.seq }) { projected.apply(change) }
            let local = try place(projected, id: id, entry: &entry)
            writes.append((id, entry, projected, local))
        }
        for write in writes {
            var state = write.entry.state
            state.local = nil
            state.lists = [:]
            if let local = write.local {
                try self.write(write.projected, into: &state, model: write.entry.model, local: local)
            }
            try context.tables.setState(state, id: write.id, row: write.entry.row)
        }
    }

    /// Creates the local object when `projected` lives and it does not exist here, deletes it when `projected`
    /// does not live; returns the local object's key while it lives. An object created here without a primary key
    /// gets its state row at once (it is found by its sync id from then on), which `entry` then names.
    private func place(_ projected: ObjectSyncState, id: String, entry: inout Touched) throws -> ObjectKey? {
        let model = entry.model
        let key = entry.key
        let table = try context.table(model)
        let local = try context.localKey(of: key, model: model)
        guard projected.isAlive else {
            if let local {
                try table.delete(local)
                if model.primaryKeyColumn == nil { try context.tables.setSyncID(nil, model: model.name, local: local) }
            }
            return nil
        }
        if let local { return local }
        var row: [(ColumnKey, StorageValue)] = []
        if let column = model.primaryKeyColumn {
            let property = model.description.properties[column]
            row.append(
                (model.columns[column], try context.storage(key, type: property.type, context: "\(model.name)'s key")))
        }
        let inserted = try table.insert(row)
        if model.primaryKeyColumn == nil, case .string(let syncID) = key {
            try context.tables.setSyncID(syncID, model: model.name, local: inserted)
            // Found by its sync id from here on (the state is written at the end).
            var state = entry.state
            state.local = inserted.rawValue
            entry.row = try context.tables.setState(state, id: id, row: entry.row)
        }
        return inserted
    }

    /// Writes the values of `projected` into local object `local`, and records the local lists in `state`.
    private func write(
        _ projected: ObjectSyncState, into state: inout ObjectSyncState, model: ModelBinding, local: ObjectKey
    ) throws {
        let table = try context.table(model)
        state.local = model.primaryKeyColumn == nil ? local.rawValue : nil
        state.lists = [:]
        for (index, property) in model.description.properties.enumerated()
        where index != model.primaryKeyColumn && context.syncs(model, property: index) {
            let column = model.columns[index]
            let name = property.name
            if context.embeddedTarget(model, property: index) != nil {
                // The whole nested value is one register: the embedded objects are replaced when it differs.
                let register = projected.fields[name]?.value ?? .null
                let wanted = context.normalizedEmbedded(register, of: model, property: index)
                let stored = try context.embeddedJSON(local, of: model, property: index, in: context.catalog)
                if stored.canonicalText != wanted.canonicalText {
                    try context.setEmbedded(wanted, into: local, of: model, property: index)
                }
                continue
            }
            let element = property.type.collectionElement ?? .any
            let wanted: StorageValue
            switch property.type.unwrapped {
            case .list:
                let list = projected.serverLists[name] ?? ObjectSyncState.ListState()
                state.lists[name] = list
                var values: [StorageValue] = []
                for slot in list.slots {
                    let value = try context.storage(slot.value, type: element, context: "an element of \(model.name).\(name)")
                    // A link whose object is not here (deleted) is left out, as a deleted object leaves a list.
                    if case .link = element.unwrapped, value == .null { continue }
                    values.append(value)
                }
                wanted = .list(values)
            case .set:
                var values: [StorageValue] = []
                for (_, register) in (projected.sets[name] ?? [:]).sorted(by: { $0.key < $1.key }) where !register.removed {
                    let value = try context.storage(
                        register.value ?? .null, type: element, context: "an element of \(model.name).\(name)")
                    if case .link = element.unwrapped, value == .null { continue }
                    values.append(value)
                }
                wanted = .list(values)
            case .map:
                var entries: [String: StorageValue] = [:]
                for (mapKey, register) in projected.maps[name] ?? [:] where !register.removed {
                    entries[mapKey] = try context.storage(
                        register.value ?? .null, type: element, context: "an element of \(model.name).\(name)")
                }
                wanted = .map(entries)
            case .linkingObjects:
                continue
            default:
                guard let register = projected.fields[name] else {
                    // Never written on the server: a link (creates carry every other property) stays nil.
                    if property.type.linkedModel != nil, try table.value(local, column: column) != .null {
                        try table.set(local, column: column, to: .null)
                    }
                    continue
                }
                wanted = try context.storage(register.value ?? .null, type: property.type, context: "\(model.name).\(name)")
            }
            if !same(try table.value(local, column: column), wanted, property.type) {
                try table.set(local, column: column, to: wanted)
            }
        }
    }

    /// Whether a stored value equals the wanted one (sets compare as sets, whatever their stored order).
    private func same(_ stored: StorageValue, _ wanted: StorageValue, _ type: PropertyType) -> Bool {
        if case .set = type.unwrapped, case .list(let a) = stored, case .list(let b) = wanted {
            return Set(a) == Set(b) && a.count == b.count
        }
        return stored == wanted
    }
}
