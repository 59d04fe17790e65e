import Foundation
import StrataStorage
internal import StrataSyncWire

/// The tables that hold the client's sync data in the app's file, beside the models' (docs/FILE-FORMAT.md, "Sync
/// metadata"). Their names contain `~`, which no model name can, so they never meet the schema's tables.
///
/// - `~sync outbox`: one object per local change not yet back from the server, keyed by its change number, with the
///   change's JSON in `change`.
/// - `~sync objects`: one object per synced object (tombstones included), keyed by `id` (`Model`, U+0001, the
///   object's key as JSON), with its ``ObjectSyncState`` as JSON in `state`.
/// - `~sync ids`: for models without a primary key, the sync id (`sync`) of each local object, keyed by `id`
///   (`Model`, U+0001, the local object key).
struct SyncTables {
    static let outboxName = "~sync outbox"
    static let objectsName = "~sync objects"
    static let idsName = "~sync ids"

    let outbox: Table
    let objects: Table
    let ids: Table
    private let changeColumn: ColumnKey
    private let stateColumn: ColumnKey
    private let syncColumn: ColumnKey
    private let objectsKey: ColumnKey
    private let idsKey: ColumnKey

    /// The tables of `catalog`, created when missing (which needs a write transaction's catalog).
    static func open(in catalog: Catalog) throws -> SyncTables {
        let outbox = try table(SyncTables.outboxName, in: catalog)
        let objects = try table(SyncTables.objectsName, in: catalog)
        let ids = try table(SyncTables.idsName, in: catalog)
        return SyncTables(
            outbox: outbox, objects: objects, ids: ids,
            changeColumn: try column("change", of: outbox, primary: false),
            stateColumn: try column("state", of: objects, primary: false),
            syncColumn: try column("sync", of: ids, primary: false),
            objectsKey: try column("id", of: objects, primary: true),
            idsKey: try column("id", of: ids, primary: true))
    }

    /// The tables of `catalog` if they exist (a read transaction's catalog of a file that never synced has none).
    static func existing(in catalog: Catalog) throws -> SyncTables? {
        guard catalog.table(named: outboxName) != nil else { return nil }
        return try open(in: catalog)
    }

    private static func table(_ name: String, in catalog: Catalog) throws -> Table {
        if let table = catalog.table(named: name) { return table }
        return try catalog.createTable(named: name)
    }

    private static func column(_ name: String, of table: Table, primary: Bool) throws -> ColumnKey {
        if let spec = table.column(named: name) { return spec.key }
        let key = try table.addColumn(named: name, type: .value(.string), nullable: !primary)
        if primary { try table.setPrimaryKey(key) }
        return key
    }

    // MARK: Outbox

    /// Appends `change` (keyed by its change number).
    func append(_ change: SyncChange) throws {
        _ = try outbox.insert(
            [(changeColumn, .string(String(decoding: change.wireJSON, as: UTF8.self)))], key: ObjectKey(change.seq))
    }

    /// The first `limit` changes numbered above `after`, in change-number order.
    func pending(after: Int64 = 0, limit: Int = .max) throws -> [SyncChange] {
        var changes: [SyncChange] = []
        try outbox.forEachKey { key in
            guard key.rawValue > after else { return true }
            let text = try outbox.string(key, column: changeColumn) ?? ""
            changes.append(try SyncChange(wireJSON: text.utf8))
            return changes.count < limit
        }
        return changes
    }

    /// Every change in the outbox, in change-number order, decoded through `decoded` (entries it decoded before
    /// are not decoded again).
    func pending(decoded: DecodedOutbox) throws -> [SyncChange] {
        var changes: [SyncChange] = []
        var kept: [Int64: (text: String, change: SyncChange)] = [:]
        try outbox.forEachKey { key in
            let text = try outbox.string(key, column: changeColumn) ?? ""
            changes.append(try decoded.change(key.rawValue, text: text, keep: &kept))
            return true
        }
        decoded.replace(with: kept)
        return changes
    }

