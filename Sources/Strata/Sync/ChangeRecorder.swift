import Foundation
import StrataSchema
import StrataStorage
internal import StrataSyncWire

/// Turns one local write transaction into outbox entries (docs/SYNC.md, "The client"): it takes the objects the
/// write inserted, changed and deleted from what the write noted as it made them (``SyncBase``, over the write's
/// ``WriteChangeLog``), maps each to its changes, and records, in this order, the deletes, the creates (with their
/// scalar values), the links and collection elements of created objects (so that every object a change names is
/// created before), and the updates of other objects: `set` per changed property, and element operations for
/// lists, sets and maps; then the owners of embedded objects changed in place. A property holding embedded objects
/// is recorded as one `set` of its whole nested value (docs/SYNC.md, "Embedded objects"), once per write, whether
/// its own column or an embedded object inside changed. Every change gets the next change number and a fresh
/// clock reading, all in the same transaction as the app's changes. The recorder keeps only the local bookkeeping
/// of ``ObjectSyncState`` (list slots, the local key); the conflict state follows the server's order and is kept
/// by ``RemoteChangeApplier``.
struct ChangeRecorder {
    let context: SyncContext
    /// The version the write began from.
    let base: SyncBase
    private(set) var state: SyncState
    /// The changes recorded, in outbox order.
    private(set) var changes: [SyncChange] = []
    /// Object states read or changed, by ``SyncTables/objectID(model:key:)``, with the row of `~sync objects` that
    /// holds each (`nil`: none yet) and the state as found, each found once per write: only a state that changed is
    /// written back.
    private var states: [String: (row: ObjectKey?, found: ObjectSyncState?, state: ObjectSyncState?)] = [:]
    /// The database's decoded outbox, which knows the objects whose `create` is still in the outbox.
    private let outbox: DecodedOutbox
    /// The client state as the write found it: only what changed is stored again.
    private let loadedState: SyncState
    /// The properties holding embedded objects whose value this write recorded already, as object id and name.
    private var embeddedRecorded: Set<String> = []

    init(context: SyncContext, base: SyncBase, state: SyncState, outbox: DecodedOutbox) {
        self.context = context
        self.base = base
        self.outbox = outbox
        self.state = state
        self.loadedState = state
    }

    private var catalog: Catalog { context.catalog }

    /// Records what changed since `base`, then writes the outbox entries, the object states and the client state.
    mutating func run() throws {
        var diffs: [(model: ModelBinding, table: Table, old: SyncBase.BaseTable?, changes: TableChanges)] = []
        for model in context.syncedModels {
            let table = try context.table(model)
            let changes = try base.changes(of: table)
            if !changes.isEmpty { diffs.append((model, table, base.table(table), changes)) }
        }
        let embeddedOwners = try ownersOfChangedEmbeddedObjects()
        guard !diffs.isEmpty || !embeddedOwners.isEmpty else { return }
        // Before any delete is recorded (which forgets the object's sync id): a set or map may name a deleted object.
        for diff in diffs { try base.rememberKeys(of: diff.changes.deletions, model: diff.model) }
        for diff in diffs {
            for key in diff.changes.deletions { try recordDelete(key, of: diff.model) }
        }
        var created: [(ModelBinding, ObjectKey, SyncValue)] = []
        for diff in diffs {
            for key in diff.changes.insertions {
                created.append((diff.model, key, try recordCreate(key, of: diff.model, in: diff.table)))
            }
        }
        for (model, key, syncKey) in created { try recordContents(key, syncKey, of: model) }
        for diff in diffs {
            for key in diff.changes.modifiedKeys {
                guard let old = diff.old, let columns = diff.changes.modifications[key] else { continue }
                try recordUpdate(key, columns: columns, of: diff.model, table: diff.table, old: old)
            }
        }
        for owner in embeddedOwners { try recordEmbeddedEdit(owner.local, of: owner.model, property: owner.property) }
        try write()
    }

    // MARK: Changes

    private mutating func append(
        _ op: SyncOperation, _ model: ModelBinding, _ key: SyncValue, property: String? = nil, value: SyncValue? = nil,
        element: String? = nil, position: String? = nil, mapKey: String? = nil, hlc: String? = nil
    ) -> String {
        let reading = hlc ?? state.clock.tick()
        changes.append(
            SyncChange(
                seq: state.nextSeq, hlc: reading, model: model.name, object: key, op: op, property: property,
                value: value, element: element, position: position, key: mapKey))
        state.nextSeq += 1
        return reading
    }

