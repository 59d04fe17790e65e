/// A leaf of an index tree: sorted, unique byte-string entries (value encodings followed by the object key).
///
/// Stored layout: magic `SIX1`, count u32, `count` cumulative end offsets u32, then the entry bytes.
final class IndexLeaf: TreeLeaf {
    /// Index entries are keyed by encoded values (an 8-byte search key is a value's prefix, not an object key).
    static var keysAreObjectKeys: Bool { false }

    static let magic: UInt32 = 0x3158_4953  // "SIX1"
    /// Entry bytes beyond which a leaf splits (about one 4 KiB page with its header).
    static let maxBytes = 4000
    static let minBytes = 1000

    /// The entries in order, back to back in one buffer (decoding a stored leaf copies its bytes and offsets).
    private(set) var entries: PackedEntries
    var origin: NodeRef = .none
    var isDirty = false
    var lastInsertWasAppend = false
    /// Whether the last change was a merge of a sweep (`SortedIndex.merge(sorted:sweep:)`): a writer whose batch
    /// hands each leaf all of its new entries at once, in order, as the posting blocks' writer does. A split then
    /// keeps this leaf full, as after an append: no later entry of the batch comes back to it.
    var lastChangeWasSweep = false

    init(entries: PackedEntries) {
        self.entries = entries
    }

    /// The size the leaf counts against its limits: the entries' bytes and 4 bytes (an offset) per entry.
    var byteCount: Int { entries.byteCount + 4 * entries.count }

    static func load(_ raw: UnsafeRawBufferPointer, ref: NodeRef, context: Void) throws -> IndexLeaf {
        IndexLeaf(entries: try IndexLeafView(raw, ref: ref).packedEntries())
    }

    static func empty(context: Void) -> IndexLeaf { IndexLeaf(entries: PackedEntries()) }

    var entryCount: Int { entries.count }
    var firstKey: [UInt8] { entries.isEmpty ? [] : Array(entries.entry(0)) }
    var fill: LeafFill {
        let bytes = byteCount
        if bytes > IndexLeaf.maxBytes && entries.count > 1 { return .overfull }
        return bytes < IndexLeaf.minBytes ? .underfull : .fitting
    }

    /// Where `entry` is or would go.
    func position(of entry: UnsafeRawBufferPointer) -> (index: Int, found: Bool) {
        let index = entries.lowerBound(entry)
        return (index, index < entries.count && ByteOrder.compare(entries.entry(index), entry) == 0)
    }

    /// The position of the first entry ≥ `target` (`entries.count` when every entry sorts before it).
    func lowerBound(_ target: UnsafeRawBufferPointer) -> Int {
        entries.lowerBound(target)
    }

    func insert(_ entry: [UInt8]) {
        entry.withUnsafeBytes { entry in
            let (index, found) = position(of: entry)
            guard !found else { return }
            lastInsertWasAppend = index == entries.count
            lastChangeWasSweep = false
            entries.insert(entry, at: index)
        }
    }

    /// Merges the sorted, distinct `batch[start...]` entries that sort before `upper` (the next leaf's first key;
    /// `nil` for the last leaf), stopping once the leaf would pass one and a half times its size limit (so one
    /// split brings both halves back within it). Takes at least one entry; entries already present are skipped.
    /// Runs of the leaf's own entries between two new ones are copied whole.
    /// - Returns: Where the rest of the batch starts.
    func merge(_ batch: SortedEntries, from start: Int, below upper: BranchKey?, sweep: Bool = false) -> Int {
        let limit = IndexLeaf.maxBytes + IndexLeaf.maxBytes / 2
        var end = start
        var added = 0
        while end < batch.count {
            let entry = batch[end]
            let size = entry.count + 4
            if end > start, byteCount + added + size > limit { break }
            if end > start, let upper, upper.compare(entry) <= 0 { break }
            added += size
            end += 1
        }
        let old = entries
        lastInsertWasAppend = old.isEmpty || ByteOrder.compare(batch[start], old.entry(old.count - 1)) > 0
        lastChangeWasSweep = sweep
        let merged = PackedEntries(reservingEntries: old.count + end - start, bytes: old.byteCount + added)
        var kept = 0
        for new in start..<end {
            let entry = batch[new]
            let next = old.lowerBound(entry, from: kept)
            merged.append(old, kept..<next)
            kept = next
            if kept < old.count, ByteOrder.compare(old.entry(kept), entry) == 0 { continue }
            merged.append(entry)
        }
        merged.append(old, kept..<old.count)
        entries = merged
        return end
    }

