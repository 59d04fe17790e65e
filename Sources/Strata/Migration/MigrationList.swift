#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
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
        return element(from: value) ?? placeholder()
    }

    /// What a list element that could not be read stands in as: the failure is recorded and abandons the
    /// migration, but the app's code is running and needs some element now (and a damaged file must not crash).
    private func placeholder() -> Element {
        let zeros: [PersistedValue] = [
            .null, .int(0), .bool(false), .float(0), .double(0), .string(""), .data(Data()), .date(ValueConversion.date(0)),
            .uuid(ManagedRow.zeroUUID),
        ]
        for zero in zeros {
            if let element = Element.fromPersistedValue(zero) { return element }
        }
        if let type = Element.self as? Object.Type, let target = row.layout.linkTargets[column] {
            let nowhere = MigrationRow(
                session: session, layout: target, key: ObjectKey(-1), isWritable: false, versionModels: row.versionModels)
            if let element = Element.fromPersistedValue(.object(type.init(managedBy: nowhere))) { return element }
        }
        // Every ListElement is one of the kinds above; a new kind must be added there.
        fatalError("Strata: \(Element.self) has no placeholder value for a list element that could not be read")
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
