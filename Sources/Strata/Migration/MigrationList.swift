import StrataStorage

/// The store behind a `List` property of a ``MigrationRow``: one list column of one object in the migration's
/// write transaction. Failures are recorded in the session, as for the row's other accessors.
final class MigrationList<Element: ListElement>: ManagedListAccessor {
    let row: MigrationRow
    let column: Int

    init(row: MigrationRow, column: Int) {
        self.row = row
        self.column = column
    }

    private var session: MigrationSession { row.session }

    private func read<T>(fallback: T, _ body: (Table, ColumnKey) throws -> T) -> T {
        row.read(column, fallback: fallback, body)
    }

    private func change(_ body: (Table, ColumnKey) throws -> Void) {
        guard row.isWritable else {
            return session.record(session.failure(
                "the migration code changed the list \(row.layout.name).\(row.layout.propertyName(column)) of an "
                    + "old object: old objects are read-only; change the new object instead"))
        }
        read(fallback: (), body)
    }

    /// The stored form of `element`: a primitive as is, an object as a link to one of this migration's objects.
    private func storageValue(_ element: Element) -> StorageValue? {
        let value = element.persistedValue
        if case .object(let object) = value { return row.linkKey(for: object, column: column).map { .link($0) } }
        guard let stored = ValueConversion.storageValue(value) else {
            session.record(session.failure(
                "a \(Element.self) cannot be stored in \(row.layout.name).\(row.layout.propertyName(column))"))
            return nil
        }
        return stored
    }

    private func element(from value: StorageValue) -> Element? {
        let persisted: PersistedValue
        if case .link(let key) = value, let target = row.layout.linkTargets[column],
            let type = Element.self as? Object.Type
        {
            let linked = MigrationRow(
                session: session, layout: target, key: key, isWritable: row.isWritable,
                versionModels: row.versionModels)
            persisted = .object(type.init(managedBy: linked))
        } else {
            persisted = ValueConversion.persistedValue(value)
        }
        guard let element = Element.fromPersistedValue(persisted) else {
            session.record(session.failure(
                "\(row.layout.name).\(row.layout.propertyName(column)) holds \(value), not a \(Element.self)"))
            return nil
        }
        return element
    }

    var count: Int { read(fallback: 0) { try $0.listCount(row.key, column: $1) } }

    func element(at index: Int) -> Element {
        let value = read(fallback: StorageValue.null) { try $0.listElement(row.key, column: $1, at: index) }
        if let element = element(from: value) { return element }
        // The failure is recorded and abandons the migration; the app's code still needs some element now.
        if let zero = Element.fromPersistedValue(.null) { return zero }
        preconditionFailure("Strata: \(session.pendingError.map { "\($0)" } ?? "a list element could not be read")")
    }

    func replaceElement(at index: Int, with element: Element) {
        guard let value = storageValue(element) else { return }
        change { try $0.listSet(row.key, column: $1, at: index, to: value) }
    }

    func insert(_ element: Element, at index: Int) {
        guard let value = storageValue(element) else { return }
        change { try $0.listInsert(row.key, column: $1, value, at: index) }
    }

    func removeElement(at index: Int) { change { try $0.listRemove(row.key, column: $1, at: index) } }

    func moveElement(from source: Int, to destination: Int) {
        change { try $0.listMove(row.key, column: $1, from: source, to: destination) }
    }

    func removeAll() { change { try $0.listClear(row.key, column: $1) } }
}

/// The linking objects of a ``MigrationRow``: the objects of `source` whose link or list points to it, computed
/// from the store's backlinks when asked (a migration changes them rarely, so nothing is cached).
final class MigrationLinkingObjects<Element: Object>: ManagedLinkingObjectsAccessor {
    let target: MigrationRow
    let source: ModelLayout
    let sourceColumn: Int

    init(target: MigrationRow, source: ModelLayout, sourceColumn: Int) {
        self.target = target
        self.source = source
        self.sourceColumn = sourceColumn
    }

    private var keys: [ObjectKey] {
        let session = target.session
        do {
            let table = try session.table(target.layout.tableKey, for: target.layout.name)
            let all = try table.backlinks(of: target.key, from: source.tableKey, column: source.columns[sourceColumn])
            var seen = Set<ObjectKey>()
            return all.filter { seen.insert($0).inserted }
        } catch {
            session.record(error)
            return []
        }
    }

    var count: Int { keys.count }

    func element(at index: Int) -> Element {
        let row = MigrationRow(
            session: target.session, layout: source, key: keys[index], isWritable: target.isWritable,
            versionModels: target.versionModels)
        return Element(managedBy: row)
    }
}
