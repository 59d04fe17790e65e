/// The entries an index collected in a write transaction and has not merged into its nodes yet
/// (`SortedIndex.pending`): appended to one flat buffer as they come, with no ordering work per entry, and sorted
/// once when they are merged (``sorted()``).
///
/// For a unique index it also keeps a hash table from each values' encoding (an entry without its 8-byte object
/// key) to the first pending entry holding it, so that a uniqueness check asks the pending entries without an
/// allocation or a merge (``holder(of:)``).
final class PendingEntries {
    /// The entries, in the order they came.
    let entries = PackedEntries()
    /// Whether ``holder(of:)`` is kept up to date (a unique index).
    let tracksHolders: Bool
    /// Open addressing, linear probing: 0 is an empty slot; otherwise the upper 32 bits of the values' hash and,
    /// below them, the position of the first entry holding those values plus one.
    private var slots: [UInt64] = []
    private var holders = 0
    /// Whether the entries are a prefix-free values' encoding followed by an 8-byte object key (every index's but a
    /// full-text one's), so that ``keysAscend`` lets ``sorted()`` order them by their values alone.
    let endsWithKeys: Bool
    /// Whether each entry's last 8 bytes (its object key) are ≥ the previous entry's, as when a bulk insert adds
    /// objects under increasing keys.
    private(set) var keysAscend = true
    /// The last 8 bytes of the latest entry, as a big-endian number (the order of object keys).
    private var lastKey: UInt64 = 0

    /// The bytes of an entry that ``sorted()`` compares as numbers before comparing whole entries.
    private static let sortedPrefix = 20

    init(tracksHolders: Bool, endsWithKeys: Bool = false) {
        self.tracksHolders = tracksHolders
        self.endsWithKeys = endsWithKeys
    }

    var isEmpty: Bool { entries.isEmpty }
    var count: Int { entries.count }

    /// The memory the entries and the hash table take, roughly: what `SortedIndex.pendingByteLimit` bounds.
    var footprint: Int { entries.byteCount + 4 * entries.count + 8 * slots.count }

    /// Adds an entry (a values' encoding followed by the 8-byte object key).
    @inline(__always)
    func append(_ entry: UnsafeRawBufferPointer) {
        if tracksHolders, entry.count >= 8 { remember(entry) }
        if keysAscend {
            if entry.count >= 8 {
                let key = UInt64(bigEndian: entry.loadUnaligned(fromByteOffset: entry.count - 8, as: UInt64.self))
                if key < lastKey { keysAscend = false }
                lastKey = key
            } else {
                keysAscend = false
            }
        }
        entries.append(entry)
    }

    /// Adds the entries of one object's set elements, each element's encoding followed by `key` (an element
    /// index's entries). A string without a zero byte, nearly every one, is encoded straight into the buffer: its
    /// `01` tag, its bytes, the `00 00` end and the key, with no scratch array and no second copy; any other element
    /// goes through `scratch` and ``append(_:)``. The key check of ``keysAscend`` is made once for all of them.
    func appendElements(_ elements: [StorageValue], key: ObjectKey, scratch: inout [UInt8]) {
        let ordered = UInt64(bitPattern: key.rawValue) ^ 0x8000_0000_0000_0000
        guard !tracksHolders, !elements.isEmpty, ordered >= lastKey else {
            return appendEncoding(of: elements, key: key, scratch: &scratch)
        }
        let keyBytes = ordered.bigEndian
        for element in elements {
            guard case .string(var text) = element else {
                appendEncoding(of: [element], key: key, scratch: &scratch)
                continue
            }
            let direct = text.withUTF8 { utf8 -> Bool in
                guard !utf8.contains(0) else { return false }
                entries.append(maxCount: utf8.count + 11) { target in
                    let count = IndexKeyEncoding.storeString(utf8, at: target)
                    target.storeBytes(of: keyBytes, toByteOffset: count, as: UInt64.self)
                    return count + 8
                }
                return true
            }
            if !direct { appendEncoding(of: [element], key: key, scratch: &scratch) }
        }
        lastKey = ordered
    }

