import Foundation
import StrataStorage
internal import StrataSyncWire

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
    /// changes they describe. The changes are the ones the write noted as it made them (the catalog's
    /// ``WriteChangeLog``, set by ``startWrite(_:waiting:)`` while ``recordsSyncChanges``); the recorder's own
    /// writes (outbox, object states, sync ids) are not noted.
    func recordSyncChanges(in catalog: Catalog) throws {
        guard let log = catalog.changeLog else { return }
        catalog.changeLog = nil
        guard !log.isEmpty else { return }
        let context = try SyncContext(schema: schema, catalog: catalog, path: store.path)
        var recorder = ChangeRecorder(
            context: context, base: SyncBase(log: log, context: context),
            state: try SyncState.loadOrCreate(in: catalog), outbox: decodedOutbox)
        try recorder.run()
    }

    /// Applies a downloaded page of the server's change log in one write transaction under the conflict rules
    /// (``RemoteChangeApplier``), and stores its `last` as the download cursor in the same transaction. Nothing it
    /// changes enters the outbox; observers are notified as for any commit. Entries at or below the stored cursor
    /// (a page applied already) are skipped; the client's own changes update the conflict state only, and leave the
    /// outbox.
    func applyDownloadedPage(_ page: DownloadResponse) throws {
        try updateSyncState { catalog, state in
            guard page.last > state.cursor else { return }
            let context = try SyncContext(schema: schema, catalog: catalog, path: store.path)
            let pending = try context.tables.pending(decoded: decodedOutbox)
            var applier = RemoteChangeApplier(context: context, pending: pending)
            var returned: [Int64] = []
            for entry in page.changes where entry.serverSeq > state.cursor {
                state.clock.observe(entry.change.hlc)
                let isOwn = entry.clientId == state.clientID
                try applier.apply(entry.change, isOwn: isOwn)
                if isOwn { returned.append(entry.change.seq) }
            }
            try applier.finish()
            try context.tables.remove(returned)
            state.cursor = page.last
            if state.cursor >= state.acknowledgedThrough {
                // Every acknowledged change has come back (or was never logged): none is waiting any more.
                try context.tables.removeAll(upTo: state.acknowledged)
            }
        }
    }

    /// The outbox: the changes recorded and not yet back from the server, in order.
    func pendingSyncChanges(limit: Int = .max) throws -> [SyncChange] {
        let catalog = try catalog()
        return try SyncTables.existing(in: catalog)?.pending(limit: limit) ?? []
    }

    /// Records an upload's answer: changes up to `acknowledged` are not sent again.
    func acknowledgeSyncUpload(_ answer: UploadResponse, lastSent: Int64) throws {
        try updateSyncState { _, state in
            let acknowledged = min(answer.acknowledged, lastSent)
            guard acknowledged > state.acknowledged else { return }
            state.acknowledged = acknowledged
            state.acknowledgedThrough = max(state.acknowledgedThrough, answer.serverSeq)
        }
    }

    /// Runs `body` in a write transaction that records nothing in the outbox (the sync session's own bookkeeping),
    /// with the file's sync state loaded, and stores the state `body` leaves when it changed.
    private func updateSyncState(_ body: (Catalog, inout SyncState) throws -> Void) throws {
        let records = recordsSyncChanges
        recordsSyncChanges = false
        defer { recordsSyncChanges = records }
        try write {
            guard let catalog = writeCatalog else { return }
            let loaded = try SyncState.loadOrCreate(in: catalog)
            var state = loaded
            try body(catalog, &state)
            try state.store(in: catalog, over: loaded)
        }
    }

    /// The file's sync client id, once a change was recorded or downloaded.
    func syncClientID() throws -> String? { try SyncState.load(from: try catalog())?.clientID }
}
