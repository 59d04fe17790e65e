import StrataStorage

/// An observer of a managed ``Map``: keeps the entries it last reported (links as keys, primitives as values) and
/// compares them key by key. Keys are reported in key order.
final class MapObservation<Value: ListElement>: Observation {
    let map: Map<String, Value>
    let database: Database
    private let owner: ModelBinding
    private let key: ObjectKey
    private let column: Int
    /// For a map of objects: which of their properties count as modifications.
    private let watched: WatchedProperties?
    private let block: (MapChange<Map<String, Value>>) -> Void
    private var hasFailed = false
    var isActive = true
    private var baseline: Database?
    private var entries: [String: StorageValue] = [:]

    init(
        storage: ManagedMapStorage<Value>, on database: Database, keyPaths: [String]?,
        block: @escaping (MapChange<Map<String, Value>>) -> Void
    ) throws {
        let row = storage.row
        guard let owner = database.schema.model(named: row.model.name) else {
            throw StrataError.invalidArgument("\(row.model.name) is not a model of the observing database")
        }
        self.database = database
        self.owner = owner
        self.key = row.key
        self.column = storage.column
        self.block = block
        let observed = ManagedRow(database: database, model: owner, key: row.key)
        map = Map(managedBy: ManagedMapStorage<Value>(row: observed, column: storage.column))
        watched = try owner.linkTargets[storage.column].map { try WatchedProperties(model: $0, keyPaths: keyPaths) }
    }

    private func entries(in snapshot: Database) throws -> [String: StorageValue] {
        let table = try snapshot.table(for: owner)
        guard try table.contains(key) else { return [:] }
        return try table.mapEntries(key, column: owner.columns[column])
    }

    func deliver(_ delivery: Delivery, notify: Bool) {
        guard !hasFailed else { return }
        do {
            guard let baseline else {
                guard notify else { return }
                entries = try entries(in: delivery.snapshot)
                self.baseline = delivery.snapshot
                block(.initial(map))
                return
            }
            guard baseline.version != delivery.version else { return }
            guard let changed = try CollectionColumnChanges.of(
                column: column, key: key, owner: owner, watched: watched, delivery: delivery, since: baseline)
            else {
                self.baseline = delivery.snapshot
                return
            }
            let (columnChanged, elementChanges) = (changed.columnChanged, changed.elementChanges)
            let newEntries = columnChanged ? try entries(in: delivery.snapshot) : entries
            let changes = try MapDiff.changes(from: entries, to: newEntries) { value in
                guard let watched, case .link(let element) = value else { return false }
                return try watched.isModified(element, own: elementChanges, delivery: delivery, since: baseline)
            }
            entries = newEntries
            self.baseline = delivery.snapshot
            guard notify, !changes.isEmpty else { return }
            block(.update(
                map, deletions: changes.deletions, insertions: changes.insertions,
                modifications: changes.modifications))
        } catch {
            fail(database.namingFile(error))
        }
    }

    func fail(_ error: Error) {
        guard !hasFailed else { return }
        hasFailed = true
        block(.error(error))
    }
}
