/// Decides what an upload batch does under the conflict rules of docs/SYNC.md, in memory, change by change in
/// batch order, from the object states and clock readings read once for the whole batch:
///
/// - each scalar property, set element and map key keeps the clock reading of its last write in
///   `strata_sync_versions`; a write with an older reading loses (last writer wins, ties broken by client id,
///   which is the last part of the reading);
/// - a delete ends the object; updates to a deleted object are dropped whatever their clock, and only a `create`
///   with a later reading starts a new life;
/// - list elements are inserted once by element id and removed for good; they sort by position identifier, then
///   element id, so concurrent inserts both survive in the same order everywhere.
///
/// The upload holds a lock on every object of the batch (`UploadTransaction`) from before the reads until it
/// commits, so what was read stays true while the planner decides, whichever server applies the other uploads.
struct BatchPlanner {
    /// Who writes, for the rules.
    let authorizer: WriteAuthorizer
    /// The plan of every object of the batch, by `ObjectPlan.id(model:key:)`.
    private(set) var plans: [String: ObjectPlan]

    /// A planner over the objects' stored states and readings.
    init(authorizer: WriteAuthorizer, plans: [String: ObjectPlan]) {
        self.authorizer = authorizer
        self.plans = plans
    }

    /// The clock-reading fields `change` reads: a create's and a set's properties, a collection element's field.
    static func fields(of change: ValidatedChange) -> [String] {
        let property = change.change.property ?? ""
        switch change.change.op {
        case .create, .set: return change.values.map(\.property)
        case .delete: return []
        case .listInsert, .listRemove: return [property + "#" + (change.change.element ?? "")]
        case .setAdd, .setRemove: return [property + "[" + (change.change.value?.canonicalText ?? "null") + "]"]
        case .mapSet, .mapRemove: return [property + "{" + (change.change.key ?? "") + "}"]
        }
    }

    /// Checks `change` against the rules and decides what it does; returns the owner the change log records.
    /// - Throws: `SyncError.forbidden` when the rules refuse it, `SyncError.badRequest` for an update of an object
    ///   that was never created.
    mutating func apply(_ change: ValidatedChange) throws -> String? {
        let id = ObjectPlan.id(model: change.table.model, key: change.key)
        var plan = plans[id] ?? ObjectPlan(table: change.table, key: change.key, state: nil)
        let owner = try authorizer.authorize(change, state: plan.state)
        try Self.decide(change, owner: owner, plan: &plan)
        plans[id] = plan
        return owner
    }

    private static func decide(_ change: ValidatedChange, owner: String?, plan: inout ObjectPlan) throws {
        let hlc = change.hlc.description
        let op = change.change.op
        if op == .create {
            if let state = plan.state {
                if let deleted = state.deleted {
                    guard precedes(deleted, hlc) else { return }
                    // A new life: the old life's readings go, so its writes start fresh.
                    plan.state = ObjectState(ownerID: owner, created: hlc, deleted: nil)
                    plan.stateChanged = true
                    plan.versions = [:]
                    plan.changedFields = []
                    plan.versionsCleared = true
                } else if precedes(hlc, state.created) {
                    // Concurrent creates of one key merge property by property, whichever arrives first: the
                    // life starts at the earliest.
                    plan.state?.created = hlc
                    plan.stateChanged = true
                }
            } else {
                plan.state = ObjectState(ownerID: owner, created: hlc, deleted: nil)
                plan.stateChanged = true
            }
            plan.ensureRow = true
            for value in change.values { setScalar(value, hlc: hlc, plan: &plan) }
            return
        }
        guard let state = plan.state else {
            throw SyncError(
                .badRequest, "\(change.label): the object does not exist; an object's first change is 'create'")
        }
        // Delete wins: nothing changes a deleted object but a later create; an older life's changes are dropped.
        guard state.deleted == nil, !precedes(hlc, state.created) else { return }
        switch op {
        case .create:
            return
        case .delete:
            plan.state?.deleted = hlc
            plan.stateChanged = true
            plan.rowCleared = true
            plan.ensureRow = false
            plan.columns = [:]
            plan.elements = [:]
        case .set:
            for value in change.values { setScalar(value, hlc: hlc, plan: &plan) }
        case .listInsert, .listRemove, .setAdd, .setRemove, .mapSet, .mapRemove:
            applyToCollection(change, hlc: hlc, plan: &plan)
        }
    }

    /// Whether reading `a` is older than `b` (byte order, as the wire form sorts).
    private static func precedes(_ a: String, _ b: String) -> Bool { a.utf8.lexicographicallyPrecedes(b.utf8) }

    /// Records `hlc` for `field` if it is later than the recorded one; returns whether it was.
    private static func wins(_ field: String, hlc: String, removed: Bool, plan: inout ObjectPlan) -> Bool {
        if let current = plan.versions[field], !precedes(current.hlc, hlc) { return false }
        plan.versions[field] = ObjectPlan.Version(hlc: hlc, removed: removed)
        plan.changedFields.insert(field)
        return true
    }

    private static func setScalar(
        _ value: (property: String, type: ColumnType, parameter: String?), hlc: String, plan: inout ObjectPlan
    ) {
        guard wins(value.property, hlc: hlc, removed: false, plan: &plan) else { return }
        plan.columns[value.property] = (value.type, value.parameter)
    }

    private static func applyToCollection(_ change: ValidatedChange, hlc: String, plan: inout ObjectPlan) {
        guard let collection = change.collection, let field = fields(of: change).first else { return }
        let property = collection.property
        switch change.change.op {
        case .listInsert:
            // Inserted once: a second insert of the element, or one after its removal, records nothing.
            guard plan.versions[field] == nil else { return }
            plan.versions[field] = ObjectPlan.Version(hlc: hlc, removed: false)
            plan.changedFields.insert(field)
            plan.elements[property, default: [:]][change.change.element ?? ""] = .put(
                position: change.change.position, value: change.elementParameter)
        case .listRemove:
            plan.versions[field] = ObjectPlan.Version(hlc: plan.versions[field]?.hlc ?? hlc, removed: true)
            plan.changedFields.insert(field)
            plan.elements[property, default: [:]][change.change.element ?? ""] = .remove
        case .setAdd, .setRemove:
            let removed = change.change.op == .setRemove
            guard wins(field, hlc: hlc, removed: removed, plan: &plan) else { return }
            let element = change.change.value?.canonicalText ?? "null"
            plan.elements[property, default: [:]][element] =
                removed ? .remove : .put(position: nil, value: change.elementParameter)
        case .mapSet, .mapRemove:
            let removed = change.change.op == .mapRemove
            guard wins(field, hlc: hlc, removed: removed, plan: &plan) else { return }
            plan.elements[property, default: [:]][change.change.key ?? ""] =
                removed ? .remove : .put(position: nil, value: change.elementParameter)
        case .create, .set, .delete:
            return
        }
    }
}