    /// The state of object `key`, or `nil` when the server does not know the object and will not from the outbox
    /// (it was made before sync was configured). An object created here whose `create` is still in the outbox has
    /// no row (``write()`` leaves an empty state unwritten): its state is an empty one.
    private mutating func loadState(_ model: ModelBinding, _ key: SyncValue) throws -> ObjectSyncState? {
        let id = SyncTables.objectID(model: model.name, key: key)
        if let cached = states[id] { return cached.state }
        let stored = try context.tables.stateEntry(id: id)
        var state = stored?.state
        if state == nil, try outbox.hasPendingCreate(of: id, in: context.tables) { state = ObjectSyncState() }
        states[id] = (stored?.row, state, state)
        return state
    }

    /// The state of object `key` as ``loadState(_:_:)`` found it, without asking the outbox: for a create, which
    /// needs no earlier knowledge of the object.
    private mutating func foundState(_ model: ModelBinding, _ key: SyncValue) throws -> ObjectSyncState? {
        let id = SyncTables.objectID(model: model.name, key: key)
        if let cached = states[id] { return cached.state }
        let stored = try context.tables.stateEntry(id: id)
        states[id] = (stored?.row, stored?.state, stored?.state)
        return stored?.state
    }

    /// Keeps `state` as object `key`'s, to be written at the end (into the row ``loadState(_:_:)`` found).
    private mutating func saveState(_ state: ObjectSyncState, _ model: ModelBinding, _ key: SyncValue) {
        let id = SyncTables.objectID(model: model.name, key: key)
        states[id] = (states[id]?.row, states[id]?.found, state)
    }

    private mutating func recordDelete(_ local: ObjectKey, of model: ModelBinding) throws {
        guard let key = try context.syncKey(of: local, model: model, in: base) else { return }
        if model.primaryKeyColumn == nil { try context.tables.setSyncID(nil, model: model.name, local: local) }
        // An object that never synced (made before sync was configured) is unknown to the server: nothing to send.
        guard var object = try loadState(model, key) else { return }
        _ = append(.delete, model, key)
        object.local = nil
        object.lists = [:]
        saveState(object, model, key)
    }

    /// Records the create of a new object with its scalar values (links and collections follow, once every new
    /// object exists); returns its key.
    private mutating func recordCreate(_ local: ObjectKey, of model: ModelBinding, in table: Table) throws -> SyncValue {
        let key: SyncValue
        if let existing = try context.syncKey(of: local, model: model, in: catalog) {
            key = existing
        } else {
            let id = UUID().uuidString.lowercased()
            try context.tables.setSyncID(id, model: model.name, local: local)
            key = .string(id)
        }
        var values: [String: SyncValue] = [:]
        for (index, property) in model.description.properties.enumerated()
        where index != model.primaryKeyColumn && isScalar(property.type) && property.type.linkedModel == nil {
            values[property.name] = try context.json(
                try table.value(local, column: model.columns[index]), type: property.type, in: catalog)
        }
        let hlc = state.clock.tick()
        // A new local object: its lists start empty here (the conflict state, if any, stays as the server ordered it).
        var object = try foundState(model, key) ?? ObjectSyncState()
        object.local = model.primaryKeyColumn == nil ? local.rawValue : nil
        object.lists = [:]
        _ = append(.create, model, key, value: .object(values), hlc: hlc)
        saveState(object, model, key)
        return key
    }

    /// Records the links and collection elements of an object just created.
    private mutating func recordContents(_ local: ObjectKey, _ key: SyncValue, of model: ModelBinding) throws {
        let table = try context.table(model)
        guard var object = try loadState(model, key) else { return }
        for (index, property) in model.description.properties.enumerated()
        where index != model.primaryKeyColumn && context.syncs(model, property: index) {
            let column = model.columns[index]
            if context.embeddedTarget(model, property: index) != nil {
                let value = try context.embeddedJSON(local, of: model, property: index, in: catalog)
                guard value != context.normalizedEmbedded(.null, of: model, property: index) else { continue }
                recordEmbedded(value, model, key, property: property.name)
            } else if isScalar(property.type) {
                guard property.type.linkedModel != nil else { continue }
                let value = try context.json(try table.value(local, column: column), type: property.type, in: catalog)
                guard value != .null else { continue }
                _ = append(.set, model, key, property: property.name, value: value)
            } else {
                try recordCollection(
                    property, column: column, local: local, key: key, model: model, old: nil, table: table,
                    object: &object)
            }
        }
        saveState(object, model, key)
    }

