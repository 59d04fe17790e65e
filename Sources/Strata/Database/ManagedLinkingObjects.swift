import StrataStorage

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

    init(
        target: ManagedRow, source: ModelBinding, sourceColumn: Int,
        intermediate: (model: ModelBinding, column: Int)? = nil
    ) {
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
    /// recomputed when the database changed; a storage failure stops the program with a message naming it.
    var keys: [ObjectKey] {
        do {
            return try checkedKeys()
        } catch {
            target.database.fatal(
                error, while: "reading linking objects of \(target.model.name) object \(target.key.rawValue)")
        }
    }

    /// ``keys``, throwing a storage failure (naming the file) instead of stopping.
    func checkedKeys() throws -> [ObjectKey] {
        let database = target.database
        if let cachedStamp, cachedStamp == database.changeStamp { return cachedKeys }
        let keys: [ObjectKey] = try database.withAccess("reading linking objects of \(target.model.name)") {
            try database.storageRead {
                let direct = (model: source, column: sourceColumn)
                guard let intermediate else {
                    return try backlinks(of: [target.key], in: target.model, from: direct, database: database)
                }
                let middle = try backlinks(of: [target.key], in: target.model, from: intermediate, database: database)
                return try backlinks(of: middle, in: intermediate.model, from: direct, database: database)
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
