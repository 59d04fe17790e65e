import Foundation
import StrataStorage

extension Database {
    /// Starts (or joins) the sync session of the file when the configuration asks for sync.
    func attachSync() throws {
        guard let sync = configuration.sync, !configuration.readOnly, configuration.inMemoryIdentifier == nil else {
            return
        }
        syncSession = try SyncSession.shared(path: store.path, configuration: configuration, sync: sync)
        recordsSyncChanges = true
    }

    /// Records the write transaction's changes in the outbox (docs/SYNC.md, "The client"), in the same transaction:
    /// called by ``commitWrite()`` just before the commit, so the outbox entries commit, or roll back, with the
    /// changes they describe.
    func recordSyncChanges(in catalog: Catalog) throws {
        try catalog.flush()
        let base = try store.beginRead()
        defer { base.end() }
        let baseCatalog = try Catalog(reader: base)
        guard !catalog.changedTables(since: baseCatalog).isEmpty else { return }
        let context = try SyncContext(schema: schema, catalog: catalog, path: store.path)
        var recorder = ChangeRecorder(
            context: context, base: baseCatalog, state: try SyncState.loadOrCreate(in: catalog))
        try recorder.run()
    }

    /// Applies a downloaded page of the server's change log in one write transaction under the conflict rules
    /// (``RemoteChangeApplier``), and stores its `last` as the download cursor in the same transaction. Nothing it
    /// changes enters the outbox; observers are notified as for any commit. Entries at or below the stored cursor
    /// (a page applied already) and the client's own changes are skipped.
    func applyDownloadedPage(_ page: DownloadResponse) throws {
        let records = recordsSyncChanges
        recordsSyncChanges = false
        defer { recordsSyncChanges = records }
        try write {
            guard let catalog = writeCatalog else { return }
            var state = try SyncState.loadOrCreate(in: catalog)
            guard page.last > state.cursor else { return }
            let context = try SyncContext(schema: schema, catalog: catalog, path: store.path)
            let applier = RemoteChangeApplier(context: context)
            for entry in page.changes where entry.serverSeq > state.cursor {
                state.clock.observe(entry.change.hlc)
                // The client's own changes are applied here already.
                guard entry.clientId != state.clientID else { continue }
                try applier.apply(entry.change)
            }
            state.cursor = page.last
            try state.store(in: catalog)
        }
    }

    /// The outbox: the changes recorded and not yet acknowledged, in order.
    func pendingSyncChanges(limit: Int = .max) throws -> [SyncChange] {
        let catalog = try catalog()
        return try SyncTables.existing(in: catalog)?.pending(limit: limit) ?? []
    }

    /// The file's sync client id, once a change was recorded or downloaded.
    func syncClientID() throws -> String? { try SyncState.load(from: try catalog())?.clientID }
}