    @discardableResult
    func remove(_ entry: [UInt8]) -> Bool {
        entry.withUnsafeBytes { entry in
            let (index, found) = position(of: entry)
            guard found else { return false }
            entries.remove(at: index)
            return true
        }
    }

    func splitOff() -> IndexLeaf {
        var split = entries.count / 2
        if lastInsertWasAppend || lastChangeWasSweep {
            // Sequential inserts: keep this leaf nearly full and start the next one.
            split = entries.count - 1
            for index in 0..<entries.count where entries.end(index) + 4 * (index + 1) > IndexLeaf.maxBytes {
                split = max(1, index)
                break
            }
        }
        let upper = IndexLeaf(entries: entries.split(at: split))
        upper.isDirty = true
        return upper
    }

    func canAbsorb(_ other: IndexLeaf) -> Bool { byteCount + other.byteCount <= IndexLeaf.maxBytes }

    func absorb(_ other: IndexLeaf) {
        entries.append(other.entries, 0..<other.entries.count)
    }

    func encode(in writer: NodeWriter) throws -> NodeRef {
        let count = entries.count
        let (ref, target) = try writer.allocate(byteCount: 8 + 4 * count + entries.byteCount)
        target.storeBytes(of: IndexLeaf.magic.littleEndian, toByteOffset: 0, as: UInt32.self)
        target.storeBytes(of: UInt32(count).littleEndian, toByteOffset: 4, as: UInt32.self)
        for index in 0..<count {
            target.storeBytes(of: UInt32(entries.end(index)).littleEndian, toByteOffset: 8 + 4 * index, as: UInt32.self)
        }
        let data = entries.bytes(of: 0..<count)
        if let source = data.baseAddress, let destination = target.baseAddress {
            (destination + 8 + 4 * count).copyMemory(from: source, byteCount: data.count)
        }
        return ref
    }
}

/// A sorted run of distinct index entries to merge into a tree (``IndexLeaf/merge(_:from:below:)``): entries of a
/// `PackedEntries` buffer taken in the order of a permutation, so sorting moves 24-byte records, not the entries.
///
/// Several runs merge into one (``init(merging:)``) without copying an entry: each position of the permutation
/// then names its buffer in its top bits (``sourceShift``) and the entry's place in that buffer below them.
struct SortedEntries {
    /// The buffer the first run's entries are in (the only one unless runs were merged).
    private let entries: PackedEntries
    /// The buffers of the second and later merged runs, in order (their source numbers are 1, 2, …).
    private let others: [PackedEntries]
    private let order: [UInt32]

    /// The bit of an order position where the number of its buffer begins: a buffer holds fewer than 2^27
    /// entries (a pending buffer of 64 MiB holds at most about 5 million), and at most 32 runs merge.
    static let sourceShift: UInt32 = 27
    private static let positionMask: UInt32 = (1 << sourceShift) - 1

    init(entries: PackedEntries, order: [UInt32]) {
        precondition(entries.count <= Int(SortedEntries.positionMask) + 1, "a sorted run holds too many entries")
        self.init(entries: entries, others: [], order: order)
    }

    private init(entries: PackedEntries, others: [PackedEntries], order: [UInt32]) {
        self.entries = entries
        self.others = others
        self.order = order
    }

    /// `entries`, already in byte order without repeats, packed into one buffer.
    init(inOrder entries: [[UInt8]]) {
        let packed = PackedEntries(reservingEntries: entries.count, bytes: entries.reduce(0) { $0 + $1.count })
        for entry in entries { entry.withUnsafeBytes { packed.append($0) } }
        self.init(inOrder: packed)
    }

    /// The entries of `packed`, already in byte order without repeats.
    init(inOrder packed: PackedEntries) {
        self.init(entries: packed, order: (0..<UInt32(packed.count)).map { $0 })
    }

