import Foundation
import StrataSchema
import StrataStorage

extension Database {
    /// Adds an unmanaged object, and the unmanaged objects it links to, to the database; the same instances
    /// become managed (their properties then read and write the store).
    ///
    /// - Parameters:
    ///   - object: The object to add. Adding an object this database already manages does nothing.
    ///   - update: What to do when an object with the same primary key exists: `.error` (default) fails the
    ///     write with `StrataError.duplicatePrimaryKey`; `.modified` writes the properties whose values differ;
    ///     `.all` writes every property.
    ///
    /// Must be called inside a write. A failure (a duplicate primary key, an object of another database) dooms
    /// the write: `write {}` / `commitWrite()` throw it and nothing of the write is kept.
    public func add(_ object: Object, update: UpdatePolicy = .error) {
        requireWrite("add an object")
        perform { _ = try store(object, policy: update) }
    }

    /// Adds every object of `objects` (see ``add(_:update:)``).
    public func add<S: Sequence>(_ objects: S, update: UpdatePolicy = .error) where S.Element: Object {
        requireWrite("add objects")
        for object in objects { perform { _ = try store(object, policy: update) } }
    }

    /// The key of `object` in this database, adding it first when it is unmanaged: how links and lists store
    /// objects.
    func keyForLink(to object: Object) throws -> ObjectKey {
        try store(object, policy: .error)
    }

    /// The managed instance for `key` of `model`.
    func object(of model: ModelBinding, key: ObjectKey) -> Object {
        model.type.init(managedBy: ManagedRow(database: self, model: model, key: key))
    }

    /// The binding of an object's model, or an error naming it.
    func model(of object: Object) throws -> ModelBinding {
        guard let model = schema.model(for: type(of: object)) else {
            throw StrataError.invalidArgument(
                "\(type(of: object)) is not a model of this database (schema \(configuration.schema.name)"
                    + (configuration.objectTypes == nil ? ")" : ", restricted by objectTypes)"))
        }
        return model
    }

    /// Inserts or updates `object` and makes it managed; returns its key.
    ///
    /// Links and lists of links are written after the object's own row exists, so cycles of unmanaged objects
    /// (A links to B links to A) are added once each.
    private func store(_ object: Object, policy: UpdatePolicy) throws -> ObjectKey {
        if let row = object.managedAccessor as? ManagedRow {
            guard row.database.store === store else {
                throw StrataError.invalidArgument(
                    "a \(row.model.name) that belongs to another database cannot be added here; "
                        + "create a copy or use create(_:value:update:)")
            }
            return row.key
        }
        if object.managedAccessor != nil {
            throw StrataError.invalidArgument("a \(type(of: object)) managed by a migration cannot be added")
        }
        let model = try model(of: object)
        let table = try table(for: model)
        var values = object.persistedValues()
        let existing = try existingKey(for: model, in: table, values: &values)
        if existing != nil, policy == .error {
            throw StrataError.duplicatePrimaryKey(type: model.name, key: describe(values[model.primaryKeyColumn ?? 0]))
        }

        var row: [(ColumnKey, StorageValue)] = []
        var linkColumns: [Int] = []
        for (column, value) in values.enumerated() {
            if model.linkTargets[column] != nil {
                linkColumns.append(column)
            } else if let stored = ValueConversion.storageValue(value) {
                row.append((model.columns[column], stored))
            }
        }

        let key: ObjectKey
        if let existing {
            key = existing
            try update(table, key: existing, row: row, model: model, onlyChanged: policy == .modified)
        } else {
            key = try table.insert(row)
        }
        object.managedAccessor = ManagedRow(database: self, model: model, key: key)

        for column in linkColumns {
            let stored: StorageValue
            switch values[column] {
            case .object(let target): stored = .link(try store(target, policy: policy))
            case .list(let elements):
                stored = .list(try elements.map { element -> StorageValue in
                    guard case .object(let target) = element else { return .null }
                    return .link(try store(target, policy: policy))
                })
            default: stored = .null
            }
            let columnKey = model.columns[column]
            let unchanged = try existing != nil && policy != .all && table.value(key, column: columnKey) == stored
            if !unchanged {
                try table.set(key, column: columnKey, to: stored)
            }
        }
        return key
    }

    /// The key of the stored object with the same primary key, assigning the next integer to an unset `auto`
    /// integer key first.
    private func existingKey(for model: ModelBinding, in table: Table, values: inout [PersistedValue]) throws -> ObjectKey? {
        guard let primaryKey = model.primaryKeyColumn else { return nil }
        if model.hasAutoIncrementPrimaryKey {
            if case .null = values[primaryKey] {
                values[primaryKey] = .int(try table.nextSequenceValue(ModelBinding.primaryKeySequence))
                return nil
            }
            if case .int(let explicit) = values[primaryKey] {
                try table.raiseSequence(ModelBinding.primaryKeySequence, toAtLeast: explicit)
            }
        }
        guard let value = ValueConversion.storageValue(values[primaryKey]) else { return nil }
        return try table.find(primaryKey: value)
    }

    /// Writes `row` over the stored object `key` (never its primary key, which cannot change).
    func update(_ table: Table, key: ObjectKey, row: [(ColumnKey, StorageValue)], model: ModelBinding, onlyChanged: Bool) throws {
        let primaryKey = model.primaryKeyColumn.map { model.columns[$0] }
        for (column, value) in row where column != primaryKey {
            if onlyChanged, try table.value(key, column: column) == value { continue }
            try table.set(key, column: column, to: value)
        }
    }

    private func describe(_ value: PersistedValue) -> String {
        switch value {
        case .string(let text): return "\"\(text)\""
        case .int(let number): return String(number)
        case .uuid(let uuid): return uuid.uuidString
        default: return "\(value)"
        }
    }
}