    private mutating func recordUpdate(
        _ local: ObjectKey, columns: Set<ColumnKey>, of model: ModelBinding, table: Table, old: SyncBase.BaseTable
    ) throws {
        guard let key = try context.syncKey(of: local, model: model, in: catalog) else { return }
        guard var object = try loadState(model, key) else {
            // Made before sync was configured: the server learns of it now, whole.
            let created = try recordCreate(local, of: model, in: table)
            try recordContents(local, created, of: model)
            return
        }
        for (index, property) in model.description.properties.enumerated()
        where columns.contains(model.columns[index]) && index != model.primaryKeyColumn
            && context.syncs(model, property: index)
        {
            let column = model.columns[index]
            if context.embeddedTarget(model, property: index) != nil {
                let value = try context.embeddedJSON(local, of: model, property: index, in: catalog)
                recordEmbedded(value, model, key, property: property.name)
            } else if isScalar(property.type) {
                let value = try context.json(try table.value(local, column: column), type: property.type, in: catalog)
                _ = append(.set, model, key, property: property.name, value: value)
            } else {
                try recordCollection(
                    property, column: column, local: local, key: key, model: model, old: old, table: table,
                    object: &object)
            }
        }
        saveState(object, model, key)
    }

    // MARK: Embedded objects

    /// Records a `set` of a property holding embedded objects, with its whole nested value, once per write.
    private mutating func recordEmbedded(
        _ value: SyncValue, _ model: ModelBinding, _ key: SyncValue, property: String
    ) {
        guard embeddedRecorded.insert(SyncTables.objectID(model: model.name, key: key) + "\u{1F}" + property).inserted
        else { return }
        _ = append(.set, model, key, property: property, value: value)
    }

    /// The top-level objects, with the property, holding the embedded objects this write inserted or changed
    /// (an edit inside an embedded object changes its table only, not its owner's).
    private func ownersOfChangedEmbeddedObjects() throws -> [(model: ModelBinding, local: ObjectKey, property: Int)] {
        var owners: [(model: ModelBinding, local: ObjectKey, property: Int)] = []
        var seen: Set<String> = []
        for model in context.schema.models where model.isEmbedded {
            let changes = try base.changes(of: try context.table(model))
            for key in changes.insertions + changes.modifiedKeys {
                guard let owner = try context.embeddedOwner(of: key, model: model, in: catalog),
                    seen.insert("\(owner.model.index)/\(owner.local.rawValue)/\(owner.property)").inserted
                else { continue }
                owners.append(owner)
            }
        }
        return owners
    }

    /// Records the value of property `index` of `local` after an edit inside its embedded objects.
    private mutating func recordEmbeddedEdit(_ local: ObjectKey, of model: ModelBinding, property index: Int) throws {
        guard let key = try context.syncKey(of: local, model: model, in: catalog) else { return }
        guard try loadState(model, key) != nil else {
            // Made before sync was configured: the server learns of it now, whole.
            let created = try recordCreate(local, of: model, in: try context.table(model))
            try recordContents(local, created, of: model)
            return
        }
        let value = try context.embeddedJSON(local, of: model, property: index, in: catalog)
        recordEmbedded(value, model, key, property: model.description.properties[index].name)
    }

    // MARK: Collections

