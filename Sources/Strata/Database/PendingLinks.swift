import StrataStorage

/// The link columns of an object whose row ``Database/add(_:update:)`` has stored, still to write: one frame of
/// the explicit stack that adds a graph of unmanaged objects without recursion.
///
/// The columns are written one at a time, in the model's order: ``targets`` are the objects the current column
/// links to (`nil` for an empty link or a list element that is no object), ``resolved`` their keys so far.
final class PendingLinks {
    let model: ModelBinding
    let table: Table
    let key: ObjectKey
    /// The object's values, as it held them while unmanaged.
    let values: [PersistedValue]
    /// Whether the row existed (an update by primary key), so an unchanged link need not be written.
    let isUpdate: Bool
    /// The position in `model.linkProperties` of the column being written.
    private(set) var column = 0
    /// The objects the current column links to, in order.
    private(set) var targets: [ObjectBase?] = []
    /// The stored links of `targets` worked out so far.
    var resolved: [StorageValue] = []
    /// For a map column, the keys of `targets`, in the same order.
    private var mapKeys: [String] = []

    init(model: ModelBinding, table: Table, key: ObjectKey, values: [PersistedValue], isUpdate: Bool) {
        self.model = model
        self.table = table
        self.key = key
        self.values = values
        self.isUpdate = isUpdate
        startColumn()
    }

    /// Writes the current column from ``resolved`` (unless an update finds it unchanged) and moves to the next.
    func writeColumn(policy: UpdatePolicy) throws {
        let property = model.linkProperties[column]
        let stored: StorageValue
        switch values[property] {
        case .object: stored = resolved.first ?? .null
        case .list: stored = .list(resolved)
        case .map: stored = .map(Dictionary(uniqueKeysWithValues: zip(mapKeys, resolved)))
        default: stored = .null
        }
        let columnKey = model.columns[property]
        let unchanged = try isUpdate && policy != .all && table.value(key, column: columnKey) == stored
        if !unchanged {
            try table.set(key, column: columnKey, to: stored)
        }
        column += 1
        startColumn()
    }

    /// Lists the targets of the column at `column`, if there is one.
    private func startColumn() {
        resolved = []
        mapKeys = []
        guard column < model.linkProperties.count else {
            targets = []
            return
        }
        switch values[model.linkProperties[column]] {
        case .object(let target): targets = [target]
        case .list(let elements):
            targets = elements.map { element in
                if case .object(let target) = element { return target }
                return nil
            }
        case .map(let entries):
            let sorted = entries.sorted { MapKeyOrder.precedes($0.key, $1.key) }
            mapKeys = sorted.map(\.key)
            targets = sorted.map { entry in
                if case .object(let target) = entry.value { return target }
                return nil
            }
        default: targets = []
        }
        resolved.reserveCapacity(targets.count)
    }
}
