import Foundation
import StrataStorage

extension Database {
    /// Every object of `type`, as lazy, live ``Results``.
    public func objects<Element: Object>(_ type: Element.Type) -> Results<Element> {
        withAccess("Database.objects(\(type))") {
            armObservationIfTracking()
            autorefreshIfNeeded()
            guard let model = schema.model(for: type) else {
                preconditionFailure(
                    "Strata: \(type) is not a model of this database (schema \(configuration.schema.name)); "
                        + "check Configuration.objectTypes")
            }
            return Results(database: self, model: model, query: ObjectQuery())
        }
    }


    /// The object of `type` whose primary key is `key`, or `nil`; found through the primary-key index.
    ///
    /// - Parameter type: The model class.
    /// - Parameter key: An `Int` (any width), `String` or `UUID`, as the model's primary key is declared.
    public func object<Element: Object>(ofType type: Element.Type, forPrimaryKey key: Any) -> Element? {
        Self.cast(object(of: type, primaryKey: Self.primaryKeyValue(key)), to: type)
    }

    /// The object of `type` whose integer primary key is `key`, or `nil` (the same as the `Any` form, without
    /// the dynamic cast of the key).
    public func object<Element: Object>(ofType type: Element.Type, forPrimaryKey key: Int) -> Element? {
        Self.cast(object(of: type, primaryKey: .int(Int64(key))), to: type)
    }

    /// The object of `type` whose string primary key is `key`, or `nil` (the same as the `Any` form, without the
    /// dynamic cast of the key).
    public func object<Element: Object>(ofType type: Element.Type, forPrimaryKey key: String) -> Element? {
        Self.cast(object(of: type, primaryKey: .string(key)), to: type)
    }

    /// The object of `type` whose primary key is `value` (`nil`: a key of a type no primary key has).
    ///
    /// Not generic: a generic call from another module runs unspecialized, and every generic step (a closure
    /// returning `Element?`, a cast to `Element`) then costs a metadata lookup per call.
    private func object(of type: Object.Type, primaryKey value: StorageValue?) -> ObjectBase? {
        withAccess("Database.object(ofType: \(type), forPrimaryKey:)") {
            armObservationIfTracking()
            autorefreshIfNeeded()
            guard let model = schema.model(for: type), model.primaryKeyColumn != nil else {
                preconditionFailure("Strata: \(type) has no primary key; declare `primaryKey:` in its schema")
            }
            guard let value else { return nil }
            do {
                let table = try table(for: model)
                guard let found = try table.find(primaryKey: value) else { return nil }
                // Handed the table it was found in, so its first property read does not look the table up again.
                return model.type.init(
                    managedBy: ManagedRow(database: self, model: model, key: found, table: table, stamp: changeStamp))
            } catch {
                fatal(error, while: "looking up \(type) by primary key \(value)")
            }
        }
    }

    /// `object` as `Element`; the model's own class (the usual case) without a dynamic cast.
    private static func cast<Element: Object>(_ object: ObjectBase?, to type: Element.Type) -> Element? {
        guard let object else { return nil }
        if Swift.type(of: object) == type { return unsafeDowncast(object, to: type) }
        return object as? Element
    }

    /// A primary key given as `Any` in the store's terms.
    static func primaryKeyValue(_ key: Any) -> StorageValue? {
        switch key {
        case let value as Int: return .int(Int64(value))
        case let value as Int64: return .int(value)
        case let value as Int32: return .int(Int64(value))
        case let value as Int16: return .int(Int64(value))
        case let value as Int8: return .int(Int64(value))
        case let value as String: return .string(value)
        case let value as UUID: return .uuid(value)
        case let value as ObjectId: return .objectId(value)
        default: return nil
        }
    }

    // MARK: - Deleting

