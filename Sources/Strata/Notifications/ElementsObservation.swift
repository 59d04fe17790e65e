import StrataStorage

/// An observer of a managed ``List`` or ``MutableSet``: keeps the elements it last reported (links as keys,
/// primitives as values) and diffs them as sequences, so a list that holds an object twice is reported correctly,
/// and a set's positions are those of its element order (docs/NOTIFICATIONS.md).
final class ElementsObservation<Collection>: Observation {
    /// How the observed column's elements are read from a snapshot, in the collection's order.
    typealias Reader = (Table, ObjectKey, ColumnKey) throws -> [StorageValue]

    let collection: Collection
    let database: Database
    private let read: Reader
    private let owner: ModelBinding
    private let key: ObjectKey
    private let column: Int
    /// For a list or set of objects: which of their properties count as modifications.
    private let watched: WatchedProperties?
    private let block: CollectionBlock<Collection>
    var isActive = true
    private var baseline: Database?
    private var elements: [StorageValue] = []

    /// Observes column `column` of `row`'s object from `database`; `make` builds the collection the block gets
    /// over a row of `database`.
    init(
        row: ManagedRow, column: Int, on database: Database, keyPaths: [String]?, read: @escaping Reader,
        make: (ManagedRow) -> Collection, block: @escaping (CollectionChange<Collection>) -> Void
    ) throws {
        guard let owner = database.schema.model(named: row.model.name) else {
            throw StrataError.invalidArgument("\(row.model.name) is not a model of the observing database")
        }
        self.database = database
        self.owner = owner
        self.key = row.key
        self.column = column
        self.read = read
        self.block = CollectionBlock(block)
        collection = make(ManagedRow(database: database, model: owner, key: row.key))
        watched = try owner.linkTargets[column].map { try WatchedProperties(model: $0, keyPaths: keyPaths) }
    }

    private func elements(in snapshot: Database) throws -> [StorageValue] {
        let table = try snapshot.table(for: owner)
        guard try table.contains(key) else { return [] }
        return try read(table, key, owner.columns[column])
    }

    func deliver(_ delivery: Delivery, notify: Bool) {
        guard !block.hasFailed else { return }
        do {
            guard let baseline else {
                guard notify else { return }
                elements = try elements(in: delivery.snapshot)
                self.baseline = delivery.snapshot
                block.initial(collection)
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
            let newElements = columnChanged ? try elements(in: delivery.snapshot) : elements
            let changes = try SequenceDiff.changes(from: elements, to: newElements) { index in
                guard let watched, case .link(let element) = newElements[index] else { return false }
                return try watched.isModified(element, own: elementChanges, delivery: delivery, since: baseline)
            }
            elements = newElements
            self.baseline = delivery.snapshot
            guard notify, !changes.isEmpty else { return }
            block.update(collection, changes)
        } catch {
            fail(database.namingFile(error))
        }
    }

    func fail(_ error: Error) {
        block.fail(error)
    }
}
