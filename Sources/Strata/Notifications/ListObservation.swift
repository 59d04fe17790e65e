import StrataStorage

/// An observer of a managed ``List``: keeps the elements it last reported (links as keys, primitives as
/// values) and diffs them as sequences, so a list that holds an object twice is reported correctly.
final class ListObservation<Element: ListElement>: Observation {
    let list: List<Element>
    let database: Database
    private let owner: ModelBinding
    private let key: ObjectKey
    private let column: Int
    /// For a list of objects: which of their properties count as modifications.
    private let watched: WatchedProperties?
    private let block: CollectionBlock<List<Element>>
    var isActive = true
    private var baseline: Database?
    private var elements: [StorageValue] = []

    init(
        storage: ManagedListStorage<Element>, on database: Database, keyPaths: [String]?,
        block: @escaping (CollectionChange<List<Element>>) -> Void
    ) throws {
        let row = storage.row
        guard let owner = database.schema.model(named: row.model.name) else {
            throw StrataError.invalidArgument("\(row.model.name) is not a model of the observing database")
        }
        self.database = database
        self.owner = owner
        self.key = row.key
        self.column = storage.column
        self.block = CollectionBlock(block)
        list = List(managedBy: ManagedListStorage<Element>(row: ManagedRow(database: database, model: owner, key: row.key), column: storage.column))
        watched = try owner.linkTargets[storage.column].map { try WatchedProperties(model: $0, keyPaths: keyPaths) }
    }

    private func elements(in snapshot: Database) throws -> [StorageValue] {
        let table = try snapshot.table(for: owner)
        guard try table.contains(key) else { return [] }
        return try table.list(key, column: owner.columns[column])
    }

    func deliver(_ delivery: Delivery, notify: Bool) {
        guard !block.hasFailed else { return }
        do {
            guard let baseline else {
                guard notify else { return }
                elements = try elements(in: delivery.snapshot)
                self.baseline = delivery.snapshot
                block.initial(list)
                return
            }
            guard baseline.version != delivery.version else { return }
            let ownerChanges = try delivery.changes(of: owner.tableKey, since: baseline)
            let listChanged = ownerChanges.deletions.contains(key)
                || ownerChanges.modifications[key]?.contains(owner.columns[column]) == true
            var elementChanges = TableChanges()
            if let watched { elementChanges = try delivery.changes(of: watched.model.tableKey, since: baseline) }
            let linkedChanged = try watched?.linkedTablesChanged(delivery, since: baseline) ?? false
            guard listChanged || !elementChanges.modifications.isEmpty || linkedChanged else {
                self.baseline = delivery.snapshot
                return
            }
            let newElements = listChanged ? try elements(in: delivery.snapshot) : elements
            let changes = try SequenceDiff.changes(from: elements, to: newElements) { index in
                guard let watched, case .link(let element) = newElements[index] else { return false }
                return try watched.isModified(element, own: elementChanges, delivery: delivery, since: baseline)
            }
            elements = newElements
            self.baseline = delivery.snapshot
            guard notify, !changes.isEmpty else { return }
            block.update(list, changes)
        } catch {
            fail(database.namingFile(error))
        }
    }

    func fail(_ error: Error) {
        block.fail(error)
    }
}
