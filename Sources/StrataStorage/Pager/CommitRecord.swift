/// The list, stored as a node and referenced from the meta slot, of every node written since the last durable
/// version and still reachable, each with its checksum; but the nodes a commit that spilled synced before writing
/// its own (`WriteTransaction.syncSpilledNodes`), which are on disk whenever its meta slot is.
///
/// It lets a commit need one sync instead of two: pages and meta slot are written together, then synced once.
/// If power fails before the sync completes, any subset of those writes may have reached the disk. Opening the
/// file checks the newest meta slot's commit record: if one listed node is missing or torn, that version is not
/// whole and the other slot, which nothing since its sync has touched, is used instead.
///
/// Payload: `count: UInt64`, then `count` × (`page`: UInt64, `checksum`: UInt64).
struct CommitRecord: Equatable, Sendable {
    /// A listed node: its first page and its checksum.
    struct Entry: Equatable, Sendable {
        var page: UInt64
        var checksum: UInt64
    }

    /// The listed nodes, sorted by page and kept sorted as nodes come and go: under `.batched` the record carries
    /// every node since the last sync (hundreds), and sorting them again at every commit cost more than the
    /// commit's own nodes.
    private(set) var entries: [Entry] = []

    /// Number of listed nodes.
    var count: Int { entries.count }

    /// Lists the node at `page` with `checksum`, replacing what was listed there.
    mutating func set(page: UInt64, checksum: UInt64) {
        let index = position(of: page)
        if index < entries.count, entries[index].page == page {
            entries[index].checksum = checksum
        } else {
            entries.insert(Entry(page: page, checksum: checksum), at: index)
        }
    }

    /// Stops listing the node at `page` (freed, so no version this record vouches for reaches it).
    mutating func remove(page: UInt64) {
        let index = position(of: page)
        if index < entries.count, entries[index].page == page { entries.remove(at: index) }
    }

    /// The index of the first entry at or after `page`.
    private func position(of page: UInt64) -> Int {
        entries.partitionIndex { $0.page >= page }
    }

    static let entryByteCount = 16

    /// Payload bytes for `entries` entries.
    static func byteCount(entries: Int) -> Int { 8 + entries * entryByteCount }

    /// Writes the record into `payload`, entries sorted by page.
    func encode(into payload: UnsafeMutableRawBufferPointer) {
        let base = payload.baseAddress!
        base.setU64(UInt64(entries.count), at: 0)
        for (index, entry) in entries.enumerated() {
            base.setU64(entry.page, at: 8 + index * Self.entryByteCount)
            base.setU64(entry.checksum, at: 16 + index * Self.entryByteCount)
        }
    }

    /// The record in `payload`.
    ///
    /// - Throws: `corruptFile` when the count does not fit the node.
    static func decode(_ payload: UnsafeRawBufferPointer, path: String, node: NodeRef) throws -> CommitRecord {
        guard payload.count >= 8, let base = payload.baseAddress else {
            throw StrataError.corruptFile(path: path, location: "commit record \(node)", detail: "the node is too short")
        }
        let count = base.u64(at: 0)
        guard count <= UInt64((payload.count - 8) / entryByteCount) else {
            throw StrataError.corruptFile(
                path: path, location: "commit record \(node)", detail: "it claims \(count) entries, more than fit")
        }
        var record = CommitRecord()
        for index in 0..<Int(count) {
            record.set(page: base.u64(at: 8 + index * entryByteCount), checksum: base.u64(at: 16 + index * entryByteCount))
        }
        return record
    }
}
