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
    /// For an inverse through a list (`Book.borrowers: { linkingObjects: Person.loans }` where `Person.loans` is
    /// `[Loan]` and `Loan.book` links to Book): the model and column of the middle hop (`Loan.book`).
    let intermediate: (model: ModelBinding, column: Int)?
    private var cachedKeys: [ObjectKey] = []
    private var cachedStamp: UInt64?

    init(target: ManagedRow, source: ModelBinding, sourceColumn: Int, intermediate: (model: ModelBinding, column: Int)? = nil) {
        self.target = target
        self.source = source
        self.sourceColumn = sourceColumn
        self.intermediate = intermediate
    }

    /// The objects of `hop` whose column points at one of `keys` (of `model`), each once, in first-seen order.
    private func backlinks(
        of keys: [ObjectKey], in model: ModelBinding, from hop: (model: ModelBinding, column: Int), database: Database
    ) throws -> [ObjectKey] {
        let table = try database.table(for: model)
        var seen = Set<ObjectKey>()
        var found: [ObjectKey] = []
        for key in keys where try table.contains(key) {
            for origin in try table.backlinks(of: key, from: hop.model.tableKey, column: hop.model.columns[hop.column])
            where seen.insert(origin).inserted {
                found.append(origin)
            }
        }
        return found
    }

    /// The linking objects' keys, once per object (an object whose list holds the target twice counts once),
    /// recomputed when the database changed.
    var keys: [ObjectKey] {
        let database = target.database
        if let cachedStamp, cachedStamp == database.changeStamp { return cachedKeys }
        let keys: [ObjectKey] = database.withAccess("reading linking objects of \(target.model.name)") {
            do {
                guard let intermediate else {
                    return try backlinks(of: [target.key], in: target.model, from: (source, sourceColumn), database: database)
                }
                let middle = try backlinks(of: [target.key], in: target.model, from: intermediate, database: database)
                return try backlinks(of: middle, in: intermediate.model, from: (source, sourceColumn), database: database)
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
