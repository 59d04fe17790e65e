import StrataStorage

/// A way to hand a managed object to another thread: create it on the object's thread, send it, and resolve it
/// with the other thread's database.
///
/// ```swift
/// let ref = ThreadSafeReference(to: person)
/// Task.detached {
///     let db = try Database(configuration: config)
///     if let person = db.resolve(ref) { print(person.name) }
/// }
/// ```
public struct ThreadSafeReference<Element: Object>: Sendable {
    /// The store the object lives in (its path or in-memory name).
    let storePath: String
    /// The object's model.
    let modelName: String
    /// The object's key.
    let key: ObjectKey
    /// The version the object was read at: resolving sees at least this version.
    let version: UInt64

    /// A reference to a managed object.
    ///
    /// - Precondition: `object` is managed (an unmanaged object can be sent as it is).
    public init(to object: Element) {
        guard let row = object.managedAccessor as? ManagedRow else {
            preconditionFailure("ThreadSafeReference(to:) takes a managed object; an unmanaged object is a plain value")
        }
        row.database.confinement.check("ThreadSafeReference(to:)")
        storePath = row.database.store.path
        modelName = row.model.name
        key = row.key
        version = row.database.version
    }
}

extension Database {
    /// The object `reference` points to, in this database, or `nil` if it was deleted since.
    ///
    /// The database first moves to the newest version if it reads an older one than the reference was made at.
    public func resolve<Element: Object>(_ reference: ThreadSafeReference<Element>) -> Element? {
        withAccess("Database.resolve(_:)") {
            guard reference.storePath == store.path, let model = schema.model(named: reference.modelName) else {
                preconditionFailure(
                    "Strata: this ThreadSafeReference was made in the database at '\(reference.storePath)', "
                        + "not '\(store.path)'")
            }
            if writeTransaction == nil, !isFrozen, version < reference.version { releaseReadVersion() }
            do {
                guard try table(for: model).contains(reference.key) else { return nil }
            } catch {
                fatal(error, while: "resolving a ThreadSafeReference to \(model.name)")
            }
            return object(of: model, key: reference.key) as? Element
        }
    }
}
