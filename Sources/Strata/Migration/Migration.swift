#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StrataSchema
import StrataStorage

/// The untyped, Realm-style migration API: what ``Configuration/migrationBlock`` receives once per version step,
/// after the step's automatic changes and custom steps and before the properties and models the step removes
/// are dropped (so their old values can still be read).
///
/// ```swift
/// config.migrationBlock = { migration in
///     guard migration.newSchemaVersion == 3 else { return }
///     try migration.enumerateObjects(ofType: "Member") { old, new in
///         new?["fullName"] = "\(old?["firstName"] ?? "") \(old?["lastName"] ?? "")"
///     }
/// }
/// ```
///
/// Everything it does is part of the migration's single write transaction: a thrown error leaves the file as
/// it was.
public final class Migration {
    let session: MigrationSession
    let old: VersionLayout
    let new: VersionLayout
    let oldSchema: SchemaVersion
    let newSchema: SchemaVersion
    /// The new version's delete rules, which ``delete(_:)`` and ``deleteData(forType:)`` apply.
    private(set) lazy var deleteRules = DeleteRules(models: newSchema.models)

    init(session: MigrationSession, old: VersionLayout, new: VersionLayout, oldSchema: SchemaVersion,
         newSchema: SchemaVersion) {
        self.session = session
        self.old = old
        self.new = new
        self.oldSchema = oldSchema
        self.newSchema = newSchema
    }

    /// The version the step starts from.
    public var oldSchemaVersion: Int { oldSchema.version }
    /// The version the step arrives at.
    public var newSchemaVersion: Int { newSchema.version }

    /// The model of the new version called `typeName`, or renamed from it.
    private func newModel(_ typeName: String) -> VersionModel? {
        new[typeName] ?? newSchema.models.first { $0.renamedFrom == typeName }.flatMap { new[$0.name] }
    }

    /// The model of the old version called `typeName`, or renamed to it.
    private func oldModel(_ typeName: String) -> VersionModel? {
        old[typeName] ?? newSchema.model(named: typeName)?.renamedFrom.flatMap { old[$0] }
    }

    private func unknownType(_ typeName: String) -> StrataError {
        session.failure(
            "the migration block names model '\(typeName)', which neither version \(oldSchemaVersion) nor "
                + "\(newSchemaVersion) declares")
    }

    /// Calls `block` with each object the file held before the step, as the old version saw it and as the new
    /// version sees it now. `new` is `nil` for a model the step removes; objects created during the enumeration
    /// are not visited; objects deleted during it are skipped.
    ///
    /// - Parameter typeName: The model's name in either version.
    /// - Parameter block: Called with each object's old and new version (`new` is `nil` when the step removes it).
    /// - Throws: `StrataError.migrationFailed` for an unknown model or a failed read or write; what `block` throws.
    public func enumerateObjects(
        ofType typeName: String, _ block: (_ oldObject: MigrationObject?, _ newObject: MigrationObject?) throws -> Void
    ) throws {
        guard let oldLayout = oldModel(typeName) else {
            if newModel(typeName) != nil { return }  // new in this step: no object existed before it
            throw unknownType(typeName)
        }
        let newLayout = newModel(typeName).flatMap { $0.tableKey == oldLayout.tableKey ? $0 : nil }
        let table = try session.table(oldLayout.tableKey, for: typeName)
        let end = table.nextObjectKey
        var position = 0
        while position < (try table.count()) {
            let key = try table.key(at: position)
            guard key.rawValue < end else { break }
            let oldObject = MigrationObject(row: MigrationRow(
                session: session, model: oldLayout, key: key, isWritable: false, versionModels: old.models))
            let newObject = newLayout.map {
                MigrationObject(row: MigrationRow(
                    session: session, model: $0, key: key, isWritable: true, versionModels: new.models))
            }
            try block(oldObject, newObject)
            try session.throwPendingError()
            session.advance()
            if position < (try table.count()), try table.key(at: position) == key { position += 1 }
        }
    }

