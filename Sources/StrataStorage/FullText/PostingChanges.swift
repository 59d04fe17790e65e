/// The full-text changes of a write transaction not yet written into a posting-block index's blocks: per term,
/// the objects whose posting is set or removed, in the order the table made the changes.
///
/// `Table` hands a posting-block index each inserted object's text (``recordText(_:key:)``: tokenized once) and,
/// for changes and deletes, one ``FullTextEntry`` per (term, object) to insert or remove (``record(_:present:)``).
/// The index writes each term's blocks once per batch (`SortedIndex.applyPostingChanges`) instead of one tree
/// insert per posting.
///
/// Everything is kept in a few flat arrays that only grow at their ends: each text (or recorded entry) is one row
/// of `textKeys`/`textLengths`, and each occurrence of a term one row of `recordTerms`/`recordOccurrences` (12
/// bytes: the term's number, the text's number and the position), with terms numbered by their bytes through one
/// ``TermTable``. A bulk insert then costs a hash lookup and two appends per token, where arrays per term touched
/// a different, cold array at every token; Latin and Han text is tokenized straight into bytes
/// (``TextTokenizer/simpleTerms(in:into:folds:trigrams:)``) and its terms numbered from those bytes
/// (``TermTable/appendNumbers(of:ends:to:)``).
/// ``take()`` groups the rows by term with a counting sort over the terms' ranks in byte order, which keeps their
/// order (a term's rows of one text stay together, in position order) and lays the terms out in the order the
/// batch hands them on: the scatter writes one 8-byte value per row, and the walk after it reads every array in
/// order.
struct PostingChanges {
    /// Per text or recorded entry: the object's key.
    private var textKeys: [Int64] = []
    /// Per text or recorded entry: the object's token count, or -1 when its posting is removed.
    private var textLengths: [Int32] = []
    /// Per row: the term's number (in `terms`).
    private var recordTerms: [Int32] = []
    /// Per row: the text's number (in `textKeys`) in the high 32 bits, the occurrence's position in the low 32
    /// (its bit pattern: -1 for a posting without positions, a document length or a removal).
    private var recordOccurrences: [UInt64] = []
    /// The terms held, numbered; the empty term's postings are the document lengths.
    private var terms = TermTable()
    /// The empty term's number in `terms`, once numbered.
    private var emptyTerm: Int32?
    /// Folded forms of the words already seen (kept across batches: words repeat).
    private var folds = TextTokenizer.FoldCache()
    /// The tokenizer's space, kept from text to text.
    private var scratch = TextTokenizer.TermScratch()
    /// Whether runs of unspaced scripts are cut into trigrams (`IndexSpec.isTrigrams`), else into pairs.
    let trigrams: Bool
    /// The entries of the open last blocks (bound all `FF`) kept out of the tree between the batches of one write
    /// transaction (`SortedIndex.applyPostingChanges(holdingOpenBlocks:)`), at most one per term, in byte order
    /// (so in the order of their terms): the next batch appends to a term's block without finding it in the tree,
    /// reading it back or removing it, and finds it by walking this list beside its own terms, which are in the
    /// same order (no hash of a term's bytes). The tree holds none of their keys, and every key a held block holds
    /// is above the bounds of its term's blocks in the tree.
    private(set) var heldBlocks: [[UInt8]] = []

    /// No change yet, for an index that cuts runs of unspaced scripts into trigrams (`trigrams`) or pairs.
    init(trigrams: Bool) { self.trigrams = trigrams }

    /// The number of rows held (occurrences, document lengths and removals): what bounds a batch's memory.
    var count: Int { recordTerms.count }

    /// Whether no change and no open block is held.
    var isEmpty: Bool { recordTerms.isEmpty && heldBlocks.isEmpty }

    /// Takes the held open blocks out, in byte order (see ``heldBlocks``).
    mutating func takeHeldBlocks() -> [[UInt8]] {
        defer { heldBlocks = [] }
        return heldBlocks
    }

