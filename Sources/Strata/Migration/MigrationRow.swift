import StrataStorage

/// The store reference behind one object of one schema version during a migration: what the generated typed
/// views of old versions (`Library.V2.Member`), the writable views of intermediate versions and the newest model
/// classes read and write while a custom step runs (the typed accessors are ``ObjectRow``'s, over this row's
/// reads and writes).
///
/// It reads and writes the migration's write transaction through the model's ``VersionModel``. Accessors cannot
/// throw, so a failure (a write to an old view, a damaged value) is recorded in the session and thrown when the
/// app's code returns: the whole migration is then abandoned. Meanwhile a failed read gives the column's zero.
final class MigrationRow: ObjectRow {
    let session: MigrationSession
    let model: VersionModel
    let key: ObjectKey
    /// Whether this is the new object of a step (old objects are read-only).
    let isWritable: Bool
    /// Every model of the model's version, to resolve linking objects.
    let versionModels: [String: VersionModel]

    init(session: MigrationSession, model: VersionModel, key: ObjectKey, isWritable: Bool,
         versionModels: [String: VersionModel]) {
        self.session = session
        self.model = model
        self.key = key
        self.isWritable = isWritable
        self.versionModels = versionModels
    }

    var layout: ModelLayout { model }

    private var what: String { "\(model.name) (version \(model.version))" }

    // MARK: Reading and writing columns

    /// Reads column `column` with `body`, recording a failure and returning `nil` instead of throwing.
    func read<T>(_ column: Int, _ body: (Table, ColumnKey) throws -> T?) -> T? {
        guard column >= 0, column < model.columns.count else {
            session.record(session.failure("\(what) has no column \(column)"))
            return nil
        }
        do {
            try session.writeBatch(ifItHolds: key, column: model.columns[column], of: model.tableKey)
            return try body(try session.table(model.tableKey, for: what), model.columns[column])
        } catch {
            session.record(error)
            return nil
        }
    }

    /// Reads the list in column `column` with `body`, as ``read(_:_:)`` does.
    func readList<T>(_ column: Int, _ body: (Table, ColumnKey) throws -> T?) -> T? { read(column, body) }

    /// None: a migration changes its tables in many ways (batched writes, `Migration.create`, `delete`, renames)
    /// with no stamp to follow, so its lists are read from the table each time.
    var listStamp: UInt64? { nil }

    /// Writes `value` to column `column`, refusing writes to the old object of a step.
    func write(_ column: Int, _ value: () throws -> StorageValue) {
        guard isWritable else {
            return session.record(session.failure(
                "the migration code wrote \(model.propertyName(column)) of an old \(what): old objects are "
                    + "read-only; write to the new object instead"))
        }
        _ = read(column) { table, columnKey in
            try session.write(try value(), key: key, column: columnKey, of: table)
        }
    }

    /// Changes the list in column `column`, refusing changes to the old object of a step.
    func changeList(_ column: Int, _ body: (Table, ColumnKey) throws -> Void) {
        guard isWritable else {
            return session.record(session.failure(
                "the migration code changed the list \(describe(column)) of an old object: old objects are "
                    + "read-only; change the new object instead"))
        }
        _ = read(column, body)
    }

    /// The key of `object` for a link from `column`: it must be an object this migration handed out, of the
    /// column's target model (a custom step cannot add objects through a link; `Migration.create` does that).
    func linkKey(to object: ObjectBase, column: Int) throws -> ObjectKey {
        if object.managedAccessor == nil, object is EmbeddedObject, let target = model.linkTargets[column] {
            return try insertEmbedded(object, as: target)
        }
        guard let row = object.managedAccessor as? MigrationRow, row.session === session,
            row.model.tableKey == model.linkTargets[column]?.tableKey
        else {
            throw session.failure(
                "the migration code linked \(what).\(model.propertyName(column)) to an object that is not one of "
                    + "this migration's objects of the link's model; link to objects reached through the old or new "
                    + "objects, or create new ones with Migration.create(_:value:)")
        }
        return row.key
    }

