import StrataStorage

/// A generated model with a `Snapshot`: a `Sendable`, `Codable`, `Hashable` value of an object's persisted
/// properties that crosses actors and tasks freely (docs/VALUES.md). The build plugin makes every model conform.
public protocol SnapshotConvertible: ObjectBase {
    /// The model's snapshot type (`Person.Snapshot`).
    associatedtype Snapshot: Sendable, Codable, Hashable

    /// The object's values now, as a value.
    func snapshot() -> Snapshot

    /// The snapshot of a managed object, read straight from its row: what `object.snapshot()` calls, and
    /// ``Results/snapshots()`` for the objects of a sparse result.
    @_spi(StrataGenerated) static func snapshot(row: any ManagedObjectAccessor) -> Snapshot

    /// The snapshot of the object `cursor` is on, read from the columns of the cluster that holds it: what
    /// ``Results/snapshots()`` calls for each object, without making a managed instance or a row handle for it.
    @_spi(StrataGenerated) static func snapshot(cursor: SnapshotRowCursor) -> Snapshot
}

extension Results where Element: SnapshotConvertible {
    /// The snapshots of the objects the query selects now, in its order: values that cross actors and tasks.
    ///
    /// The objects are read in the table's cluster order, column by column (no managed instance, no row handle
    /// per object; see docs/VALUES.md). Inside `withObservationTracking` (a SwiftUI view's body) the call
    /// registers the results' elements, as iterating them does.
    public func snapshots() -> [Element.Snapshot] {
        if ObservationProbe.isTracking(database.observationProbe) { track(\.observedElements) }
        let keys = keys
        guard !keys.isEmpty else { return [] }
        if database.isFrozen {
            // A frozen database's reads each take its lock, which is not recursive, and links and mixed values are
            // read through managed rows: the walk, which holds the lock throughout, cannot run. Object by object.
            let stamp = database.changeStamp
            let table = database.withAccess("reading Results<\(Element.self)>") { try? database.table(for: model) }
            return keys.map {
                Element.snapshot(row: ManagedRow(database: database, model: model, key: $0, table: table, stamp: stamp))
            }
        }
        return database.withAccess("reading the snapshots of Results<\(Element.self)>") {
            do {
                let walk = SnapshotWalk(
                    database: database, model: model, table: try database.table(for: model),
                    fromCursor: { Element.snapshot(cursor: $0) }, fromRow: { Element.snapshot(row: $0) })
                return try walk.snapshots(of: keys)
            } catch {
                database.fatal(error, while: "reading the snapshots of Results<\(Element.self)>")
            }
        }
    }
}

/// What generated snapshots call to read links: references to linked objects by key.
@_spi(StrataGenerated) public enum SnapshotSupport {
    /// The reference a snapshot holds for `object`: its model and its primary key (or, for a managed object of a
    /// model without one, its stable key). An unmanaged object of a model without a primary key has no key yet,
    /// which stops the program: add it to a database before taking a snapshot that links to it.
    public static func reference(to object: ObjectBase) -> ObjectReference {
        if let named = object.managedAccessor as? SnapshotReference { return named.reference }
        let description = type(of: object).modelDescription
        if let row = object.managedAccessor as? any ObjectRow {
            return ObjectReference(model: row.layout.name, key: referenceKey(of: row))
        }
        guard let column = description.primaryKeyColumn else {
            preconditionFailure(
                "Strata: a snapshot links to an unmanaged \(description.name), which has no primary key to name it "
                    + "by; add it to a database first (its stable key then names it)")
        }
        let value = object.persistedValues()[column]
        return ObjectReference(model: description.name, key: ValueConversion.storageValue(value).map(key(of:)) ?? .int(0))
    }

    /// The stable key of the object behind `accessor` (a managed object of a model without a primary key).
    public static func stableKey(of accessor: any ManagedObjectAccessor) -> StableObjectKey {
        guard let row = accessor as? any ObjectRow else {
            preconditionFailure("Strata: this object has no stable key: it is not managed by a database")
        }
        return StableObjectKey(rawValue: row.key.rawValue)
    }

    /// The stable key of `object`, which must be managed.
    public static func stableKey(of object: ObjectBase) -> StableObjectKey {
        if let named = object.managedAccessor as? SnapshotReference, case .int(let key) = named.reference.key {
            return StableObjectKey(rawValue: key)
        }
        guard let accessor = object.managedAccessor else {
            preconditionFailure(
                "Strata: a snapshot links to an unmanaged \(type(of: object).modelDescription.name), which has no "
                    + "primary key to name it by; add it to a database first (its stable key then names it)")
        }
        return stableKey(of: accessor)
    }

    /// The key a reference to `row`'s object holds: its primary key, or its stable key.
    static func referenceKey(of row: some ObjectRow) -> ObjectReference.Key {
        guard let column = row.layout.description.primaryKeyColumn,
            let value = row.read(column, { try $0.value(row.key, column: $1) })
        else { return .int(row.key.rawValue) }
        return key(of: value)
    }

    /// A stored primary key as a reference key.
    static func key(of value: StorageValue) -> ObjectReference.Key {
        switch value {
        case .int(let number): return .int(number)
        case .string(let text): return .string(text)
        case .uuid(let uuid): return .string(uuid.uuidString)
        case .objectId(let id): return .string(id.stringValue)
        default: return .string(value.description)
        }
    }
}