    /// ``appendElements(_:key:scratch:)`` for a set of strings given as its column's bytes
    /// (`CollectionCodec.encodeStrings`), in set order and without repeats: each string's UTF-8 is copied from
    /// those bytes into its entry, so an insert reads each string out of its `String` once, for both the column and
    /// the index. A string holding a zero byte (escaped in the entry) goes through `scratch` and ``append(_:)``.
    func appendStringSet(_ set: UnsafeRawBufferPointer, key: ObjectKey, scratch: inout [UInt8]) throws {
        let ordered = UInt64(bitPattern: key.rawValue) ^ 0x8000_0000_0000_0000
        let direct = !tracksHolders && ordered >= lastKey
        let keyBytes = ordered.bigEndian
        try CollectionCodec.forEachString(inSet: set) { utf8 in
            if direct, !utf8.contains(0) {
                entries.append(maxCount: utf8.count + 11) { target in
                    let count = IndexKeyEncoding.storeString(utf8, at: target)
                    target.storeBytes(of: keyBytes, toByteOffset: count, as: UInt64.self)
                    return count + 8
                }
                return
            }
            scratch.removeAll(keepingCapacity: true)
            IndexKeyEncoding.appendString(utf8, to: &scratch)
            withUnsafeBytes(of: keyBytes) { scratch.append(contentsOf: $0) }
            scratch.withUnsafeBytes { append($0) }
        }
        if direct { lastKey = ordered }
    }

    /// Adds one entry of at most `maxCount` bytes that `write` encodes in place (its values' encoding followed by
    /// the object key, as ``append(_:)`` takes it) and whose object key, in the order of keys (sign bit flipped),
    /// is `ordered`: a plain index's entry for a new object (`SortedIndex.insertEntry(key:_:)`), with no array.
    /// Not for an index that ``tracksHolders``, whose entries go through ``append(_:)``.
    @inline(__always)
    func append(maxCount: Int, orderedKey ordered: UInt64, _ write: (UnsafeMutableRawPointer) -> Int) {
        if ordered < lastKey { keysAscend = false }
        lastKey = ordered
        entries.append(maxCount: maxCount, write)
    }

    /// ``appendElements(_:key:scratch:)`` the general way: each element encoded into `scratch`, then appended.
    private func appendEncoding(of elements: [StorageValue], key: ObjectKey, scratch: inout [UInt8]) {
        for element in elements {
            scratch.removeAll(keepingCapacity: true)
            IndexKeyEncoding.append(element, to: &scratch)
            ByteOrder.withKey(key.rawValue) { scratch.append(contentsOf: $0) }
            scratch.withUnsafeBytes { append($0) }
        }
    }

    /// The object holding `values` (an entry without its object key) among the pending entries: the first one
    /// added, or `nil`. Only for an index that ``tracksHolders``.
    func holder(of values: UnsafeRawBufferPointer) -> ObjectKey? {
        guard holders > 0 else { return nil }
        return probe(values, hash: PendingEntries.hash(values)).holder.map(IndexKeyEncoding.objectKey(ofEntry:))
    }

