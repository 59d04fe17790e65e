internal import StrataSyncWire

/// The outbox entries a database has decoded, kept between the pages it applies (``RemoteChangeApplier`` needs
/// every change still waiting, and the outbox changes little from one page to the next): each entry is decoded
/// once, not once per page. An entry is reused only while its stored JSON is the very text it was decoded from, so
/// the cache can never answer for a different file or a rewritten entry; entries that left the outbox are
/// dropped at the next read.
final class DecodedOutbox {
    private var entries: [Int64: (text: String, change: SyncChange)] = [:]

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
}
