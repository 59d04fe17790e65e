import StrataStorage

/// The link columns of an object whose row ``Database/add(_:update:)`` has stored, still to write: one frame of
/// the explicit stack that adds a graph of unmanaged objects without recursion.
///
/// The columns are written one at a time, in the model's order: ``targets`` are the objects the current column
/// links to (`nil` for an empty link or a list element that is no object), ``resolved`` their keys so far. A mixed
/// (`any`) column is written here too: its objects become typed links, its other values are stored as they are.
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
    /// Positions in `model.linkProperties` of the columns written with the row already (new embedded objects
    /// inserted with their owner): skipped.
    private let written: [Int]

    init(
        model: ModelBinding, table: Table, key: ObjectKey, values: [PersistedValue], isUpdate: Bool, written: [Int] = []
    ) {
        self.model = model
        self.table = table
        self.key = key
        self.values = values
        self.isUpdate = isUpdate
        self.written = written
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
        case let value where isMixed: stored = ValueConversion.storageValue(value) ?? .null
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

    /// Whether the current column holds mixed values.
    var isMixed: Bool { column < model.linkProperties.count && model.isMixed(model.linkProperties[column]) }

    /// The stored form of the link to `target` (stored under `key`) from the current column: a typed link (its
    /// table and key) from a mixed column, the key alone otherwise.
    func link(to target: ObjectBase, key: ObjectKey, in database: Database) throws -> StorageValue {
        guard isMixed else { return .link(key) }
        return .typedLink(try database.model(of: target).tableKey, key)
    }

    /// What the current column stores at `position` where no object is: a mixed list's or map's other value, or
    /// null.
    func nonObject(at position: Int) -> StorageValue {
        guard isMixed else { return .null }
        switch values[model.linkProperties[column]] {
        case .list(let elements) where elements.indices.contains(position):
            return ValueConversion.storageValue(elements[position]) ?? .null
        case .map(let entries) where mapKeys.indices.contains(position):
            return entries[mapKeys[position]].flatMap { ValueConversion.storageValue($0) } ?? .null
        default:
            return .null
        }
    }

    /// Lists the targets of the column at `column`, if there is one.
    private func startColumn() {
        resolved = []
        mapKeys = []
        while !written.isEmpty, written.contains(column) { column += 1 }
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