    /// Looks `values` (an entry without its object key, whose hash is `hash`) up in the holder slots: the entry
    /// holding them, or `nil` and the empty slot where the probe stopped.
    @inline(__always)
    private func probe(
        _ values: UnsafeRawBufferPointer, hash: UInt64
    ) -> (slot: Int, holder: UnsafeRawBufferPointer?) {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash >> 32) & mask
        while slots[slot] != 0 {
            if slots[slot] >> 32 == hash >> 32 {
                let entry = entries.entry(Int(slots[slot] & 0xFFFF_FFFF) - 1)
                if entry.count == values.count + 8, SortedIndex.hasPrefix(entry, values) { return (slot, entry) }
            }
            slot = (slot + 1) & mask
        }
        return (slot, nil)
    }

    /// Empties the buffer for the next entries, keeping its memory: a full buffer set aside as a sorted run
    /// (`SortedIndex.runs`, a copy) is filled again rather than replaced by one whose pages fault in afresh.
    func removeAll() {
        entries.removeAll(keepingCapacity: true)
        if !slots.isEmpty { slots = [] }
        holders = 0
        keysAscend = true
        lastKey = 0
    }

    /// The entries in byte order without repeats, for a merge, copied into a buffer of their own.
    ///
    /// Each entry's first 20 bytes, as big-endian numbers of 8, 8 and 4 bytes (zero-padded, which keeps a shorter
    /// entry before the longer ones it begins), are held with the entry's position in a 24-byte record, and the
    /// records are sorted by those 20 bytes with a least-significant-digit radix sort, a byte a pass: one pass
    /// counts every byte position's values, and a position where every record has the same byte (the common
    /// beginning of a set's strings, the high bytes of object keys) costs no pass. Records whose 20 bytes tie are
    /// then ordered by all their bytes, run by run. The records move, not the entries; the order is the one
    /// comparing whole entries gives, so the comparison sort this replaced and this one agree entry for entry.
    ///
    /// When the entries came with ascending object keys (``keysAscend``, a bulk insert) and are values followed by
    /// their key (``endsWithKeys``), the records hold the first 20 bytes of the values alone, zero-padded: since
    /// the values' encoding is prefix-free, two different values differ within those bytes or tie there, and
    /// entries of equal values are already in key order, which the stable passes keep. The key's bytes, which
    /// sit at a different place in entries of different lengths, then cost no pass (a set of nicknames: 6 passes
    /// instead of 14), and each run of ties is found in order by one comparison per entry instead of sorted.
    func sorted() -> SortedEntries {
        let entries = self.entries
        let valuesOnly = endsWithKeys && keysAscend
        var records = PendingEntries.records(of: entries, valuesOnly: valuesOnly)
        PendingEntries.radixSort(&records)
        PendingEntries.orderTies(&records, entries, valuesOnly: valuesOnly)
        return SortedEntries(inOrder: PendingEntries.copyOut(entries, in: records))
    }

    /// The entries in the order of `records`, repeats dropped, copied into a buffer of their own: the one pass that
    /// reads the entries where they lie, all over the buffer (a cache miss each in a buffer of 64 MiB); the merges
    /// that follow read the copy front to back.
    ///
    /// Finding an entry takes two misses, one after the other: its end offsets, then its bytes. Entry by entry,
    /// each copy waited for both in turn. The records are taken in blocks of ``copyBlock`` instead: the offsets of
    /// the whole block are read first, then the first byte of each entry, loads that do not depend on one another
    /// and so wait for memory together, before the block's entries are compared and copied from the cache. An
    /// entry repeats the one before only if their first bytes and their records' prefixes are equal, so most
    /// comparisons read nothing more.
    static func copyOut(_ entries: PackedEntries, in records: [Record]) -> PackedEntries {
        let packed = PackedEntries(reservingEntries: records.count, bytes: entries.byteCount)
        let empty = UnsafeRawBufferPointer(start: nil, count: 0)
        var spans = [UnsafeRawBufferPointer](repeating: empty, count: copyBlock)
        // An entry's first byte, or 256 for an empty entry.
        var heads = [Int](repeating: 0, count: copyBlock)
        var lastHead = -1
        records.withUnsafeBufferPointer { records in
            spans.withUnsafeMutableBufferPointer { spans in
                heads.withUnsafeMutableBufferPointer { heads in
                    var start = 0
                    while start < records.count {
                        let count = Swift.min(copyBlock, records.count - start)
                        for offset in 0..<count { spans[offset] = entries.entry(Int(records[start + offset].index)) }
                        for offset in 0..<count {
                            heads[offset] = spans[offset].isEmpty ? 256 : Int(spans[offset].load(as: UInt8.self))
                        }
                        for offset in 0..<count {
                            let position = start + offset
                            if heads[offset] == lastHead, records[position].hasSamePrefix(as: records[position - 1]),
                                ByteOrder.compare(packed.entry(packed.count - 1), spans[offset]) == 0
                            {
                                continue
                            }
                            packed.append(spans[offset])
                            lastHead = heads[offset]
                        }
                        start += count
                    }
                }
            }
        }
        return packed
    }

    /// The records ``copyOut(_:in:)`` finds the entries of before copying them.
    private static let copyBlock = 16

    /// A record of each entry, in the buffer's order.
    /// With `valuesOnly`, each record holds the beginning of the entry's values (all but its last 8 bytes).
    private static func records(of entries: PackedEntries, valuesOnly: Bool) -> [Record] {
        var records: [Record] = []
        records.reserveCapacity(entries.count)
        for index in 0..<entries.count {
            let entry = entries.entry(index)
            var words: (UInt64, UInt64, UInt32) = (0, 0, 0)
            let length = valuesOnly ? entry.count - 8 : entry.count
            let head = UnsafeRawBufferPointer(rebasing: entry.prefix(Swift.min(length, PendingEntries.sortedPrefix)))
            withUnsafeMutableBytes(of: &words) { $0.copyMemory(from: head) }
            let (first, second, third) = (words.0.bigEndian, words.1.bigEndian, words.2.bigEndian)
            records.append(Record(first: first, second: second, third: third, index: UInt32(index)))
        }
        return records
    }

    /// Orders each run of records whose 20-byte prefixes tie by their whole entries (a shorter one, padded with
    /// zeros to the same prefix, first); a run already in that order (entries of one value with ascending keys)
    /// is left as it is.
    ///
    /// With `valuesOnly` (records of the values' first 20 bytes, entries added with ascending keys), a run whose
    /// first values are at most 20 bytes long is one value throughout: the encoding is prefix-free, so values that
    /// tie with a value that short are that value. Its entries are then in key order already (the radix passes are
    /// stable), and only that one entry is read: a set's elements (a nickname's 11 bytes) make runs of hundreds of
    /// entries each, whose check read every entry of a 64 MiB buffer out of order, a cache miss each.
    private static func orderTies(_ records: inout [Record], _ entries: PackedEntries, valuesOnly: Bool) {
        let prefix = PendingEntries.sortedPrefix
        var start = 0
        while start < records.count {
            var end = start + 1
            var ordered = true
            if valuesOnly, end < records.count, records[end].hasSamePrefix(as: records[start]),
                entries.entry(Int(records[start].index)).count - 8 <= prefix
            {
                while end < records.count, records[end].hasSamePrefix(as: records[start]) { end += 1 }
                start = end
                continue
            }
            while end < records.count, records[end].hasSamePrefix(as: records[start]) {
                if ordered {
                    let (a, b) = (entries.entry(Int(records[end - 1].index)), entries.entry(Int(records[end].index)))
                    ordered = a.count > prefix && b.count > prefix ? ByteOrder.compare(a, b) <= 0 : a.count <= b.count
                }
                end += 1
            }
            if end - start > 1, !ordered {
                var run = Array(records[start..<end])
                run.sort { left, right in
                    let (a, b) = (entries.entry(Int(left.index)), entries.entry(Int(right.index)))
                    return a.count > prefix && b.count > prefix ? ByteOrder.compare(a, b) < 0 : a.count < b.count
                }
                records.replaceSubrange(start..<end, with: run)
            }
            start = end
        }
    }

    /// An entry's first 20 bytes as numbers, and its position in the buffer.
    struct Record {
        var first: UInt64
        var second: UInt64
        var third: UInt32
        var index: UInt32

        func hasSamePrefix(as other: Record) -> Bool {
            first == other.first && second == other.second && third == other.third
        }

        /// Byte `position` (0 the most significant) of the 20-byte prefix.
        @inline(__always)
        func byte(_ position: Int) -> Int {
            if position < 8 { return Int(truncatingIfNeeded: first >> UInt64(56 - 8 * position)) & 0xFF }
            if position < 16 { return Int(truncatingIfNeeded: second >> UInt64(120 - 8 * position)) & 0xFF }
            return Int(truncatingIfNeeded: third >> UInt32(152 - 8 * position)) & 0xFF
        }
    }

    /// Sorts `records` by their 20-byte prefix (least significant byte first, each pass stable), skipping the byte
    /// positions where every record has the same byte.
    ///
    /// Those positions are found first, by one pass that ORs each record's difference from the first record (three
    /// words a record), so that the counting pass counts only the positions that vary (a set of nicknames: 6 of the
    /// 20, where counting all 20 took half the sort). The records move between `records` and a second buffer left
    /// uninitialized, since every pass writes each of its slots before reading any (records are plain words).
    static func radixSort(_ records: inout [Record]) {
        let count = records.count
        guard count > 1 else { return }
        let varying: [Int] = records.withUnsafeBufferPointer { records in
            let base = records[0]
            var difference = Record(first: 0, second: 0, third: 0, index: 0)
            for record in records {
                difference.first |= record.first ^ base.first
                difference.second |= record.second ^ base.second
                difference.third |= record.third ^ base.third
            }
            return (0..<PendingEntries.sortedPrefix).filter { difference.byte($0) != 0 }
        }
        guard !varying.isEmpty else { return }
        var counts = [Int](repeating: 0, count: varying.count * 256)
        records.withUnsafeBufferPointer { records in
            counts.withUnsafeMutableBufferPointer { counts in
                varying.withUnsafeBufferPointer { varying in
                    for record in records {
                        for slot in varying.indices { counts[slot * 256 + record.byte(varying[slot])] += 1 }
                    }
                }
            }
        }
        var spare = [Record](unsafeUninitializedCapacity: count) { _, initialized in initialized = count }
        var starts = [Int](repeating: 0, count: 256)
        for slot in stride(from: varying.count - 1, through: 0, by: -1) {
            let position = varying[slot]
            let base = slot * 256
            var total = 0
            for value in 0..<256 {
                starts[value] = total
                total += counts[base + value]
            }
            records.withUnsafeBufferPointer { source in
                spare.withUnsafeMutableBufferPointer { target in
                    starts.withUnsafeMutableBufferPointer { starts in
                        for record in source {
                            let value = record.byte(position)
                            target[starts[value]] = record
                            starts[value] += 1
                        }
                    }
                }
            }
            swap(&records, &spare)
        }
    }

    // MARK: Holders

    /// Records `entry` as the holder of its values unless an earlier entry holds them.
    private func remember(_ entry: UnsafeRawBufferPointer) {
        if (holders + 1) * 2 > slots.count { growSlots() }
        let values = UnsafeRawBufferPointer(rebasing: entry[..<(entry.count - 8)])
        let hash = PendingEntries.hash(values)
        let found = probe(values, hash: hash)
        if found.holder != nil { return }
        slots[found.slot] = (hash & 0xFFFF_FFFF_0000_0000) | UInt64(entries.count + 1)
        holders += 1
    }

    private func growSlots() {
        let old = slots
        slots = [UInt64](repeating: 0, count: Swift.max(1024, old.count * 2))
        let mask = slots.count - 1
        for value in old where value != 0 {
            var slot = Int(truncatingIfNeeded: value >> 32) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = value
        }
    }

    /// A 64-bit hash of `bytes` (a multiply-and-shift mix of each 8-byte word; not for untrusted keys that an
    /// attacker picks to collide, which at worst slows a transaction of theirs).
    static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count)
        var offset = 0
        while offset + 8 <= bytes.count {
            hash = (hash ^ bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* 0xBF58_476D_1CE4_E5B9
            hash ^= hash >> 31
            offset += 8
        }
        var tail: UInt64 = 0
        while offset < bytes.count {
            tail = tail << 8 | UInt64(bytes[offset])
            offset += 1
        }
        hash = (hash ^ tail) &* 0x94D0_49BB_1331_11EB
        return hash ^ (hash >> 29)
    }
}