    /// Calls `body` with the number and stored JSON of every change numbered above `after`, in order.
    func forEachEntry(above after: Int64, _ body: (Int64, String) throws -> Void) throws {
        try outbox.forEachKey { key in
            guard key.rawValue > after else { return true }
            try body(key.rawValue, try outbox.string(key, column: changeColumn) ?? "")
            return true
        }
    }

    /// The stored JSON of the change numbered `seq`, or `nil` when it is not in the outbox.
    func entryText(_ seq: Int64) throws -> String? {
        let key = ObjectKey(seq)
        guard try outbox.contains(key) else { return nil }
        return try outbox.string(key, column: changeColumn)
    }

    /// How many changes are numbered above `after`.
    func pendingCount(after: Int64) throws -> Int {
        var count = 0
        try outbox.forEachKey { key in
            if key.rawValue > after { count += 1 }
            return true
        }
        return count
    }

    /// Forgets the changes numbered `seqs` (back from the server), in one batch: numbers not in the outbox are
    /// skipped.
    func remove(_ seqs: [Int64]) throws {
        guard !seqs.isEmpty else { return }
        try outbox.delete(seqs.map { ObjectKey($0) }, alongWith: nil)
    }

    /// Forgets the changes numbered up to `seq`.
    func removeAll(upTo seq: Int64) throws {
        var done: [ObjectKey] = []
        try outbox.forEachKey { key in
            guard key.rawValue <= seq else { return false }
            done.append(key)
            return true
        }
        try outbox.delete(done, alongWith: nil)
    }

    // MARK: Object states

    static func objectID(model: String, key: SyncValue) -> String { model + "\u{1}" + key.canonicalText }

    /// The state of object `key` of `model`, if it was ever synced.
    func state(model: String, key: SyncValue) throws -> ObjectSyncState? {
        try stateEntry(id: Self.objectID(model: model, key: key))?.state
    }

    /// The state of the object with ``objectID(model:key:)`` `id` and the row that holds it, if it was ever synced:
    /// the row lets ``setState(_:id:row:)`` write it back without finding it again.
    func stateEntry(id: String) throws -> (row: ObjectKey, state: ObjectSyncState)? {
        guard let row = try objects.find(primaryKey: .string(id)),
            let text = try objects.string(row, column: stateColumn)
        else { return nil }
        return (row, try ObjectSyncState(stateJSON: text))
    }

    /// Records the state of object `key` of `model`.
    func setState(_ state: ObjectSyncState, model: String, key: SyncValue) throws {
        let id = Self.objectID(model: model, key: key)
        _ = try setState(state, id: id, row: try objects.find(primaryKey: .string(id)))
    }

    /// Records the state of the object with ``objectID(model:key:)`` `id` in `row`, or, with `nil` (the caller
    /// found none), in a new row; returns the row.
    @discardableResult
    func setState(_ state: ObjectSyncState, id: String, row: ObjectKey?) throws -> ObjectKey {
        let text = StorageValue.string(state.stateJSON)
        if let row {
            try objects.set(row, column: stateColumn, to: text)
            return row
        }
        return try objects.insert([(objectsKey, .string(id)), (stateColumn, text)])
    }

    // MARK: Sync ids

    /// The sync id of local object `local` of `model` (a model without a primary key).
    func syncID(model: String, local: ObjectKey) throws -> String? {
        guard let row = try ids.find(primaryKey: .string(model + "\u{1}" + String(local.rawValue))) else { return nil }
        return try ids.string(row, column: syncColumn)
    }

    /// Records (or with `nil`, forgets) the sync id of local object `local` of `model`.
    func setSyncID(_ id: String?, model: String, local: ObjectKey) throws {
        let key = model + "\u{1}" + String(local.rawValue)
        let row = try ids.find(primaryKey: .string(key))
        switch (row, id) {
        case (let row?, let id?): try ids.set(row, column: syncColumn, to: .string(id))
        case (let row?, nil): try ids.delete(row)
        case (nil, let id?): _ = try ids.insert([(idsKey, .string(key)), (syncColumn, .string(id))])
        case (nil, nil): break
        }
    }
}