    /// The entries of `runs` (each one buffer's, as ``PendingEntries/sorted()`` gives them) in one byte order
    /// without repeats: a merge that compares the runs' heads and moves positions, not entries. Each run is read
    /// front to back when its entries lie in its buffer in order, as ``PendingEntries/sorted()`` lays them out.
    init(merging runs: [SortedEntries]) {
        precondition(runs.count <= 1 << (32 - SortedEntries.sourceShift), "too many sorted runs to merge")
        precondition(runs.allSatisfy { $0.others.isEmpty }, "merged runs are merged again")
        guard let first = runs.first else {
            self.init(entries: PackedEntries(), order: [])
            return
        }
        var order: [UInt32] = []
        order.reserveCapacity(runs.reduce(0) { $0 + $1.count })
        var heads = [Int](repeating: 0, count: runs.count)
        runs.withUnsafeBufferPointer { runs in
            heads.withUnsafeMutableBufferPointer { heads in
                while true {
                    var best = -1
                    for run in runs.indices where heads[run] < runs[run].count {
                        guard best >= 0 else {
                            best = run
                            continue
                        }
                        let compared = ByteOrder.compare(runs[run][heads[run]], runs[best][heads[best]])
                        if compared < 0 {
                            best = run
                        } else if compared == 0 {
                            // The same entry in two runs (each run has no repeats): kept once.
                            heads[run] += 1
                        }
                    }
                    guard best >= 0 else { break }
                    order.append(UInt32(best) << SortedEntries.sourceShift | runs[best].order[heads[best]])
                    heads[best] += 1
                }
            }
        }
        self.init(entries: first.entries, others: runs.dropFirst().map(\.entries), order: order)
    }

    var count: Int { order.count }

    subscript(position: Int) -> UnsafeRawBufferPointer {
        @inline(__always) get {
            let packed = order[position]
            if packed <= SortedEntries.positionMask { return entries.entry(Int(packed)) }
            return others[Int(packed >> SortedEntries.sourceShift) - 1].entry(Int(packed & SortedEntries.positionMask))
        }
    }
}

/// A stored index leaf read in place.
struct IndexLeafView {
    let ref: NodeRef
    let count: Int
    private let ends: UnsafeRawBufferPointer
    private let data: UnsafeRawBufferPointer

    init(_ raw: UnsafeRawBufferPointer, ref: NodeRef) throws {
        var reader = ByteReader(raw, ref: ref, what: "index leaf")
        guard try reader.u32() == IndexLeaf.magic else { throw reader.damage("is not an index leaf (wrong magic)") }
        count = try reader.count(minimumItemSize: 4, label: "entry count")
        ends = try reader.slice(count * 4)
        data = UnsafeRawBufferPointer(rebasing: raw[reader.offset...])
        self.ref = ref
    }

    func entry(_ index: Int) throws -> UnsafeRawBufferPointer {
        let start = index == 0 ? 0 : Int(UInt32(littleEndian: ends.loadUnaligned(fromByteOffset: (index - 1) * 4, as: UInt32.self)))
        let end = Int(UInt32(littleEndian: ends.loadUnaligned(fromByteOffset: index * 4, as: UInt32.self)))
        guard start <= end, end <= data.count else {
            throw NodeDamage.error(ref, "index leaf", "entry \(index) spans bytes \(start)..<\(end) of \(data.count)")
        }
        return UnsafeRawBufferPointer(rebasing: data[start..<end])
    }

    /// The leaf's entries copied into one buffer, each entry's bounds checked.
    /// - Throws: `StrataError.corruptFile` when an entry's offsets are out of order or past the data.
    func packedEntries() throws -> PackedEntries {
        let last = count == 0 ? 0 : ends.loadUnaligned(fromByteOffset: (count - 1) * 4, as: UInt32.self)
        let total = Int(UInt32(littleEndian: last))
        guard total <= data.count else {
            throw NodeDamage.error(ref, "index leaf", "entries end at byte \(total) of \(data.count)")
        }
        let packed = PackedEntries(reservingEntries: count, bytes: total)
        var start = 0
        for index in 0..<count {
            let end = Int(UInt32(littleEndian: ends.loadUnaligned(fromByteOffset: index * 4, as: UInt32.self)))
            guard start <= end, end <= total else {
                throw NodeDamage.error(
                    ref, "index leaf", "entry \(index) spans bytes \(start)..<\(end) of \(data.count)")
            }
            packed.append(UnsafeRawBufferPointer(rebasing: data[start..<end]))
            start = end
        }
        return packed
    }

    /// The first entry ≥ `target`.
    func lowerBound(_ target: UnsafeRawBufferPointer) throws -> Int {
        try (0..<count).partitionIndex { ByteOrder.compare(try entry($0), target) >= 0 }
    }
}