    /// Holds `entry`, the open last block of its term, out of the tree until the next batch (see ``heldBlocks``):
    /// blocks are held in byte order, each after every one held before it.
    mutating func hold(_ entry: [UInt8]) {
        assert(heldBlocks.last.map { ByteOrder.compare($0, entry) < 0 } ?? true, "held blocks out of order")
        heldBlocks.append(entry)
    }

    /// Records the postings of a newly inserted object's text (none for `nil` or text without tokens), as the
    /// entries `FullTextEntry.entries(for:key:trigrams:)` gives would, without making them.
    mutating func recordText(_ text: StorageValue, key: ObjectKey) {
        guard case .string(let string) = text else { return }
        let textNumber = Int32(truncatingIfNeeded: textKeys.count)
        if TextTokenizer.simpleTerms(in: string, into: &scratch, folds: &folds, trigrams: trigrams) {
            // Latin or Han text: its terms' bytes numbered straight from the tokenizer's space, term k at position k.
            let ends = scratch.ends
            guard !ends.isEmpty else { return }
            textKeys.append(key.rawValue)
            textLengths.append(Int32(truncatingIfNeeded: ends.count))
            let bytes = scratch.bytes
            bytes.withUnsafeBufferPointer { bytes in
                ends.withUnsafeBufferPointer { ends in terms.appendNumbers(of: bytes, ends: ends, to: &recordTerms) }
            }
            let text = UInt64(UInt32(bitPattern: textNumber)) << 32
            for position in 0..<UInt64(ends.count) { recordOccurrences.append(text | position) }
        } else {
            let tokens = TextTokenizer.tokens(in: string, folds: &folds, trigrams: trigrams)
            guard !tokens.isEmpty else { return }
            textKeys.append(key.rawValue)
            textLengths.append(Int32(truncatingIfNeeded: tokens.count))
            for token in tokens {
                append(
                    term: terms.number(of: token.term), text: textNumber,
                    position: Int32(truncatingIfNeeded: token.position))
            }
        }
        append(term: lengthTerm(), text: textNumber, position: -1)
    }

