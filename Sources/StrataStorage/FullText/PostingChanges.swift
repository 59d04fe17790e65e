/// The full-text changes of a write transaction not yet written into a posting-block index's blocks: per term,
/// the objects whose posting is set or removed, in the order the table made the changes.
///
/// `Table` hands a posting-block index each inserted object's text (``recordText(_:key:)``: tokenized once, each
/// token appended to its term's changes) and, for changes and deletes, one ``FullTextEntry`` per (term, object)
/// to insert or remove (``record(_:present:)``). The index writes each term's blocks once per batch
/// (`SortedIndex.applyPostingChanges`) instead of one tree insert per posting. Postings are kept flat (keys,
/// lengths, positions in shared arrays per term) so a bulk insert's batch costs about 20 bytes a posting.
struct PostingChanges {
    /// One term's changes, in the order they were made.
    struct TermChanges {
        var keys: [Int64] = []
        /// The object's token count, or -1 when its posting is removed.
        var lengths: [Int32] = []
        /// Where each change's positions end in `positions`.
        var positionEnds: [Int32] = []
        var positions: [Int32] = []
        /// The ``PostingChanges/texts`` count when a text last added a posting here (so that text's next
        /// occurrence of the term extends that posting).
        var lastText = -1

        mutating func append(key: Int64, length: Int, positions found: [Int32]) {
            keys.append(key)
            lengths.append(Int32(truncatingIfNeeded: length))
            positions += found
            positionEnds.append(Int32(truncatingIfNeeded: positions.count))
            lastText = -1
        }

        /// Adds an occurrence at `position` of the term in text number `text` (of object `key`, `length` tokens).
        mutating func add(position: Int, key: Int64, length: Int, text: Int) {
            if lastText != text {
                keys.append(key)
                lengths.append(Int32(truncatingIfNeeded: length))
                positionEnds.append(Int32(truncatingIfNeeded: positions.count))
                lastText = text
            }
            positions.append(Int32(truncatingIfNeeded: position))
            positionEnds[positionEnds.count - 1] += 1
        }
    }

    /// The changes by folded term; the empty term's are the document lengths.
    private var terms: [String: TermChanges] = [:]
    /// The number of changes held (postings set or removed).
    private(set) var count = 0
    /// How many texts ``recordText(_:key:)`` has taken.
    private var texts = 0

    /// Whether no change is held.
    var isEmpty: Bool { count == 0 }

    /// Records the postings of a newly inserted object's text (none for `nil` or text without tokens), as the
    /// entries `FullTextEntry.entries(for:key:)` gives would, without making them.
    mutating func recordText(_ text: StorageValue, key: ObjectKey) {
        guard case .string(let string) = text else { return }
        let tokens = TextTokenizer.tokens(in: string)
        guard !tokens.isEmpty else { return }
        texts += 1
        let length = tokens.count
        for token in tokens {
            terms[token.term, default: TermChanges()]
                .add(position: token.position, key: key.rawValue, length: length, text: texts)
        }
        terms["", default: TermChanges()].append(key: key.rawValue, length: length, positions: [])
        count += length + 1
    }

    /// Records that `entry` (a posting or length entry) is now in the index (`present`) or no longer is; `false`
    /// for bytes that are not a full-text entry.
    mutating func record(_ entry: [UInt8], present: Bool) -> Bool {
        entry.withUnsafeBytes { raw in
            guard let end = FullTextEntry.termEnd(of: raw), raw.count >= end + 8,
                let term = end == FullTextEntry.lengthPrefix.count ? "" : FullTextEntry.term(of: raw)
            else { return false }
            let key = ByteOrder.int64(fromKey: UnsafeRawBufferPointer(rebasing: raw[end..<end + 8]))
            var offset = end + 8
            var length = -1
            var found: [Int32] = []
            if present {
                guard let tokens = FullTextEntry.readVarint(raw, &offset) else { return false }
                length = tokens
                // A posting (not the empty term's length entry) carries its frequency and positions.
                if !term.isEmpty {
                    guard let frequency = FullTextEntry.readVarint(raw, &offset) else { return false }
                    var position = 0
                    for _ in 0..<frequency {
                        guard let gap = FullTextEntry.readVarint(raw, &offset) else { return false }
                        position += gap
                        found.append(Int32(truncatingIfNeeded: position))
                    }
                }
            }
            terms[term, default: TermChanges()].append(key: key, length: length, positions: found)
            count += 1
            return true
        }
    }

    /// Drops every change.
    mutating func removeAll() {
        terms = [:]
        count = 0
    }

    /// Takes every change out: per encoded term (`FullTextEntry.termPrefix`, in byte order), the last change of
    /// each object in key order, a posting to set or `nil` to remove.
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
                let posting = PostingBlock.Posting(
                    key: changes.keys[index], length: Int(changes.lengths[index]), positions: positions)
                last.append((changes.keys[index], posting))
            }
            result.append((FullTextEntry.termPrefix(term), last))
        }
        result.sort { ByteOrder.compare($0.term, $1.term) < 0 }
        return result
    }
}