    /// Creates an object of the new version's model `typeName` with `value` (property name → value, as
    /// ``MigrationObject`` takes them); missing properties get their defaults (`auto` ones their next value).
    ///
    /// - Throws: `StrataError.migrationFailed` for an unknown model or property or a value of the wrong type;
    ///   `StrataError.duplicatePrimaryKey` when the primary key is taken.
    @discardableResult
    public func create(_ typeName: String, value: [String: Any] = [:]) throws -> MigrationObject {
        guard let layout = new[typeName] else { throw unknownType(typeName) }
        let table = try session.table(layout.tableKey, for: typeName)
        var values: [(ColumnKey, StorageValue)] = []
        for (name, item) in value {
            guard let column = layout.description.column(named: name) else {
                throw session.failure("\(typeName) has no stored property '\(name)' in version \(newSchemaVersion)")
            }
            let property = layout.description.properties[column]
            let stored = MigrationValue.storageValue(item, for: property) { object in
                object.row.model.tableKey == layout.linkTargets[column]?.tableKey ? object.row.key : nil
            }
            guard let stored else {
                throw session.failure("\(typeName).\(name) of version \(newSchemaVersion) cannot hold \(item)")
            }
            values.append((layout.columns[column], stored))
        }
        for (column, property) in layout.description.properties.enumerated()
        where value[property.name] == nil && property.defaultValue == .auto {
            switch property.type.unwrapped {
            case .uuid: values.append((layout.columns[column], .uuid(UUID())))
            case .objectId: values.append((layout.columns[column], .objectId(ObjectId.generate())))
            case .date: values.append((layout.columns[column], .timestamp(ValueConversion.timestamp(Date()))))
            case .integer:
                values.append((layout.columns[column], .int(try table.nextSequenceValue(ModelBinding.primaryKeySequence))))
            default: break
            }
        }
        let key = try table.insert(values)
        return MigrationObject(row: MigrationRow(
            session: session, model: layout, key: key, isWritable: true, versionModels: new.models))
    }

    /// Deletes `object` (links to it become nil and it leaves every list), with the new version's delete rules.
    ///
    /// - Throws: `StrataError.migrationFailed` when the object is an old object of a model the step keeps
    ///   (delete its new object instead) or belongs to another migration.
    public func delete(_ object: MigrationObject) throws {
        guard object.row.session === session else {
            throw session.failure("the migration block deleted an object of another migration")
        }
        let table = try session.table(object.row.model.tableKey, for: object.typeName)
        guard try table.contains(object.row.key) else { return }
        // The new version's delete rules apply, as in the app's deletes.
        if deleteRules.isEmpty || table.name != object.typeName {
            try table.delete(object.row.key)
        } else {
            try deleteRules.delete([(object.typeName, object.row.key)], in: session.catalog)
        }
    }

    /// Copies the values of the old version's property `oldName` into the new version's property `newName` for
    /// every object of `typeName`: the untyped way to keep the data of a property that was removed and re-added
    /// under another name (declaring `renamedFrom:` in the schema does the same without code).
    ///
    /// - Throws: `StrataError.migrationFailed` for an unknown model or property, or when the types differ beyond
    ///   the lossless conversions.
    public func renameProperty(onType typeName: String, from oldName: String, to newName: String) throws {
        guard let oldLayout = oldModel(typeName), let newLayout = newModel(typeName) else { throw unknownType(typeName) }
        guard let from = oldLayout.description.column(named: oldName) else {
            throw session.failure("\(oldLayout.name) has no property '\(oldName)' in version \(oldSchemaVersion)")
        }
        guard let to = newLayout.description.column(named: newName) else {
            throw session.failure("\(newLayout.name) has no property '\(newName)' in version \(newSchemaVersion)")
        }
        let conversion = ColumnConversion(
            from: oldLayout.description.properties[from].type, to: newLayout.description.properties[to].type,
            replacementForNil: ValueConversion.defaultValue(for: newLayout.description.properties[to]))
        let table = try session.table(newLayout.tableKey, for: typeName)
        try session.forEachObject(of: table) { key in
            let value = try table.value(key, column: oldLayout.columns[from])
            do {
                try session.write(try conversion.convert(value), key: key, column: newLayout.columns[to], of: table)
            } catch let failure as ConversionFailure {
                throw session.failure(
                    "renaming \(typeName).\(oldName) to \(newName): object \(key): \(failure.detail)")
            }
        }
    }

    /// Deletes every object of `typeName` (in either version); for a model of the new version, with its delete
    /// rules (what the objects cascade to goes too; a `deny` that reaches kept objects fails the migration).
    ///
    /// - Returns: Whether such a model exists.
    /// - Throws: A storage failure.
    @discardableResult
    public func deleteData(forType typeName: String) throws -> Bool {
        guard let layout = newModel(typeName) ?? oldModel(typeName) else { return false }
        let table = try session.table(layout.tableKey, for: typeName)
        if let model = newModel(typeName), !deleteRules.isEmpty, table.name == model.name {
            // A model the new version keeps: its objects go as one delete under the new version's rules.
            try deleteRules.delete(try table.keys().map { (model.name, $0) }, in: session.catalog)
            session.advance()
            return true
        }
        while try table.count() > 0 {
            try table.delete(try table.key(at: 0))
            session.advance()
        }
        return true
    }
}
