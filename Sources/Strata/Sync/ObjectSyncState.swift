internal import StrataSyncWire

/// What a client keeps per synced object (docs/FILE-FORMAT.md, "Sync metadata"):
///
/// - the *confirmed* state: the object as the server's log makes it, every downloaded change (the client's own
///   included) applied in the server's order with the server's rules (``apply(_:)``): the readings of the create
///   that started the object's life and of the delete that ended it, and the winning reading and value of every
///   property, set element, map key and list element;
/// - the local bookkeeping: the local object key (models without a primary key) and the local lists' elements,
///   with the ids and positions the next local change is recorded against.
///
/// The local object is the confirmed state with the client's own changes still waiting to come back applied on
/// top (``RemoteChangeApplier``), which is what the server will hold once they arrive.
struct ObjectSyncState: Codable, Hashable, Sendable {
    /// A last-writer-wins register: a property, set element or map key.
    struct Register: Codable, Hashable, Sendable {
        var hlc: String
        var removed: Bool
        /// The value (a property's or map entry's; a set element's is its key).
        var value: SyncValue?
    }

    /// A list element: its id, position identifier and value.
    struct Slot: Codable, Hashable, Sendable {
        var id: String
        var position: String
        var value: SyncValue

        /// Elements sort by position, then id, byte by byte.
        func precedes(_ other: Slot) -> Bool {
            position == other.position ? id.syncPrecedes(other.id) : position.syncPrecedes(other.position)
        }
    }

    /// A list's elements in order, and the ids of removed elements (removed for good).
    struct ListState: Codable, Hashable, Sendable {
        var slots: [Slot] = []
        var removed: Set<String> = []
    }

    /// The reading of the create that started the current life, as the server decided; `nil` until the server's
    /// log shows a create.
    var created: String?
    /// The reading of the delete that ended it, if the object is deleted.
    var deleted: String?
    /// The winning write of each scalar property.
    var fields: [String: Register] = [:]
    /// Set elements (by canonical JSON) per property.
    var sets: [String: [String: Register]] = [:]
    /// Map keys per property.
    var maps: [String: [String: Register]] = [:]
    /// The server's lists per property.
    var serverLists: [String: ListState] = [:]
    /// The local object key, for a model without a primary key (its objects are found by sync id).
    var local: Int64?
    /// The local lists per property (what the next local change is compared with).
    var lists: [String: ListState] = [:]

    /// A state the server has not shown yet.
    init() {}

    /// Whether the object lives in this state.
    var isAlive: Bool { created != nil && deleted == nil }

    /// Whether `hlc` wins over the reading `current` (none: it wins).
    static func wins(_ hlc: String, over current: String?) -> Bool {
        guard let current else { return true }
        return current.syncPrecedes(hlc)
    }

    /// Applies `change` with the server's rules (`ChangeApplier` in `Server/`); returns whether it changed
    /// anything.
    @discardableResult
    mutating func apply(_ change: SyncChange) -> Bool {
        let hlc = change.hlc
        if change.op == .create {
            if let created, deleted == nil {
                if hlc.syncPrecedes(created) { self.created = hlc }
            } else {
                if let deleted, !deleted.syncPrecedes(hlc) { return false }
                // A new life: nothing of the old one stays.
                created = hlc
                deleted = nil
                fields = [:]
                sets = [:]
                maps = [:]
                serverLists = [:]
            }
            if case .object(let values) = change.value ?? .null {
                for (name, value) in values where Self.wins(hlc, over: fields[name]?.hlc) {
                    fields[name] = Register(hlc: hlc, removed: false, value: value)
                }
            }
            return true
        }
        // Delete wins: nothing changes a deleted object but a later create; an older life's changes are dropped.
        guard let created, deleted == nil, !hlc.syncPrecedes(created) else { return false }
        let name = change.property ?? ""
        switch change.op {
        case .create:
            return false
        case .delete:
            deleted = hlc
        case .set:
            guard Self.wins(hlc, over: fields[name]?.hlc) else { return false }
            fields[name] = Register(hlc: hlc, removed: false, value: change.value ?? .null)
        case .listInsert:
            guard let element = change.element else { return false }
            var list = serverLists[name] ?? ListState()
            guard !list.removed.contains(element), !list.slots.contains(where: { $0.id == element }) else {
                return false
            }
            let slot = Slot(id: element, position: change.position ?? "", value: change.value ?? .null)
            list.slots.insert(slot, at: list.slots.firstIndex { slot.precedes($0) } ?? list.slots.count)
            serverLists[name] = list
        case .listRemove:
            guard let element = change.element else { return false }
            var list = serverLists[name] ?? ListState()
            list.removed.insert(element)
            list.slots.removeAll { $0.id == element }
            serverLists[name] = list
        case .setAdd, .setRemove:
            let text = (change.value ?? .null).canonicalText
            var registers = sets[name] ?? [:]
            guard Self.wins(hlc, over: registers[text]?.hlc) else { return false }
            registers[text] = Register(hlc: hlc, removed: change.op == .setRemove, value: change.value ?? .null)
            sets[name] = registers
        case .mapSet, .mapRemove:
            guard let key = change.key else { return false }
            var registers = maps[name] ?? [:]
            guard Self.wins(hlc, over: registers[key]?.hlc) else { return false }
            registers[key] = Register(hlc: hlc, removed: change.op == .mapRemove, value: change.value)
            maps[name] = registers
        }
        return true
    }
}
