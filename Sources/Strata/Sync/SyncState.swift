import Foundation
import StrataStorage

/// The client's sync bookkeeping kept in the file's catalog metadata (docs/FILE-FORMAT.md, "Sync metadata"): the
/// client id, the next change number, the hybrid clock and the download cursor. Read and written inside write
/// transactions, so each moves atomically with the changes it describes.
struct SyncState: Hashable, Sendable {
    /// The metadata keys.
    static let clientIDKey = "strata.sync.clientId"
    static let nextSeqKey = "strata.sync.nextSeq"
    static let clockKey = "strata.sync.clock"
    static let cursorKey = "strata.sync.cursor"
    static let acknowledgedKey = "strata.sync.acknowledged"
    static let acknowledgedThroughKey = "strata.sync.acknowledgedThrough"

    /// The file's client id: a UUID chosen the first time the file records a change.
    var clientID: String
    /// The number the next outbox entry gets.
    var nextSeq: Int64
    /// The hybrid clock.
    var clock: HybridClock
    /// The last downloaded server sequence number (`after` of the next download).
    var cursor: Int64
    /// The highest change number the server acknowledged: outbox entries up to it are not sent again, and stay
    /// until the download brings them back (they are the client's own changes still to be placed in the server's
    /// order).
    var acknowledged: Int64 = 0
    /// The server's log position when it acknowledged ``acknowledged``: once the download passes it, every
    /// acknowledged change has come back.
    var acknowledgedThrough: Int64 = 0

    /// The state recorded in `catalog`, or `nil` when the file never synced.
    static func load(from catalog: Catalog) throws -> SyncState? {
        guard let id = try catalog.metadata(forKey: clientIDKey) else { return nil }
        let clientID = String(decoding: id, as: UTF8.self)
        let nextSeq = try number(catalog, nextSeqKey) ?? 1
        let cursor = try number(catalog, cursorKey) ?? 0
        var clock = HybridClock(wall: 0, counter: 0, clientID: clientID)
        if let text = try catalog.metadata(forKey: clockKey) {
            let parts = String(decoding: text, as: UTF8.self).split(separator: "-")
            if parts.count == 2, let wall = Int64(parts[0]), let counter = Int64(parts[1]) {
                clock.wall = wall
                clock.counter = counter
            }
        }
        var state = SyncState(clientID: clientID, nextSeq: nextSeq, clock: clock, cursor: cursor)
        state.acknowledged = try number(catalog, acknowledgedKey) ?? 0
        state.acknowledgedThrough = try number(catalog, acknowledgedThroughKey) ?? 0
        return state
    }

    /// The recorded state, or a new one (with a new client id) written into `catalog`, a write transaction's.
    static func loadOrCreate(in catalog: Catalog) throws -> SyncState {
        if let state = try load(from: catalog) { return state }
        let id = UUID().uuidString.lowercased()
        let state = SyncState(clientID: id, nextSeq: 1, clock: HybridClock(wall: 0, counter: 0, clientID: id), cursor: 0)
        try state.store(in: catalog)
        return state
    }

    /// Writes the state into `catalog` (a write transaction's): every value, or with `previous` (the state as the
    /// transaction loaded it, of the same client) only those that differ from it. A recorded write moves the next
    /// change number and the clock only, and the catalog's metadata costs less to keep when fewer values change.
    func store(in catalog: Catalog, over previous: SyncState? = nil) throws {
        let previous = previous?.clientID == clientID ? previous : nil
        guard self != previous else { return }
        let before = previous?.metadataValues
        for (index, value) in metadataValues.enumerated() where before?[index].text != value.text {
            try catalog.setMetadata(Array(value.text.utf8), forKey: value.key)
        }
    }

    /// The state's values as the catalog's metadata keeps them, each with its key, always in the same order.
    private var metadataValues: [(key: String, text: String)] {
        [
            (Self.clientIDKey, clientID), (Self.nextSeqKey, String(nextSeq)),
            (Self.clockKey, "\(clock.wall)-\(clock.counter)"), (Self.cursorKey, String(cursor)),
            (Self.acknowledgedKey, String(acknowledged)), (Self.acknowledgedThroughKey, String(acknowledgedThrough)),
        ]
    }

    private static func number(_ catalog: Catalog, _ key: String) throws -> Int64? {
        guard let bytes = try catalog.metadata(forKey: key) else { return nil }
        return Int64(String(decoding: bytes, as: UTF8.self))
    }
}
