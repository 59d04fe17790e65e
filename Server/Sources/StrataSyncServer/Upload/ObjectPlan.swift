/// What one upload batch does to one object, decided in memory while the upload holds the object's lock
/// (`BatchPlanner`), then written with a few statements for the whole batch (`BatchWriter`).
struct ObjectPlan {
    /// The winning clock reading of one property, set element, map key or list element.
    struct Version: Hashable {
        /// The reading.
        var hlc: String
        /// Whether the element or entry is removed.
        var removed: Bool
    }

    /// What happens to one element of a list, set or map.
    enum ElementWrite: Hashable {
        /// The element (or map entry) goes.
        case remove
        /// The element is inserted, or the map entry set: a list element's position, and the value's parameter.
        case put(position: String?, value: String?)
    }

    /// The model's table.
    let table: ModelTable
    /// The key column's parameter.
    let key: String
    /// The object's state: as read, then as the batch leaves it.
    var state: ObjectState?
    /// Whether `state` differs from what `strata_sync_objects` holds.
    var stateChanged = false
    /// The clock readings the batch needs (read before, then won by the batch), by field.
    var versions: [String: Version] = [:]
    /// The fields whose reading the batch wins, to write.
    var changedFields: Set<String> = []
    /// Whether the object's readings are all dropped first (a create after a delete starts a new life).
    var versionsCleared = false
    /// Whether the object's row and its collection rows are deleted first (a delete in the batch).
    var rowCleared = false
    /// Whether the row is inserted if missing (a create in the batch after the last delete).
    var ensureRow = false
    /// The scalar columns to write, by property: their type and parameter.
    var columns: [String: (type: ColumnType, parameter: String?)] = [:]
    /// The elements to write, by collection property, then by element id, set element text or map key.
    var elements: [String: [String: ElementWrite]] = [:]

    /// Creates the plan of an object with its stored state.
    init(table: ModelTable, key: String, state: ObjectState?) {
        self.table = table
        self.key = key
        self.state = state
    }

    /// Whether the object lives once the batch is applied.
    var isAlive: Bool { state != nil && state?.deleted == nil }

    /// The identity of an object across the batch: model and key.
    static func id(model: String, key: String) -> String { model + "\u{1F}" + key }
}
