import StrataStorage

/// The store behind one managed `List`: the elements of one list column of one object, read and written in place.
final class ManagedListStorage<Element: ListElement>: ManagedListAccessor {
    let row: ManagedRow
    let column: Int

    init(row: ManagedRow, column: Int) {
        self.row = row
        self.column = column
    }

    private var database: Database { row.database }
    private var what: String { "\(row.model.name).\(row.model.description.properties[column].name)" }
    private var columnKey: ColumnKey { row.model.columns[column] }

    private func read<T>(_ body: (Table) throws -> T) -> T {
        database.withAccess("reading the list \(what)") {
            do {
                return try body(try database.table(for: row.model))
            } catch {
                database.fatal(error, while: "reading the list \(what)")
            }
        }
    }

    private func change(_ body: (Table) throws -> Void) {
        database.requireWrite("change the list \(what)")
        database.perform { try body(try database.table(for: row.model)) }
    }

    /// The stored form of `element`, adding an unmanaged object first.
    private func storageValue(_ element: Element) throws -> StorageValue {
        let value = element.persistedValue
        if case .object(let object) = value { return .link(try database.keyForLink(to: object)) }
        guard let stored = ValueConversion.storageValue(value) else {
            throw StrataError.invalidArgument("a value of type \(Element.self) cannot be stored in \(what)")
        }
        return stored
    }

    private func element(from value: StorageValue) -> Element {
        let persisted: PersistedValue
        if case .link(let key) = value, let target = row.model.linkTargets[column] {
            persisted = .object(database.object(of: target, key: key))
        } else {
            persisted = ValueConversion.persistedValue(value)
        }
        guard let element = Element.fromPersistedValue(persisted) else {
            database.fatal(StrataError.schemaMismatch(
                path: database.store.path, detail: "\(what) holds \(value), not a \(Element.self)"), while: "reading \(what)")
        }
        return element
    }

    var count: Int { read { try $0.listCount(row.key, column: columnKey) } }

    func element(at index: Int) -> Element {
        element(from: read { try $0.listElement(row.key, column: columnKey, at: index) })
    }

    func replaceElement(at index: Int, with element: Element) {
        change { try $0.listSet(row.key, column: columnKey, at: index, to: try storageValue(element)) }
    }

    func insert(_ element: Element, at index: Int) {
        change { try $0.listInsert(row.key, column: columnKey, try storageValue(element), at: index) }
    }

    func removeElement(at index: Int) {
        change { try $0.listRemove(row.key, column: columnKey, at: index) }
    }

    func moveElement(from source: Int, to destination: Int) {
        change { try $0.listMove(row.key, column: columnKey, from: source, to: destination) }
    }

    func removeAll() {
        change { try $0.listClear(row.key, column: columnKey) }
    }
}

/// The store behind one managed `LinkingObjects`: the objects of a source model whose link or list points to
/// the target object, read from the store's backlinks (O(links), never a table scan).
final class ManagedLinkingObjects<Element: Object>: ManagedLinkingObjectsAccessor {
    let target: ManagedRow
    let source: ModelBinding
    let sourceColumn: Int
    private var cachedKeys: [ObjectKey] = []
    private var cachedStamp: UInt64?

    init(target: ManagedRow, source: ModelBinding, sourceColumn: Int) {
        self.target = target
        self.source = source
        self.sourceColumn = sourceColumn
    }

    /// The linking objects' keys, once per object (an object whose list holds the target twice counts once),
    /// recomputed when the database changed.
    var keys: [ObjectKey] {
        let database = target.database
        if let cachedStamp, cachedStamp == database.changeStamp { return cachedKeys }
        let keys: [ObjectKey] = database.withAccess("reading linking objects of \(target.model.name)") {
            do {
                let table = try database.table(for: target.model)
                guard try table.contains(target.key) else { return [] }
                let all = try table.backlinks(
                    of: target.key, from: source.tableKey, column: source.columns[sourceColumn])
                var seen = Set<ObjectKey>()
                return all.filter { seen.insert($0).inserted }
            } catch {
                database.fatal(error, while: "reading linking objects of \(target.model.name)")
            }
        }
        cachedKeys = keys
        cachedStamp = database.changeStamp
        return keys
    }

    var count: Int { keys.count }

    func element(at index: Int) -> Element {
        guard let element = target.database.object(of: source, key: keys[index]) as? Element else {
            preconditionFailure("Strata: linking objects of \(target.model.name) are not \(Element.self)")
        }
        return element
    }
}
