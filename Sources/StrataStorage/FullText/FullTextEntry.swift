/// The entries a full-text index keeps, in the index's ordered tree (the same `IndexTree` as sorted
/// indexes, so they live in the same copy-on-write transactions and encrypted nodes as the data).
///
/// A **posting entry** is `IndexKeyEncoding(.string(term))` (the term's UTF-8 bytes with `00` escaped as `00 FF`,
/// ended by `00 00`, after a `01`), then the object key (8 bytes, sortable big-endian), then the payload: varints
/// of the text's token count, the term's frequency, and the positions as gaps from the previous one. Entries sort
/// by term, then object key: a term's postings are one range, in object-key order, and a prefix query is one range
/// over the terms that start with it. A **length entry** uses the empty term (which no token is): `01 00 00`, the
/// object key, and a varint of the text's token count; objects whose text has no token have none.
/// docs/FILE-FORMAT.md describes the same bytes.
enum FullTextEntry {
    /// The encoded empty term that length entries start with.
    static let lengthPrefix: [UInt8] = IndexKeyEncoding.encode([.string("")])

    /// The entries of an object whose indexed text is `text` (none for `nil` or text without tokens), in no order;
    /// runs of unspaced scripts cut into trigrams with `trigrams` (`IndexSpec.isTrigrams`), else into pairs.
    static func entries(for text: StorageValue, key: ObjectKey, trigrams: Bool) -> [[UInt8]] {
        guard case .string(let string) = text else { return [] }
        let tokens = TextTokenizer.tokens(in: string, trigrams: trigrams)
        guard !tokens.isEmpty else { return [] }
        var positionsByTerm: [String: [Int]] = [:]
        var order: [String] = []
        for token in tokens {
            if positionsByTerm[token.term] == nil { order.append(token.term) }
            positionsByTerm[token.term, default: []].append(token.position)
        }
        var entries: [[UInt8]] = []
        entries.reserveCapacity(order.count + 1)
        var length = lengthPrefix
        length += ByteOrder.key(key.rawValue)
        appendVarint(tokens.count, to: &length)
        entries.append(length)
        for term in order {
            let positions = positionsByTerm[term] ?? []
            var entry = termPrefix(term)
            entry += ByteOrder.key(key.rawValue)
            appendVarint(tokens.count, to: &entry)
            appendVarint(positions.count, to: &entry)
            var previous = 0
            for position in positions {
                appendVarint(position - previous, to: &entry)
                previous = position
            }
            entries.append(entry)
        }
        return entries
    }

    /// The bytes every posting entry of exactly `term` starts with.
    static func termPrefix(_ term: String) -> [UInt8] { IndexKeyEncoding.encode([.string(term)]) }

    /// The bytes every posting entry of a term starting with `prefix` starts with.
    static func termStartPrefix(_ prefix: String) -> [UInt8] { IndexKeyEncoding.stringPrefix(prefix) }

    /// The offset just past the encoded term of `entry` (its `00 00` terminator), or `nil` for damaged bytes.
    static func termEnd(of entry: UnsafeRawBufferPointer) -> Int? {
        var offset = 1
        while offset + 1 < entry.count {
            if entry[offset] == 0 {
                if entry[offset + 1] == 0 { return offset + 2 }
                offset += 2
            } else {
                offset += 1
            }
        }
        return nil
    }

    /// The term of a posting entry, or `nil` for damaged bytes.
    static func term(of entry: UnsafeRawBufferPointer) -> String? {
        guard let end = termEnd(of: entry), end >= 3 else { return nil }
        var bytes: [UInt8] = []
        var offset = 1
        while offset < end - 2 {
            bytes.append(entry[offset])
            offset += entry[offset] == 0 ? 2 : 1
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// The posting an entry holds, or `nil` for damaged bytes (or a length entry).
    static func posting(of entry: UnsafeRawBufferPointer) -> FullTextPosting? {
        guard let end = termEnd(of: entry), end > 3, entry.count >= end + 8 else { return nil }
        let key = ObjectKey(ByteOrder.int64(fromKey: UnsafeRawBufferPointer(rebasing: entry[end..<end + 8])))
        var offset = end + 8
        guard let length = readVarint(entry, &offset), let frequency = readVarint(entry, &offset),
            frequency > 0, frequency <= entry.count
        else { return nil }
        var positions: [Int] = []
        positions.reserveCapacity(frequency)
        var position = 0
        for _ in 0..<frequency {
            guard let gap = readVarint(entry, &offset) else { return nil }
            position += gap
            positions.append(position)
        }
        guard offset == entry.count else { return nil }
        return FullTextPosting(key: key, documentLength: length, positions: positions)
    }

    /// The object key and token count of a length entry, or `nil` for damaged bytes.
    static func length(of entry: UnsafeRawBufferPointer) -> (key: ObjectKey, length: Int)? {
        let start = lengthPrefix.count
        guard entry.count > start + 8 else { return nil }
        let key = ObjectKey(ByteOrder.int64(fromKey: UnsafeRawBufferPointer(rebasing: entry[start..<start + 8])))
        var offset = start + 8
        guard let length = readVarint(entry, &offset), offset == entry.count else { return nil }
        return (key, length)
    }

    /// Appends `value` (≥ 0) as a little-endian base-128 varint.
    static func appendVarint(_ value: Int, to bytes: inout [UInt8]) {
        var rest = UInt64(value)
        while rest >= 0x80 {
            bytes.append(UInt8(rest & 0x7F) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    /// Reads a varint at `offset` and moves past it; `nil` past the end or for more than 9 bytes.
    static func readVarint(_ bytes: UnsafeRawBufferPointer, _ offset: inout Int) -> Int? {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while offset < bytes.count, shift < 63 {
            let byte = bytes[offset]
            offset += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return Int(truncatingIfNeeded: value) }
            shift += 7
        }
        return nil
    }
}
