/// The list, stored as a node and referenced from the meta slot, of every node written since the last durable
/// version and still reachable, each with its checksum.
///
/// It lets a commit need one sync instead of two: pages and meta slot are written together, then synced once.
/// If power fails before the sync completes, any subset of those writes may have reached the disk. Opening the
/// file checks the newest meta slot's commit record: if one listed node is missing or torn, that version is not
/// whole and the other slot, which nothing since its sync has touched, is used instead.
///
/// Payload: `count: UInt64`, then `count` × (`page`: UInt64, `checksum`: UInt64).
struct CommitRecord: Equatable, Sendable {
    /// First page and checksum of each listed node, by page.
    var checksums: [UInt64: UInt64] = [:]

    static let entryByteCount = 16

    /// Payload bytes for `entries` entries.
    static func byteCount(entries: Int) -> Int { 8 + entries * entryByteCount }

    /// Writes the record into `payload`, entries sorted by page.
    func encode(into payload: UnsafeMutableRawBufferPointer) {
        let base = payload.baseAddress!
        base.setU64(UInt64(checksums.count), at: 0)
        for (index, entry) in checksums.sorted(by: { $0.key < $1.key }).enumerated() {
            base.setU64(entry.key, at: 8 + index * Self.entryByteCount)
            base.setU64(entry.value, at: 16 + index * Self.entryByteCount)
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
            record.checksums[base.u64(at: 8 + index * entryByteCount)] = base.u64(at: 16 + index * entryByteCount)
        }
        return record
    }
}
