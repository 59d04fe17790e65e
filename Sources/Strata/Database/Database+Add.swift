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
    func keyForLink(to object: ObjectBase) throws -> ObjectKey {
        try store(object, policy: .error)
    }

    /// The managed instance for `key` of `model`.
    func object(of model: ModelBinding, key: ObjectKey) -> ObjectBase {
        model.type.init(managedBy: ManagedRow(database: self, model: model, key: key))
    }

    /// The binding of an object's model, or an error naming it. Inlined into `add`'s path, where the lookup
    /// always finds the model.
    @inline(__always)
    func model(of object: ObjectBase) throws -> ModelBinding {
        if let model = schema.model(for: type(of: object)) { return model }
        return try unboundModel(of: object)
    }

    /// ``model(of:)`` for an object whose class the schema does not bind: a snapshot's named object, or an error.
    private func unboundModel(of object: ObjectBase) throws -> ModelBinding {
        guard let model = schema.model(for: type(of: object)) else {
            // A mixed value's link from a snapshot is a plain `Object` naming its model (looked up only here, off
            // the path of every add).
            if let named = object.managedAccessor as? SnapshotReference { return try resolve(named).model }
            throw StrataError.invalidArgument(
                "\(type(of: object)) is not a model of this database (schema \(configuration.schema.name)"
                    + (configuration.objectTypes == nil ? ")" : ", restricted by objectTypes)"))
        }
        return model
    }

    /// Inserts or updates `object` and makes it managed; returns its key. The unmanaged objects it links to,
    /// directly or through other objects, are stored too.
    ///
    /// Links and lists of links are written after the object's own row exists, so cycles of unmanaged objects
    /// (A links to B links to A) are added once each. The objects are visited depth first, in the order of their
    /// links (the order in which their rows, and so their keys, are made), with a stack of ``PendingLinks`` in
    /// place of recursion: a chain of 100,000 unmanaged objects must not overflow the thread's stack.
    private func store(_ object: ObjectBase, policy: UpdatePolicy) throws -> ObjectKey {
        guard let stored = try storeRow(object, policy: policy) else { return try managedKey(of: object) }
        // No link column left to write (none, or only new embedded objects inserted with the row): no stack.
        guard let first = stored.links else { return stored.key }
        var pending = [first]
        while let top = pending.last {
            guard top.column < top.model.linkProperties.count else {
                pending.removeLast()
                continue
            }
            if top.resolved.count < top.targets.count {
                // The next target of the current link column: its key now, its own links before this column's next.
                guard let target = top.targets[top.resolved.count] else {
                    top.resolved.append(top.nonObject(at: top.resolved.count))
                    continue
                }
                if let added = try storeRow(target, policy: policy) {
                    top.resolved.append(try top.link(to: target, key: added.key, in: self))
                    if let links = added.links { pending.append(links) }
                } else {
                    top.resolved.append(try top.link(to: target, key: try managedKey(of: target), in: self))
                }
                continue
            }
            try top.writeColumn(policy: policy)
        }
        return first.key
    }

    /// The key of an object this database manages already, or an error saying why it cannot be added.
    private func managedKey(of object: ObjectBase) throws -> ObjectKey {
        guard let accessor = object.managedAccessor else {
            throw StrataError.invalidArgument("a \(type(of: object)) that is not managed has no key")
        }
        guard let row = accessor as? ManagedRow else {
            if let named = accessor as? SnapshotReference { return try resolve(named).key }
            throw StrataError.invalidArgument("a \(type(of: object)) managed by a migration cannot be added")
        }
        guard row.database.store === store else {
            throw StrataError.invalidArgument(
                "a \(row.model.name) that belongs to another database cannot be added here; "
                    + "create a copy or use create(_:value:update:)")
        }
        return row.key
    }

    /// An object whose row ``storeRow(_:policy:)`` stored: its key, and its link columns still to write (`nil`
    /// when there are none: a bulk insert of objects without links, or whose only links are new embedded objects
    /// inserted with them or left unset, makes no ``PendingLinks`` per object).
    private struct StoredRow {
        let key: ObjectKey
        let links: PendingLinks?
    }

    /// Inserts or updates the row of `object` (its non-link properties) and makes it managed; returns its key and
    /// its links still to write, or `nil` when it was managed already (nothing to do).
    private func storeRow(_ object: ObjectBase, policy: UpdatePolicy) throws -> StoredRow? {
        if object.managedAccessor != nil { return nil }
        let model = try model(of: object)
        let table = try table(for: model)
        if policy == .error, let stored = try insertWritten(object, model: model, table: table) { return stored }
        var values = object.persistedValues()
        // With `.error`, the insert itself refuses a taken primary key before changing anything (one descent
        // of the tree, where looking first took two); the other policies need the existing object.
        // Only an `auto` key (to assign) or a policy other than `.error` (to look up) needs the primary key here;
        // otherwise `values` is not touched (passing it `inout` asked whether its buffer was unique).
        let needsKey = model.primaryKeyColumn != nil && (policy != .error || model.hasAutoIncrementPrimaryKey)
        let existing = needsKey ? try existingKey(for: model, in: table, values: &values, lookUp: policy != .error) : nil

        let key: ObjectKey
        var written: [Int] = []
        if let existing {
            key = existing
            try update(table, key: existing, row: valueRow(model, values), model: model, onlyChanged: policy == .modified)
        } else {
            let owned = try model.ownsEmbeddedObjects
                ? newEmbeddedObjects(of: model, model.linkProperties.map { values[$0] }) : []
            if owned.isEmpty {
                key = try insert(model, values, into: table)
            } else if let inserted = try insert(model, values, into: table, owning: owned) {
                key = inserted
                written = owned.map(\.linkPosition)
            } else {
                key = try insert(model, values, into: table)
            }
        }
        object.becomeManaged(by: ManagedRow(database: self, model: model, key: key))
        // Read once: a model without links (W1's employees) pays nothing more for the check below.
        let links = model.linkProperties
        if existing == nil, written.count < links.count {
            appendUnchangedLinks(of: model, links.map { values[$0] }, in: table, to: &written)
        }
        // `written` holds distinct positions: as many as the link properties means every one is written.
        guard written.count < links.count else { return StoredRow(key: key, links: nil) }
        return StoredRow(
            key: key,
            links: PendingLinks(
                model: model, table: table, key: key, values: values, isUpdate: existing != nil, written: written))
    }

    /// Inserts a new object from the row it writes itself into (``ObjectBase/writeValues(into:)``), with the new
    /// embedded objects it links to, and makes it managed: no array of persisted values, no second array of
    /// stored values per object. `nil`, having changed nothing, when the row cannot be inserted as written (a
    /// property left unwritten, a value the store cannot hold in a row): the caller then reads
    /// ``ObjectBase/persistedValues()`` and stores the object the general way.
    @inline(__always)
    private func insertWritten(_ object: ObjectBase, model: ModelBinding, table: Table) throws -> StoredRow? {
        try model.withUnmanagedRow { row in try insertWritten(object, model: model, table: table, row: &row) }
    }

    /// ``insertWritten(_:model:table:)`` with the model's reused row.
    @inline(__always)
    private func insertWritten(
        _ object: ObjectBase, model: ModelBinding, table: Table, row: inout UnmanagedRow
    ) throws -> StoredRow? {
        object.writeValues(into: &row)
        guard row.isStorable, row.writtenCount == model.columns.count else { return nil }
        let primaryKeySlot = model.primaryKeyColumn.map { row.slots[$0] }
        if model.hasAutoIncrementPrimaryKey, let slot = primaryKeySlot, slot >= 0 {
            switch row.values[slot] {
            case .null: row.values[slot] = .int(try table.nextSequenceValue(ModelBinding.primaryKeySequence))
            case .int(let explicit): try table.raiseSequence(ModelBinding.primaryKeySequence, toAtLeast: explicit)
            default: break
            }
        }
        let owned = try model.ownsEmbeddedObjects ? newEmbeddedObjects(of: model, row.links) : []
        let key: ObjectKey
        if owned.isEmpty {
            key = try insertChecked(model, { Self.value(in: row, at: primaryKeySlot) }) {
                try table.insert(row.values, into: model.valueColumns)
            }
        } else {
            let inserted = try insertChecked(model, { Self.value(in: row, at: primaryKeySlot) }) {
                try table.insert(row.values, into: model.valueColumns, embedding: owned.map(\.row))
            }
            key = inserted.owner
            for (new, newKey) in zip(owned, inserted.embedded) {
                new.object.becomeManaged(by: ManagedRow(database: self, model: new.model, key: newKey))
            }
        }
        object.becomeManaged(by: ManagedRow(database: self, model: model, key: key))
        let links = model.linkProperties
        // Each new embedded object fills a link of its own: as many as the links means none is left to write.
        if owned.count == links.count { return StoredRow(key: key, links: nil) }
        var written = owned.map(\.linkPosition)
        appendUnchangedLinks(of: model, row.links, in: table, to: &written)
        guard written.count < links.count else { return StoredRow(key: key, links: nil) }
        // Links left to write: their values by property, as the link path reads them.
        var values = [PersistedValue](repeating: .null, count: model.columns.count)
        for (position, property) in links.enumerated() { values[property] = row.links[position] }
        return StoredRow(
            key: key,
            links: PendingLinks(model: model, table: table, key: key, values: values, isUpdate: false, written: written))
    }

    /// The value at `slot` of a written row's values, as the user wrote it (for messages).
    private static func value(in row: UnmanagedRow, at slot: Int?) -> PersistedValue {
        guard let slot, slot >= 0 else { return .null }
        return ValueConversion.persistedValue(row.values[slot])
    }

    /// Adds to `written` the positions in `links` (`model.linkProperties`) of a new object's link columns that hold
    /// what its new row holds already (no link, an empty list or map of links, when that is the column's default):
    /// writing them would descend the tree again to find the value unchanged. An object of a model with links left
    /// unset (a person without an address) then needs no ``PendingLinks`` at all.
    ///
    /// `links` holds the values of the link properties, in `model.linkProperties` order.
    private func appendUnchangedLinks(
        of model: ModelBinding, _ links: [PersistedValue], in table: Table, to written: inout [Int]
    ) {
        for (position, property) in model.linkProperties.enumerated() where !model.isMixed(property) {
            let stored: StorageValue
            switch links[position] {
            case .null: stored = .null
            case .list(let elements) where elements.isEmpty: stored = .list([])
            case .map(let entries) where entries.isEmpty: stored = .map([:])
            default: continue
            }
            guard !written.contains(position), table.column(model.columns[property])?.defaultValue == stored else {
                continue
            }
            written.append(position)
        }
    }

    /// A new embedded object an object being inserted links to, inserted with it in one step
    /// (`Table.insert(_:into:embedding:)`).
    private struct NewEmbedded {
        /// The object, unmanaged until the insert.
        let object: ObjectBase
        let model: ModelBinding
        /// Its position in its owner's `linkProperties`.
        let linkPosition: Int
        /// What the storage engine inserts.
        let row: EmbeddedRow
    }

    /// The unmanaged embedded objects `links` (the link properties of an object being inserted, in
    /// `model.linkProperties` order) holds in single links, whose own values are all storable and that link to
    /// nothing themselves: these go in with their owner's row. Each instance once (a second slot holding it is
    /// left to the link path, which refuses it).
    ///
    /// Each writes itself into its model's reused ``UnmanagedRow``, whose values the ``EmbeddedRow`` shares until
    /// the insert is done (the next object of the model then writes into the same array again, in place).
    private func newEmbeddedObjects(of model: ModelBinding, _ links: [PersistedValue]) throws -> [NewEmbedded] {
        var found: [NewEmbedded] = []
        for (position, property) in model.linkProperties.enumerated() {
            guard case .object(let target) = links[position], target.managedAccessor == nil,
                let targetModel = model.linkTargets[property], targetModel.isEmbedded,
                targetModel.linkProperties.isEmpty, !model.isMixed(property),
                try self.model(of: target) === targetModel, !found.contains(where: { $0.object === target })
            else { continue }
            let values = targetModel.withUnmanagedRow { row -> [StorageValue]? in
                target.writeValues(into: &row)
                return row.isStorable && row.writtenCount == targetModel.columns.count ? row.values : nil
            }
            guard let values else { continue }
            found.append(
                NewEmbedded(
                    object: target, model: targetModel, linkPosition: position,
                    row: EmbeddedRow(link: model.columns[property], values: values, columns: targetModel.valueColumns)))
        }
        return found
    }

    /// Inserts an object's non-link properties with the new embedded objects `owned` linked from it
    /// (`Table.insert(_:into:embedding:)`), and makes those managed; `nil`, having changed nothing, when one of
    /// the object's values cannot be stored as a row (then the caller inserts it the general way).
    private func insert(
        _ model: ModelBinding, _ values: [PersistedValue], into table: Table, owning owned: [NewEmbedded]
    ) throws -> ObjectKey? {
        try withSpareRow(model, values) { stored in
            let (key, keys) = try insertChecked(model, values) {
                try table.insert(stored, into: model.valueColumns, embedding: owned.map(\.row))
            }
            for (new, newKey) in zip(owned, keys) {
                new.object.becomeManaged(by: ManagedRow(database: self, model: new.model, key: newKey))
            }
            return key
        }
    }

    /// Inserts the values of an object's non-link properties (links follow once the row exists).
    ///
    /// - Throws: `StrataError.duplicatePrimaryKey` naming the model and the key as the user wrote it.
    private func insert(_ model: ModelBinding, _ values: [PersistedValue], into table: Table) throws -> ObjectKey {
        let inserted = try withSpareRow(model, values) { stored in
            try insertChecked(model, values) { try table.insert(stored, into: model.valueColumns) }
        }
        if let inserted { return inserted }
        // A link whose target model is left out of the database (`objectTypes`) has no binding: store the row
        // column by column, which skips what cannot be stored, as before links existed here.
        return try insertChecked(model, values) { try table.insert(valueRow(model, values)) }
    }

    /// Runs `body` with the model's reused row holding `values`' non-link properties as stored values; `nil`,
    /// without running it, when one of them cannot be stored as a row value.
    ///
    /// The row is taken from the binding (which leaves the array uniquely referenced, so writing it copies nothing)
    /// and given back with this object's values in it: overwriting them in place next time releases them, where
    /// emptying the array would destroy each element through the type's value witness.
    private func withSpareRow<Result>(
        _ model: ModelBinding, _ values: [PersistedValue], _ body: ([StorageValue]) throws -> Result
    ) rethrows -> Result? {
        var stored = model.spareRow
        model.spareRow = []
        defer { model.spareRow = stored }
        let properties = model.valueProperties
        if stored.count != properties.count { stored = Array(repeating: .null, count: properties.count) }
        for (position, column) in properties.enumerated() {
            guard let value = ValueConversion.storageValue(values[column]) else { return nil }
            stored[position] = value
        }
        return try body(stored)
    }

    /// Runs an insert, naming a taken primary key as the user wrote it.
    private func insertChecked<Inserted>(
        _ model: ModelBinding, _ values: [PersistedValue], _ insert: () throws -> Inserted
    ) throws -> Inserted {
        try insertChecked(model, { model.primaryKeyColumn.map { values[$0] } ?? .null }, insert)
    }

    /// Runs an insert, naming a taken primary key as the user wrote it (`primaryKey` reads it, only then).
    @inline(__always)
    private func insertChecked<Inserted>(
        _ model: ModelBinding, _ primaryKey: () -> PersistedValue, _ insert: () throws -> Inserted
    ) throws -> Inserted {
        do {
            return try insert()
        } catch StrataError.duplicatePrimaryKey(let type, let key) {
            guard model.primaryKeyColumn != nil else { throw StrataError.duplicatePrimaryKey(type: type, key: key) }
            throw StrataError.duplicatePrimaryKey(type: model.name, key: describe(primaryKey()))
        }
    }

    /// The (column, value) pairs of an object's storable non-link properties.
    private func valueRow(_ model: ModelBinding, _ values: [PersistedValue]) -> [(ColumnKey, StorageValue)] {
        var row: [(ColumnKey, StorageValue)] = []
        for column in model.valueProperties {
            if let stored = ValueConversion.storageValue(values[column]) { row.append((model.columns[column], stored)) }
        }
        return row
    }

    /// The key of the stored object with the same primary key (when `lookUp`), assigning the next integer to an
    /// unset `auto` integer key first.
    private func existingKey(
        for model: ModelBinding, in table: Table, values: inout [PersistedValue], lookUp: Bool
    ) throws -> ObjectKey? {
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
        guard lookUp, let value = ValueConversion.storageValue(values[primaryKey]) else { return nil }
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