    /// Deletes a managed object: it leaves every list that holds it and every link to it becomes `nil`. The
    /// instance (and every other instance of the same object) is then invalidated.
    ///
    /// The schema's delete rules apply (`onDelete:`, docs/SCHEMA.md "Delete rules"): `cascade` properties delete
    /// what they reach, transitively, and a `deny` property that reaches an object the delete keeps fails the write
    /// with `StrataError.deleteDenied` before anything is deleted.
    public func delete(_ object: ObjectBase) {
        requireWrite("delete an object")
        perform {
            let row = try deletedRow(object)
            let table = try table(for: row.model)
            guard try table.contains(row.key) else { return }
            if schema.deleteRules.isEmpty {
                try table.delete(row.key)
            } else {
                try schema.deleteRules.delete([(row.model.name, row.key)], in: catalog())
            }
        }
    }

    /// Deletes every object of `objects` (results, a list, linking objects or an array). The objects are
    /// collected first, so deleting the members of live results is safe; the delete rules apply to all of them as
    /// one delete (a `deny` is satisfied when the objects it reaches are among them).
    public func delete<S: Sequence>(_ objects: S) where S.Element: ObjectBase {
        requireWrite("delete objects")
        let objects = Array(objects)
        guard !schema.deleteRules.isEmpty else {
            for object in objects { delete(object) }
            return
        }
        perform {
            let roots = try objects.map { object in
                let row = try deletedRow(object)
                return (model: row.model.name, key: row.key)
            }
            try schema.deleteRules.delete(roots, in: catalog())
        }
    }

    /// The managed row of an object to delete.
    private func deletedRow(_ object: ObjectBase) throws -> ManagedRow {
        guard let row = object.managedAccessor as? ManagedRow, row.database.store === store else {
            throw StrataError.invalidArgument(
                "delete(_:) takes an object of this database; this \(type(of: object)) is unmanaged or "
                    + "belongs to another database")
        }
        return row
    }

    /// Deletes every object of model `type`, with the schema's delete rules applied to all of them as one delete
    /// (what they cascade to goes too; a `deny` fails the write unless everything it reaches goes as well).
    public func deleteAll<T: Object>(_ type: T.Type) {
        requireWrite("delete all objects of \(type)")
        perform {
            guard let model = schema.model(for: type) else {
                throw StrataError.invalidArgument("deleteAll(_:) takes a model of this database's schema, not \(type)")
            }
            let table = try table(for: model)
            let keys = try table.keys()
            if schema.deleteRules.isEmpty {
                // One batch: each cluster read and rewritten once (docs/ARCHITECTURE.md, "Deleting in batches").
                try table.delete(keys, alongWith: nil)
            } else {
                try schema.deleteRules.delete(keys.map { (model.name, $0) }, in: catalog())
            }
        }
    }

    /// Deletes every object of every model (the delete rules have nothing to deny: everything goes).
    public func deleteAll() {
        requireWrite("delete all objects")
        perform {
            for model in schema.models {
                let table = try table(for: model)
                // Embedded objects may have gone with their owners already: the batch skips them.
                try table.delete(try table.keys(), alongWith: nil)
            }
        }
    }
}

extension ObjectBase {
    /// Whether the object was deleted from its database (or added in a write that was cancelled). An unmanaged
    /// object is never invalidated.
    public var isInvalidated: Bool {
        guard let row = managedAccessor as? ManagedRow else { return false }
        return row.isInvalidated
    }

    /// The database that manages the object, or `nil` while it is unmanaged.
    public var database: Database? { (managedAccessor as? ManagedRow)?.database }

    /// Whether `other` is the same stored object (instances of one object compare unequal with `===`).
    public func isSameObject(as other: ObjectBase?) -> Bool {
        guard let other else { return false }
        if self === other { return true }
        guard let mine = managedAccessor as? ManagedRow, let theirs = other.managedAccessor as? ManagedRow else {
            return false
        }
        return mine.database.store === theirs.database.store && mine.model.name == theirs.model.name
            && mine.key == theirs.key
    }
}
