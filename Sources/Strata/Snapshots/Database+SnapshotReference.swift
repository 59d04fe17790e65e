#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StrataStorage

extension Database {
    /// The stored object a snapshot's link names (``SnapshotReference``): its model and key.
    ///
    /// - Throws: `StrataError.invalidArgument` when the model is not one of this database's, or no stored object
    ///   has the key.
    func resolve(_ named: SnapshotReference) throws -> (model: ModelBinding, key: ObjectKey) {
        let reference = named.reference
        guard let model = schema.model(named: reference.model) else {
            throw StrataError.invalidArgument(
                "a snapshot links to \(reference), and \(reference.model) is not a model of this database")
        }
        let table = try table(for: model)
        guard let key = try SnapshotReferenceLookup.find(reference.key, in: table) else {
            let what = table.primaryKey == nil ? "stable key" : "primary key"
            throw StrataError.invalidArgument(
                "a snapshot links to \(reference), and no stored \(reference.model) has that \(what); add it first")
        }
        return (model, key)
    }
}

/// Finds the stored object a reference key names in a table: by primary key (a string converted to the key's
/// kind: UUID, `ObjectId`), or by stable object key in a table without one. Shared by snapshots and JSON imports.
package enum SnapshotReferenceLookup {
    /// The object `key` names in `table`, or `nil`; `nil` too for a key of the wrong kind.
    package static func find(_ key: ObjectReference.Key, in table: Table) throws -> ObjectKey? {
        guard let primaryKey = table.primaryKey, let spec = table.column(primaryKey) else {
            guard case .int(let raw) = key, try table.contains(ObjectKey(raw)) else { return nil }
            return ObjectKey(raw)
        }
        guard let value = storedKey(key, kind: spec.type) else { return nil }
        return try table.find(primaryKey: value)
    }

    /// `key` as the store keeps a primary key of column type `type`; `nil` when it cannot be one.
    package static func storedKey(_ key: ObjectReference.Key, kind type: ColumnType) -> StorageValue? {
        switch (key, type) {
        case (.int(let number), .value(.int)): return .int(number)
        case (.string(let text), .value(.string)): return .string(text)
        case (.string(let text), .value(.uuid)): return UUID(uuidString: text).map { .uuid($0) }
        case (.string(let text), .value(.objectId)): return ObjectId(text).map { .objectId($0) }
        default: return nil
        }
    }
}