    /// Stores an unmanaged embedded object (and the unmanaged embedded objects it holds) as a new object of
    /// `layout`, the model a link of this row's version points at; returns its key. The object must be of the
    /// code's class for that model in the same shape (a custom step into the newest version).
    private func insertEmbedded(_ object: ObjectBase, as layout: VersionModel) throws -> ObjectKey {
        let description = type(of: object).modelDescription
        guard description.name == layout.name,
            description.properties.map(\.name) == layout.description.properties.map(\.name)
        else {
            throw session.failure(
                "the migration code put a new \(description.name) in \(what), whose link holds \(layout.name) objects "
                    + "of version \(layout.version); create it with Migration.create(_:value:) instead")
        }
        let table = try session.table(layout.tableKey, for: layout.name)
        var row: [(ColumnKey, StorageValue)] = []
        for (column, value) in object.persistedValues().enumerated() {
            let stored: StorageValue?
            switch value {
            case .object(let nested): stored = .link(try linkedKey(nested, from: layout, column: column))
            case .list(let elements) where layout.linkTargets[column] != nil:
                stored = .list(try elements.map { element in
                    guard case .object(let nested) = element else { return .null }
                    return .link(try linkedKey(nested, from: layout, column: column))
                })
            default: stored = ValueConversion.storageValue(value)
            }
            if let stored { row.append((layout.columns[column], stored)) }
        }
        return try table.insert(row)
    }

    /// The key for a link from `layout`'s `column` to `object` inside an embedded object being stored.
    private func linkedKey(_ object: ObjectBase, from layout: VersionModel, column: Int) throws -> ObjectKey {
        guard let target = layout.linkTargets[column] else {
            throw session.failure("\(layout.name).\(layout.propertyName(column)) is no link")
        }
        if object.managedAccessor == nil, object is EmbeddedObject { return try insertEmbedded(object, as: target) }
        guard let row = object.managedAccessor as? MigrationRow, row.session === session,
            row.model.tableKey == target.tableKey
        else {
            throw session.failure(
                "the migration code linked \(layout.name).\(layout.propertyName(column)) to an object that is not one "
                    + "of this migration's objects of the link's model")
        }
        return row.key
    }

    /// A row of the same version and writability for the object `key` of the model linked from `column`.
    func linkedRow(_ column: Int, key: ObjectKey) -> MigrationRow? {
        model.linkTargets[column].map {
            MigrationRow(session: session, model: $0, key: key, isWritable: isWritable, versionModels: versionModels)
        }
    }

    /// None: an older version's models have no classes; the caller's type is used.
    func linkedClass(_ column: Int) -> ObjectBase.Type? { nil }

    /// A link to one of this migration's objects, of any model.
    func mixedLink(to object: Object, column: Int) throws -> StorageValue {
        guard let row = object.managedAccessor as? MigrationRow, row.session === session else {
            throw session.failure(
                "the migration code stored an object in \(what).\(model.propertyName(column)) that is not one of this "
                    + "migration's objects; use objects reached through the old or new objects, or Migration.create")
        }
        return .typedLink(row.model.tableKey, row.key)
    }

    /// None: the models a migration reads have no classes to make the object of a mixed value's link with; such
    /// a value reads as `.none` in a custom step (the link itself is kept).
    func mixedObject(table: TableKey, key: ObjectKey) -> Object? { nil }

    func unstorable(_ detail: String) -> Error { session.failure(detail) }

    /// Records the mismatch, which abandons the migration.
    func reportMismatch(_ detail: String, in column: Int) { session.record(session.failure(detail)) }

    // MARK: Linking objects

    func linkingObjects<Source: Object>(_ type: Source.Type, through property: String) -> LinkingObjects<Source> {
        guard let source = versionModels[type.modelDescription.name],
            let column = source.description.column(named: property)
        else {
            return LinkingObjects(fromType: type, property: property)
        }
        return LinkingObjects(
            property: property,
            managedBy: MigrationLinkingObjects<Source>(target: self, source: source, sourceColumn: column))
    }
}