    /// The number of the empty term (the document lengths), numbered once per batch.
    private mutating func lengthTerm() -> Int32 {
        if let emptyTerm { return emptyTerm }
        let number = terms.number(of: "")
        emptyTerm = number
        return number
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
            let textNumber = Int32(truncatingIfNeeded: textKeys.count)
            textKeys.append(key)
            textLengths.append(Int32(truncatingIfNeeded: length))
            let termNumber = terms.number(of: term)
            if found.isEmpty { append(term: termNumber, text: textNumber, position: -1) }
            for position in found { append(term: termNumber, text: textNumber, position: position) }
            return true
        }
    }

    /// Drops every change and held block.
    mutating func removeAll() {
        removeRows()
        heldBlocks = []
    }

    /// Drops every change (not the held blocks).
    private mutating func removeRows() {
        textKeys = []
        textLengths = []
        recordTerms = []
        recordOccurrences = []
        terms = TermTable()
        emptyTerm = nil
    }

    /// Takes every change out (the held blocks stay): per encoded term (`FullTextEntry.termPrefix`, in byte
    /// order), the last change of each object in key order, a posting to set or a removal, as the flat rows of a
    /// ``PostingBatch``.
    mutating func take() -> PostingBatch {
        let termCount = terms.count
        let order = self.terms.numbersInByteOrder()
        // Rows grouped by the rank of their term in byte order (a counting sort, stable): rank r's rows are
        // `occurrences[starts[r]..<starts[r + 1]]`. Scattered once, so the walk below reads them in order.
        var rank = [Int32](repeating: 0, count: termCount)
        for (position, term) in order.enumerated() { rank[term] = Int32(truncatingIfNeeded: position) }
        var starts = [Int32](repeating: 0, count: termCount + 1)
        var occurrences = [UInt64](repeating: 0, count: recordTerms.count)
        rank.withUnsafeBufferPointer { rank in
            starts.withUnsafeMutableBufferPointer { starts in
                recordTerms.withUnsafeMutableBufferPointer { recordTerms in
                    // Each row's term replaced by its rank, counted.
                    for row in recordTerms.indices {
                        let ranked = rank[Int(recordTerms[row])]
                        recordTerms[row] = ranked
                        starts[Int(ranked) + 1] &+= 1
                    }
                }
                for ranked in 0..<termCount { starts[ranked + 1] &+= starts[ranked] }
                var next = Array(starts)
                next.withUnsafeMutableBufferPointer { next in
                    occurrences.withUnsafeMutableBufferPointer { occurrences in
                        recordTerms.withUnsafeBufferPointer { recordTerms in
                            recordOccurrences.withUnsafeBufferPointer { recordOccurrences in
                                for row in recordTerms.indices {
                                    let ranked = Int(recordTerms[row])
                                    let slot = Int(next[ranked])
                                    occurrences[slot] = recordOccurrences[row]
                                    next[ranked] = Int32(truncatingIfNeeded: slot + 1)
                                }
                            }
                        }
                    }
                }
            }
        }
        // Scattered: the rows' own arrays are not read again (their memory goes before the batch grows).
        let rowCount = recordTerms.count
        recordTerms = []
        recordOccurrences = []
        var batch = PostingBatch()
        batch.terms.reserveCapacity(termCount)
        batch.termEnds.reserveCapacity(termCount)
        batch.keys.reserveCapacity(textKeys.count)
        batch.lengths.reserveCapacity(textKeys.count)
        batch.positionEnds.reserveCapacity(textKeys.count)
        batch.positions.reserveCapacity(rowCount)
        occurrences.withUnsafeBufferPointer { occurrences in
            for (ranked, term) in order.enumerated() {
                var row = Int(starts[ranked])
                let end = Int(starts[ranked + 1])
                let first = batch.keys.count
                var isAscending = true
                var previous = Int64.min
                while row < end {
                    let text = occurrences[row] >> 32
                    let key = textKeys[Int(text)]
                    if batch.keys.count > first, previous >= key { isAscending = false }
                    previous = key
                    batch.keys.append(key)
                    batch.lengths.append(textLengths[Int(text)])
                    // A term's rows of one text follow each other, in position order.
                    while row < end, occurrences[row] >> 32 == text {
                        let position = Int32(truncatingIfNeeded: occurrences[row])
                        if position >= 0 { batch.positions.append(position) }
                        row += 1
                    }
                    batch.positionEnds.append(Int32(truncatingIfNeeded: batch.positions.count))
                }
                if !isAscending { Self.keepLastPerKey(&batch, from: first) }
                batch.endTerm(self.terms.encoded(term))
            }
        }
        removeRows()
        return batch
    }

    /// Replaces the rows of `batch` from `first` (the current term's, in the order the changes were made) by the
    /// last change of each object, in key order.
    private static func keepLastPerKey(_ batch: inout PostingBatch, from first: Int) {
        let rows = first..<batch.keys.count
        // Stable by key, so the last change of an object is the last of its run.
        let order = rows.sorted { batch.keys[$0] != batch.keys[$1] ? batch.keys[$0] < batch.keys[$1] : $0 < $1 }
        var kept = PostingBatch()
        for (offset, row) in order.enumerated() {
            if offset + 1 < order.count, batch.keys[order[offset + 1]] == batch.keys[row] { continue }
            kept.append(
                key: batch.keys[row], length: batch.lengths[row], positions: batch.positions[batch.positions(of: row)])
        }
        let positionStart = first == 0 ? 0 : Int(batch.positionEnds[first - 1])
        batch.keys.removeSubrange(rows)
        batch.lengths.removeSubrange(rows)
        batch.positionEnds.removeSubrange(rows)
        batch.positions.removeSubrange(positionStart...)
        for row in kept.keys.indices {
            batch.append(
                key: kept.keys[row], length: kept.lengths[row], positions: kept.positions[kept.positions(of: row)])
        }
    }

    private mutating func append(term: Int32, text: Int32, position: Int32) {
        recordTerms.append(term)
        recordOccurrences.append(UInt64(UInt32(bitPattern: text)) << 32 | UInt64(UInt32(bitPattern: position)))
    }
}