    private mutating func recordCollection(
        _ property: PropertyDefinition, column: ColumnKey, local: ObjectKey, key: SyncValue, model: ModelBinding,
        old: SyncBase.BaseTable?, table: Table, object: inout ObjectSyncState
    ) throws {
        guard let element = property.type.collectionElement else { return }
        let name = property.name
        switch property.type.unwrapped {
        case .list:
            let after = try table.list(local, column: column)
            let values = try after.map { try context.json($0, type: element, in: catalog) }
            var list = object.lists[name] ?? ObjectSyncState.ListState()
            let reordered = recordList(after: values, list: &list, model: model, key: key, property: name)
            if let reordered {
                try table.set(local, column: column, to: .list(reordered.map { after[$0] }))
            }
            // An empty list's bookkeeping is no bookkeeping: a new object with empty lists keeps an empty state.
            object.lists[name] = list.slots.isEmpty && list.removed.isEmpty ? nil : list
        case .set:
            let before = try old.map { try $0.setElements(local, column: column) } ?? []
            let after = try table.setElements(local, column: column)
            let oldValues = try Dictionary(
                before.map { let json = try context.json($0, type: element, in: base); return (json.canonicalText, json) },
                uniquingKeysWith: { first, _ in first })
            let newValues = try Dictionary(
                after.map { let json = try context.json($0, type: element, in: catalog); return (json.canonicalText, json) },
                uniquingKeysWith: { first, _ in first })
            for (text, value) in oldValues.sorted(by: { $0.key < $1.key }) where newValues[text] == nil {
                _ = append(.setRemove, model, key, property: name, value: value)
            }
            for (text, value) in newValues.sorted(by: { $0.key < $1.key }) where oldValues[text] == nil {
                _ = append(.setAdd, model, key, property: name, value: value)
            }
        case .map:
            let before = try old.map { try $0.mapEntries(local, column: column) } ?? [:]
            let after = try table.mapEntries(local, column: column)
            for mapKey in before.keys.sorted() where after[mapKey] == nil {
                _ = append(.mapRemove, model, key, property: name, mapKey: mapKey)
            }
            for mapKey in after.keys.sorted() {
                guard let value = after[mapKey] else { continue }
                let json = try context.json(value, type: element, in: catalog)
                if let previous = before[mapKey], try context.json(previous, type: element, in: base) == json { continue }
                _ = append(.mapSet, model, key, property: name, value: json, mapKey: mapKey)
            }
        default:
            return
        }
    }

    /// Records the difference between a list's recorded elements and its elements after the write as removes and
    /// inserts of the elements between their common prefix and suffix; returns the new order of `after`'s elements
    /// when the positions chosen do not keep the local order (two equal positions around the insert), else `nil`.
    private mutating func recordList(
        after: [SyncValue], list: inout ObjectSyncState.ListState, model: ModelBinding, key: SyncValue,
        property: String
    ) -> [Int]? {
        let before = list.slots.map(\.value)
        var prefix = 0
        while prefix < before.count, prefix < after.count, before[prefix] == after[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < before.count - prefix, suffix < after.count - prefix,
            before[before.count - 1 - suffix] == after[after.count - 1 - suffix]
        {
            suffix += 1
        }
        for slot in list.slots[prefix..<(before.count - suffix)] {
            _ = append(.listRemove, model, key, property: property, element: slot.id)
            list.removed.insert(slot.id)
        }
        var lower = prefix > 0 ? list.slots[prefix - 1].position : nil
        let upper = suffix > 0 ? list.slots[before.count - suffix].position : nil
        var inserted: [ObjectSyncState.Slot] = []
        for value in after[prefix..<(after.count - suffix)] {
            let position = PositionIdentifier.between(lower, upper) ?? PositionIdentifier.between(lower, nil) ?? "z"
            let hlc = state.clock.tick()
            _ = append(
                .listInsert, model, key, property: property, value: value, element: hlc, position: position, hlc: hlc)
            inserted.append(.init(id: hlc, position: position, value: value))
            lower = position
        }
        list.slots = Array(list.slots[..<prefix]) + inserted + Array(list.slots[(before.count - suffix)...])
        let order = list.slots.indices.sorted { list.slots[$0].precedes(list.slots[$1]) }
        guard order != Array(list.slots.indices) else { return nil }
        list.slots = order.map { list.slots[$0] }
        return order
    }

    // MARK: Writing

    private func write() throws {
        for change in changes { try context.tables.append(change) }
        for (id, entry) in states {
            guard let object = entry.state, object != entry.found else { continue }
            // An object with no row and an empty state (created here, or known from its `create` in the outbox) is
            // known by that `create` until the download brings it back, and the applier writes its row then: one
            // table fewer written by the commit that creates it.
            if entry.row == nil, object == ObjectSyncState() { continue }
            try context.tables.setState(object, id: id, row: entry.row)
        }
        try state.store(in: catalog, over: loadedState)
    }

    private func isScalar(_ type: PropertyType) -> Bool {
        switch type.unwrapped {
        case .list, .set, .map, .linkingObjects: return false
        default: return true
        }
    }
}
