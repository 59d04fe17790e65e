/// The full-text changes of a write transaction not yet written into a posting-block index's blocks: per term,
/// the objects whose posting is set or removed, in the order the table made the changes.
///
/// `Table` hands a full-text index one ``FullTextEntry`` per (term, object) to insert or remove; a posting-block
/// index collects them here and writes each term's blocks once per batch (`SortedIndex.applyPostingChanges`),
/// instead of one tree insert per entry. Postings are kept flat (keys, lengths, positions in shared arrays) so a
/// bulk insert's batch costs about 20 bytes a posting.
struct PostingChanges {
    /// One term's changes, in the order they were made.
    struct TermChanges {
        var keys: [Int64] = []
        /// The object's token count, or -1 when its posting is removed.
        var lengths: [Int32] = []
        /// Where each change's positions end in `positions`.
        var positionEnds: [Int32] = []
        var positions: [Int32] = []

        mutating func append(key: Int64, length: Int, positions found: [Int32]) {
            keys.append(key)
            lengths.append(Int32(truncatingIfNeeded: length))
            positions += found
            positionEnds.append(Int32(truncatingIfNeeded: positions.count))
        }
    }

    /// An encoded term as a dictionary key, hashed in one call over its bytes (not byte by byte).
    struct Term: Hashable {
        var bytes: [UInt8]

        func hash(into hasher: inout Hasher) {
            bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
        }
    }

    /// The changes by encoded term (`FullTextEntry.termPrefix`).
    private var terms: [Term: TermChanges] = [:]
    /// The number of changes held.
    private(set) var count = 0

    /// Whether no change is held.
    var isEmpty: Bool { count == 0 }

    /// Records that `entry` (a posting or length entry) is now in the index (`present`) or no longer is; `false`
    /// for bytes that are not a full-text entry.
    mutating func record(_ entry: [UInt8], present: Bool) -> Bool {
        entry.withUnsafeBytes { raw in
            guard let end = FullTextEntry.termEnd(of: raw), raw.count >= end + 8 else { return false }
            let key = ByteOrder.int64(fromKey: UnsafeRawBufferPointer(rebasing: raw[end..<end + 8]))
            var offset = end + 8
            var length = -1
            var found: [Int32] = []
            if present {
                guard let tokens = FullTextEntry.readVarint(raw, &offset) else { return false }
                length = tokens
                // A posting (not the empty term's length entry) carries its frequency and positions.
                if end > 3 {
                    guard let frequency = FullTextEntry.readVarint(raw, &offset) else { return false }
                    var position = 0
                    for _ in 0..<frequency {
                        guard let gap = FullTextEntry.readVarint(raw, &offset) else { return false }
                        position += gap
                        found.append(Int32(truncatingIfNeeded: position))
                    }
                }
            }
            terms[Term(bytes: Array(raw[0..<end])), default: TermChanges()]
                .append(key: key, length: length, positions: found)
            count += 1
            return true
        }
    }

    /// Drops every change.
    mutating func removeAll() {
        terms = [:]
        count = 0
    }

    /// Takes every change out: per term (in byte order), the last change of each object in key order, a
    /// posting to set or `nil` to remove.
    mutating func take() -> [(term: [UInt8], changes: [(key: Int64, posting: PostingBlock.Posting?)])] {
        let taken = terms
        removeAll()
        var result: [(term: [UInt8], changes: [(key: Int64, posting: PostingBlock.Posting?)])] = []
        result.reserveCapacity(taken.count)
        for (term, changes) in taken {
            // Stable by key, so the last change of an object is the last of its run.
            let order = changes.keys.indices.sorted {
                changes.keys[$0] != changes.keys[$1] ? changes.keys[$0] < changes.keys[$1] : $0 < $1
            }
            var last: [(key: Int64, posting: PostingBlock.Posting?)] = []
            last.reserveCapacity(order.count)
            for (offset, index) in order.enumerated() {
                if offset + 1 < order.count, changes.keys[order[offset + 1]] == changes.keys[index] { continue }
                guard changes.lengths[index] >= 0 else {
                    last.append((changes.keys[index], nil))
                    continue
                }
                let start = index == 0 ? 0 : Int(changes.positionEnds[index - 1])
                let positions = changes.positions[start..<Int(changes.positionEnds[index])].map(Int.init)
                last.append(
                    (changes.keys[index],
                     PostingBlock.Posting(key: changes.keys[index], length: Int(changes.lengths[index]), positions: positions)))
            }
            result.append((term.bytes, last))
        }
        result.sort { ByteOrder.compare($0.term, $1.term) < 0 }
        return result
    }
}
