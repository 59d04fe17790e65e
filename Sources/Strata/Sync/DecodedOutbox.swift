internal import StrataSyncWire

/// The outbox entries a database has decoded, kept between the pages it applies and the writes it records
/// (``RemoteChangeApplier`` needs every change still waiting, and the outbox changes little from one page to the
/// next): each entry is decoded once, not once per page. An entry is reused only while its stored JSON is the very
/// text it was decoded from, so the cache can never answer for a different file or a rewritten entry; entries that
/// left the outbox are dropped at the next full read.
///
/// It also answers ``hasPendingCreate(of:in:)`` for ``ChangeRecorder``: an object created here and not yet back
/// from the server has no row in `~sync objects` (docs/SYNC.md, "The client"), and the `create` waiting in the
/// outbox is what tells a later update or delete of it that the server will know it.
final class DecodedOutbox {
    private var entries: [Int64: (text: String, change: SyncChange)] = [:]
    /// The `create` entries seen in the outbox, by ``SyncTables/objectID(model:key:)``: the latest one's number and
    /// stored text.
    private var creates: [String: (seq: Int64, text: String)] = [:]
    /// Every outbox entry numbered up to this was looked at for ``creates``.
    private var scannedThrough: Int64 = 0

    /// An empty cache.
    init() {}

    /// The change stored under `seq` as `text`: the one decoded before when the text is the same.
    func change(_ seq: Int64, text: String, keep kept: inout [Int64: (text: String, change: SyncChange)]) throws
        -> SyncChange
    {
        if let known = entries[seq], known.text == text {
            kept[seq] = known
            return known.change
        }
        let change = try SyncChange(wireJSON: text.utf8)
        kept[seq] = (text, change)
        return change
    }

    /// Keeps `kept` (the entries of one full read of the outbox) and forgets the rest.
    func replace(with kept: [Int64: (text: String, change: SyncChange)]) { entries = kept }

    /// Whether `tables`' outbox holds a `create` of the object with ``SyncTables/objectID(model:key:)`` `id`. Reads
    /// only the entries numbered above those it looked at before (numbers only grow, and an entry is never
    /// rewritten), and confirms a remembered `create` by reading its entry again: one that left the outbox (back
    /// from the server, which wrote the object's state row in the same transaction) no longer counts.
    func hasPendingCreate(of id: String, in tables: SyncTables) throws -> Bool {
        if try confirmed(id, in: tables) { return true }
        try tables.forEachEntry(above: scannedThrough) { seq, text in
            scannedThrough = max(scannedThrough, seq)
            // Only a `create` matters: an entry without the word is none, whatever its JSON's spacing.
            guard text.contains("create") else { return }
            let change = try entries[seq].flatMap { $0.text == text ? $0.change : nil }
                ?? SyncChange(wireJSON: text.utf8)
            guard change.op == .create else { return }
            creates[SyncTables.objectID(model: change.model, key: change.object)] = (seq, text)
        }
        return try confirmed(id, in: tables)
    }

    private func confirmed(_ id: String, in tables: SyncTables) throws -> Bool {
        guard let known = creates[id] else { return false }
        if try tables.entryText(known.seq) == known.text { return true }
        creates[id] = nil
        return false
    }
}
