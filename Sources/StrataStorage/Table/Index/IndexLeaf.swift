/// A leaf of an index tree: sorted, unique byte-string entries (value encodings followed by the object key).
///
/// Stored layout: magic `SIX1`, count u32, `count` cumulative end offsets u32, then the entry bytes.
final class IndexLeaf: TreeLeaf {
    static let magic: UInt32 = 0x3158_4953  // "SIX1"
    /// Entry bytes beyond which a leaf splits (about one 4 KiB page with its header).
    static let maxBytes = 4000
    static let minBytes = 1000

    var entries: [[UInt8]]
    var origin: NodeRef = .none
    var isDirty = false
    var byteCount: Int
    var lastInsertWasAppend = false

    init(entries: [[UInt8]]) {
        self.entries = entries
        byteCount = entries.reduce(0) { $0 + $1.count + 4 }
    }

    static func load(_ raw: UnsafeRawBufferPointer, ref: NodeRef, context: Void) throws -> IndexLeaf {
        let view = try IndexLeafView(raw, ref: ref)
        var entries: [[UInt8]] = []
        entries.reserveCapacity(view.count)
        for index in 0..<view.count { entries.append(Array(try view.entry(index))) }
        return IndexLeaf(entries: entries)
    }

    static func empty(context: Void) -> IndexLeaf { IndexLeaf(entries: []) }

    var entryCount: Int { entries.count }
    var firstKey: [UInt8] { entries.first ?? [] }
    var fill: LeafFill {
        let bytes = byteCount
        if bytes > IndexLeaf.maxBytes && entries.count > 1 { return .overfull }
        return bytes < IndexLeaf.minBytes ? .underfull : .fitting
    }

    /// Where `entry` is or would go.
    func position(of entry: [UInt8]) -> (index: Int, found: Bool) {
        let index = entry.withUnsafeBytes { lowerBound($0) }
        return (index, index < entries.count && entries[index] == entry)
    }

    /// The position of the first entry ≥ `target` (`entries.count` when every entry sorts before it).
    func lowerBound(_ target: UnsafeRawBufferPointer) -> Int {
        entries.partitionIndex { entry in entry.withUnsafeBytes { ByteOrder.compare($0, target) } >= 0 }
    }

    func insert(_ entry: [UInt8]) {
        let (index, found) = position(of: entry)
        guard !found else { return }
        lastInsertWasAppend = index == entries.count
        entries.insert(entry, at: index)
        byteCount += entry.count + 4
    }

    /// Merges the sorted `batch[start...]` entries that sort before `upper` (the next leaf's first key; `nil`
    /// for the last leaf), stopping once the leaf would pass one and a half times its size limit (so one split
    /// brings both halves back within it). Takes at least one entry; entries already present are skipped.
    /// - Returns: Where the rest of the batch starts.
    func merge(_ batch: [[UInt8]], from start: Int, below upper: BranchKey?) -> Int {
        let limit = IndexLeaf.maxBytes + IndexLeaf.maxBytes / 2
        var end = start
        var added = 0
        while end < batch.count {
            let size = batch[end].count + 4
            if end > start, byteCount + added + size > limit { break }
            if end > start, let upper, batch[end].withUnsafeBytes({ upper.compare($0) }) <= 0 { break }
            added += size
            end += 1
        }
        lastInsertWasAppend = entries.last.map { ByteOrder.compare(batch[start], $0) > 0 } ?? true
        var merged: [[UInt8]] = []
        merged.reserveCapacity(entries.count + end - start)
        var old = 0
        var new = start
        while new < end {
            if old < entries.count {
                let order = ByteOrder.compare(entries[old], batch[new])
                if order < 0 {
                    merged.append(entries[old])
                    old += 1
                    continue
                }
                if order == 0 {
                    new += 1
                    continue
                }
            }
            if merged.last.map({ ByteOrder.compare($0, batch[new]) != 0 }) ?? true {
                merged.append(batch[new])
                byteCount += batch[new].count + 4
            }
            new += 1
        }
        merged.append(contentsOf: entries[old...])
        entries = merged
        return end
    }

    @discardableResult
    func remove(_ entry: [UInt8]) -> Bool {
        let (index, found) = position(of: entry)
        guard found else { return false }
        byteCount -= entries.remove(at: index).count + 4
        return true
    }

    func splitOff() -> IndexLeaf {
        var split = entries.count / 2
        if lastInsertWasAppend {
            // Sequential inserts: keep this leaf nearly full and start the next one.
            var bytes = 0
            split = entries.count - 1
            for (index, entry) in entries.enumerated() {
                bytes += entry.count + 4
                if bytes > IndexLeaf.maxBytes {
                    split = max(1, index)
                    break
                }
            }
        }
        let upper = IndexLeaf(entries: Array(entries[split...]))
        entries.removeSubrange(split...)
        byteCount -= upper.byteCount
        upper.isDirty = true
        return upper
    }

    func canAbsorb(_ other: IndexLeaf) -> Bool { byteCount + other.byteCount <= IndexLeaf.maxBytes }

    func absorb(_ other: IndexLeaf) {
        entries += other.entries
        byteCount += other.byteCount
    }

    func encode(in writer: NodeWriter) throws -> NodeRef {
        var out = ByteWriter(capacity: 8 + byteCount)
        out.u32(IndexLeaf.magic)
        out.u32(UInt32(entries.count))
        var end: UInt32 = 0
        for entry in entries {
            end += UInt32(entry.count)
            out.u32(end)
        }
        for entry in entries { out.append(entry) }
        return try out.store(in: writer)
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

    /// The first entry ≥ `target`.
    func lowerBound(_ target: UnsafeRawBufferPointer) throws -> Int {
        try (0..<count).partitionIndex { ByteOrder.compare(try entry($0), target) >= 0 }
    }
}
