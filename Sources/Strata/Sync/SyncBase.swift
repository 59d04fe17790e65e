import StrataStorage
internal import StrataSyncWire

/// The version a write transaction began from, as ``ChangeRecorder`` reads it (docs/SYNC.md, "The client"): built
/// from what the write noted as it made its changes (``WriteChangeLog``), so that recording the outbox needs no
/// second read transaction and no comparison of the write's tables with the older version.
///
/// An object the write did not touch reads as it is now; one it changed, as its values were before the change; one
/// it inserted, as absent. The protocol keys of the objects the write deleted are kept (``rememberKeys(of:model:)``)
/// before the recorder forgets their sync ids.
final class SyncBase {
    /// One table as the write began: the old elements of a set or map, as `Table` reads them now.
    struct BaseTable {
        let log: WriteChangeLog
        let table: Table

        /// The elements set column `column` of `key` held when the write began.
        func setElements(_ key: ObjectKey, column: ColumnKey) throws -> [StorageValue] {
            guard case .list(let elements)? = try log.valueBefore(key, column: column, of: table) else { return [] }
            return elements
        }

        /// The entries map column `column` of `key` held when the write began.
        func mapEntries(_ key: ObjectKey, column: ColumnKey) throws -> [String: StorageValue] {
            guard case .map(let entries)? = try log.valueBefore(key, column: column, of: table) else { return [:] }
            return entries
        }
    }

    let log: WriteChangeLog
    let context: SyncContext
    /// The protocol keys of deleted objects, by table and local key.
    private var deletedKeys: [TableKey: [ObjectKey: SyncValue]] = [:]

    init(log: WriteChangeLog, context: SyncContext) {
        self.log = log
        self.context = context
    }

    /// What the write changed in `table`: the same as comparing it with the version the write began from.
    func changes(of table: Table) throws -> TableChanges { try log.changes(of: table) }

    /// `table` as the write began.
    func table(_ table: Table) -> BaseTable { BaseTable(log: log, table: table) }

    /// Keeps the protocol keys of `keys`, objects of `model` the write deleted, while their sync ids still exist.
    func rememberKeys(of keys: [ObjectKey], model: ModelBinding) throws {
        for key in keys {
            guard let found = try syncKey(of: key, model: model) else { continue }
            deletedKeys[model.tableKey, default: [:]][key] = found
        }
    }

    /// The protocol key object `local` of `model` had when the write began: its primary key value then, or its sync
    /// id; `nil` when it did not exist then (or never synced).
    func syncKey(of local: ObjectKey, model: ModelBinding) throws -> SyncValue? {
        if let known = deletedKeys[model.tableKey]?[local] { return known }
        let table = try context.table(model)
        if let column = model.primaryKeyColumn {
            guard let value = try log.valueBefore(local, column: model.columns[column], of: table) else { return nil }
            return try context.json(value, type: model.description.properties[column].type, in: context.catalog)
        }
        // Sync ids change only in the recorder, after it read them here.
        guard try log.existedBefore(local, of: table) else { return nil }
        return try context.tables.syncID(model: model.name, local: local).map(SyncValue.string)
    }
}
