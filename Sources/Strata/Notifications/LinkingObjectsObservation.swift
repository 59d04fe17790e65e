import StrataStorage

/// An observer of managed ``LinkingObjects``: recomputes the inverse from the store's backlinks (O(links))
/// when a table it depends on changed, and diffs the keys.
final class LinkingObjectsObservation<Element: Object>: Observation {
    let linkingObjects: LinkingObjects<Element>
    let database: Database
    private let target: ModelBinding
    private let key: ObjectKey
    private let source: ModelBinding
    private let sourceColumn: Int
    private let intermediate: (model: ModelBinding, column: Int)?
    private let watched: WatchedProperties
    private let block: CollectionBlock<LinkingObjects<Element>>
    var isActive = true
    private var baseline: Database?
    private var keys: [ObjectKey] = []

    init(
        storage: ManagedLinkingObjects<Element>, property: String, on database: Database, keyPaths: [String]?,
        block: @escaping (CollectionChange<LinkingObjects<Element>>) -> Void
    ) throws {
        guard let target = database.schema.model(named: storage.target.model.name),
            let source = database.schema.model(named: storage.source.name)
        else {
            throw StrataError.invalidArgument("\(storage.target.model.name) is not a model of the observing database")
        }
        self.database = database
        self.target = target
        self.key = storage.target.key
        self.source = source
        self.sourceColumn = storage.sourceColumn
        self.intermediate = storage.intermediate.flatMap { hop in
            database.schema.model(named: hop.model.name).map { ($0, hop.column) }
        }
        self.block = CollectionBlock(block)
        watched = try WatchedProperties(model: source, keyPaths: keyPaths)
        linkingObjects = LinkingObjects(property: property, managedBy: Self.storage(target, key, source, sourceColumn, intermediate, on: database))
    }

    private static func storage(
        _ target: ModelBinding, _ key: ObjectKey, _ source: ModelBinding, _ sourceColumn: Int,
        _ intermediate: (model: ModelBinding, column: Int)?, on database: Database
    ) -> ManagedLinkingObjects<Element> {
        ManagedLinkingObjects<Element>(
            target: ManagedRow(database: database, model: target, key: key), source: source,
            sourceColumn: sourceColumn, intermediate: intermediate)
    }

    private func storage(on database: Database) -> ManagedLinkingObjects<Element> {
        Self.storage(target, key, source, sourceColumn, intermediate, on: database)
    }

    func deliver(_ delivery: Delivery, notify: Bool) {
        guard !block.hasFailed else { return }
        do {
            guard let baseline else {
                guard notify else { return }
                keys = try storage(on: delivery.snapshot).checkedKeys()
                self.baseline = delivery.snapshot
                block.initial(linkingObjects)
                return
            }
            guard baseline.version != delivery.version else { return }
            var tables = [target.tableKey, source.tableKey]
            if let intermediate { tables.append(intermediate.model.tableKey) }
            let changed = try tables.contains { !(try delivery.changes(of: $0, since: baseline).isEmpty) }
            let linkedChanged = try watched.linkedTablesChanged(delivery, since: baseline)
            guard changed || linkedChanged else {
                self.baseline = delivery.snapshot
                return
            }
            let newKeys = try storage(on: delivery.snapshot).checkedKeys()
            let own = try delivery.changes(of: source.tableKey, since: baseline)
            let changes = try KeyDiff.changes(from: keys, to: newKeys) { element in
                try watched.isModified(element, own: own, delivery: delivery, since: baseline)
            }
            keys = newKeys
            self.baseline = delivery.snapshot
            guard notify, !changes.isEmpty else { return }
            block.update(linkingObjects, changes)
        } catch {
            fail(database.namingFile(error))
        }
    }

    func fail(_ error: Error) {
        block.fail(error)
    }
}
