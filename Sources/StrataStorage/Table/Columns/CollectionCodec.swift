/// The bytes of set and map columns (docs/FILE-FORMAT.md, "Column block"): one encoded value per object, like a
/// list, with an offset table so that one element is found by binary search without decoding the others.
///
/// A set is `count u32`, `count` offsets `u32` (from the first element's byte), then its elements, each written as
/// a list element (`ValueCodec.encodeList`), in element order: the order of their index-key encodings
/// (`IndexKeyEncoding` as for a mixed column: the kind byte first, null first), with no two elements equal there. A map is the same with entries
/// `keyLength u32, key UTF-8, element` in ascending key bytes. An empty set or map is stored as no bytes.
///
/// Element order is the index-key order, so every kind the index encoding knows can be a set element with no code
/// here.
enum CollectionCodec {
    // MARK: Order

    /// The key whose byte order is the element order of a set. Encoded as a mixed value (with its kind), so the
    /// elements of a `set<any>` that share bytes but not a kind (`1` and a timestamp `1`, a string and binary)
    /// stay distinct; in a set of one kind that byte is the same for every element and changes no order.
    static func orderKey(_ element: StorageValue) -> [UInt8] {
        var bytes: [UInt8] = []
        IndexKeyEncoding.append(element, mixed: true, to: &bytes)
        return bytes
    }

    /// `elements` in set order, without repeats (the first of equal elements is kept).
    static func normalizedSet(_ elements: [StorageValue]) -> [StorageValue] {
        guard elements.count > 1 else { return elements }
        if let strings = normalizedStrings(elements) { return strings }
        let keyed = elements.enumerated().map { (key: orderKey($0.element), offset: $0.offset, value: $0.element) }
            .sorted { $0.key.lexicographicallyPrecedes($1.key) || ($0.key == $1.key && $0.offset < $1.offset) }
        var result: [StorageValue] = []
        result.reserveCapacity(keyed.count)
        var previous: [UInt8]?
        for entry in keyed where entry.key != previous {
            result.append(entry.value)
            previous = entry.key
        }
        return result
    }

    /// ``normalizedSet(_:)`` of elements that are all strings, compared by their UTF-8 bytes where they lie: the
    /// order of their index keys (escaping `00` as `00 FF` and ending with `00 00` keeps the bytes' order), without
    /// building a key per element. `nil` when an element is not a string.
    private static func normalizedStrings(_ elements: [StorageValue]) -> [StorageValue]? {
        var strings: [String] = []
        strings.reserveCapacity(elements.count)
        for element in elements {
            guard case .string(let text) = element else { return nil }
            strings.append(text)
        }
        strings.sort { utf8Order($0, $1) < 0 }
        var result: [StorageValue] = []
        result.reserveCapacity(strings.count)
        var previous: String?
        for text in strings {
            if let previous, utf8Order(previous, text) == 0 { continue }
            result.append(.string(text))
            previous = text
        }
        return result
    }

    /// The order of two strings' UTF-8 bytes (`memcmp` order, shorter first), compared where they lie: the
    /// generic `utf8.lexicographicallyPrecedes` walked them a code unit at a time.
    @inline(__always)
    static func utf8Order(_ lhs: String, _ rhs: String) -> Int {
        var (left, right) = (lhs, rhs)
        return left.withUTF8 { a in
            right.withUTF8 { b in ByteOrder.compare(UnsafeRawBufferPointer(a), UnsafeRawBufferPointer(b)) }
        }
    }

    /// Where `element` is in `elements` (in set order), or where it would be inserted.
    static func position(of element: StorageValue, in elements: [StorageValue]) -> (index: Int, found: Bool) {
        let key = orderKey(element)
        var low = 0
        var high = elements.count
        while low < high {
            let middle = (low + high) / 2
            let other = orderKey(elements[middle])
            if other == key { return (middle, true) }
            if other.lexicographicallyPrecedes(key) { low = middle + 1 } else { high = middle }
        }
        return (low, false)
    }

    // MARK: Sets

    /// Encodes a set's elements (normalized here: callers may pass them in any order, with repeats).
    static func encodeSet(_ elements: [StorageValue], kind: ValueKind) -> [UInt8] {
        if kind == .string, elements.count <= smallStringSet, let bytes = encodeStringSet(elements) { return bytes }
        let ordered = normalizedSet(elements)
        guard !ordered.isEmpty else { return [] }
        // Written in one buffer, each offset filled in as its element starts (the bytes of `encodeTable`, without
        // an array per element); a string's UTF-8 bytes are copied from where they lie.
        var writer = ByteWriter(capacity: 4 + ordered.count * 20)
        writer.u32(UInt32(ordered.count))
        let table = writer.bytes.count
        writer.zeros(ordered.count * 4)
        let start = writer.bytes.count
        for (position, element) in ordered.enumerated() {
            writer.patchU32(UInt32(writer.bytes.count - start), at: table + position * 4)
            if kind == .string, case .string(var text) = element {
                writer.u8(1)
                text.withUTF8 { utf8 in
                    writer.u32(UInt32(utf8.count))
                    writer.append(utf8)
                }
            } else {
                ValueCodec.appendElement(element, kind: kind, to: &writer)
            }
        }
        return writer.bytes
    }

    /// The most elements ``encodeStringSet(_:)`` orders by insertion (quadratic, but with no array made): the
    /// sets of a typical object hold a handful.
    static let smallStringSet = 16

    /// ``encodeSet(_:kind:)`` of a few elements that are all strings, in one exact-size array: each element's
    /// UTF-8 is read from its `String` once, into a stack buffer, and the elements' positions are ordered there by
    /// insertion, comparing those bytes (the order their index keys have), repeats dropped; no normalized array of
    /// values nor of strings is made (a bulk insert of five nicknames a person spent a tenth of its time in those),
    /// and no string is opened again per comparison (opening a short string copies it out of its `String`). `nil`
    /// when an element is not a string.
    static func encodeStringSet(_ elements: [StorageValue]) -> [UInt8]? {
        guard !elements.isEmpty else { return [] }
        var payload = 0
        for element in elements {
            guard case .string(let text) = element else { return nil }
            payload += text.utf8.count
        }
        let count = elements.count
        // Per element: its UTF-8's start and length in the byte area; then the kept elements' order; then the bytes.
        return withUnsafeTemporaryAllocation(byteCount: 24 * count + payload, alignment: 8) { scratch -> [UInt8] in
            let words = scratch.baseAddress!.bindMemory(to: Int.self, capacity: 3 * count)
            let (starts, lengths, order) = (words, words + count, words + 2 * count)
            let area = scratch.baseAddress! + 24 * count
            var cursor = 0
            var kept = 0
            var keptBytes = 0
            for index in 0..<count {
                guard case .string(var text) = elements[index] else { continue }
                let length = text.withUTF8 { utf8 -> Int in
                    if let base = utf8.baseAddress, utf8.count > 0 {
                        (area + cursor).copyMemory(from: base, byteCount: utf8.count)
                    }
                    return utf8.count
                }
                starts[index] = cursor
                lengths[index] = length
                cursor += length
                let bytes = UnsafeRawBufferPointer(start: area + starts[index], count: length)
                var position = kept
                var repeated = false
                while position > 0 {
                    let other = order[position - 1]
                    let compared = ByteOrder.compare(
                        UnsafeRawBufferPointer(start: area + starts[other], count: lengths[other]), bytes)
                    if compared < 0 { break }
                    if compared == 0 {
                        repeated = true
                        break
                    }
                    position -= 1
                }
                if repeated { continue }
                var shifted = kept
                while shifted > position {
                    order[shifted] = order[shifted - 1]
                    shifted -= 1
                }
                order[position] = index
                kept += 1
                keptBytes += 5 + length
            }
            // `count u32`, the offsets, then each element as a list element: a present byte, its length, its UTF-8.
            let total = 4 + 4 * kept + keptBytes
            return [UInt8](unsafeUninitializedCapacity: total) { buffer, initialized in
                let raw = UnsafeMutableRawBufferPointer(buffer)
                raw.storeBytes(of: UInt32(kept).littleEndian, toByteOffset: 0, as: UInt32.self)
                let start = 4 + 4 * kept
                var offset = start
                for position in 0..<kept {
                    let element = order[position]
                    let length = lengths[element]
                    raw.storeBytes(
                        of: UInt32(offset - start).littleEndian, toByteOffset: 4 + 4 * position, as: UInt32.self)
                    raw[offset] = 1
                    raw.storeBytes(of: UInt32(length).littleEndian, toByteOffset: offset + 1, as: UInt32.self)
                    if length > 0 {
                        (raw.baseAddress! + offset + 5).copyMemory(from: area + starts[element], byteCount: length)
                    }
                    offset += 5 + length
                }
                initialized = total
            }
        }
    }

    /// The bytes of a set of strings (``encodeSet(_:kind:)`` for `.string`), or `nil` when an element is not a
    /// string (a null in a set of optional strings): what an insert encodes once for both the set's column and its
    /// element index (`PendingEntries.appendStringSet(_:key:scratch:)` reads the elements back from these bytes).
    static func encodeStrings(_ elements: [StorageValue]) -> [UInt8]? {
        if elements.count <= smallStringSet { return encodeStringSet(elements) }
        for element in elements {
            guard case .string = element else { return nil }
        }
        return encodeSet(elements, kind: .string)
    }

    /// Calls `body` with each element's UTF-8 bytes of a set of strings encoded by ``encodeSet(_:kind:)``, in set
    /// order. Throws `StrataError.invalidArgument` on bytes that are not such a set.
    static func forEachString(
        inSet raw: UnsafeRawBufferPointer, _ body: (UnsafeBufferPointer<UInt8>) throws -> Void
    ) throws {
        guard raw.count > 0 else { return }
        guard raw.count >= 4 else { throw notAStringSet(raw.count) }
        let count = Int(UInt32(littleEndian: raw.loadUnaligned(as: UInt32.self)))
        var offset = 4 + 4 * count
        for _ in 0..<count {
            guard offset + 5 <= raw.count, raw[offset] == 1 else { throw notAStringSet(raw.count) }
            let length = Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offset + 1, as: UInt32.self)))
            guard length <= raw.count - offset - 5 else { throw notAStringSet(raw.count) }
            let bytes = UnsafeRawBufferPointer(rebasing: raw[(offset + 5)..<(offset + 5 + length)])
            try body(bytes.assumingMemoryBound(to: UInt8.self))
            offset += 5 + length
        }
    }

    private static func notAStringSet(_ byteCount: Int) -> StrataError {
        .invalidArgument("\(byteCount) bytes are not an encoded set of strings (a count, offsets, then strings)")
    }

    /// Decodes a set written by `encodeSet`, in set order.
    static func decodeSet(_ raw: UnsafeRawBufferPointer, kind: ValueKind, ref: NodeRef) throws -> [StorageValue] {
        guard raw.count > 0 else { return [] }
        var reader = ByteReader(raw, ref: ref, what: "set of \(kind)")
        let count = try readTable(&reader)
        var result: [StorageValue] = []
        result.reserveCapacity(count)
        for _ in 0..<count { result.append(try ValueCodec.readElement(&reader, kind: kind)) }
        return result
    }

    /// Whether the encoded set holds `element`, by binary search over its offsets: O(log n) element decodes.
    static func setContains(_ raw: UnsafeRawBufferPointer, _ element: StorageValue, kind: ValueKind) throws -> Bool {
        guard raw.count > 0 else { return false }
        let wanted = orderKey(element)
        return try binarySearch(raw, what: "set of \(kind)") { reader in
            orderKey(try ValueCodec.readElement(&reader, kind: kind)).lexicographicallyCompared(to: wanted)
        } != nil
    }

    /// Whether the encoded set holds `probe`'s element, by binary search over its offsets that compares each
    /// visited element's stored bytes or number in place: nothing is decoded into a Swift value or allocated. The
    /// set's kind must be the probe's.
    static func setContains(_ raw: UnsafeRawBufferPointer, probe: SetProbe) throws -> Bool {
        guard raw.count > 0 else { return false }
        switch probe.form {
        case .word(let wanted):
            return try binarySearch(raw, what: "set") { reader in
                guard try reader.u8() != 0 else { return -1 }  // A null element sorts first.
                let stored = Int64(bitPattern: try reader.u64())
                return stored == wanted ? 0 : (stored < wanted ? -1 : 1)
            } != nil
        case .bytes(let wanted):
            return try wanted.withUnsafeBytes { wanted in
                try binarySearch(raw, what: "set") { reader in
                    guard try reader.u8() != 0 else { return -1 }
                    return ByteOrder.compare(try reader.slice(Int(try reader.u32())), wanted)
                } != nil
            }
        }
    }

    /// The number of elements or entries of an encoded set or map, from its header.
    static func count(_ raw: UnsafeRawBufferPointer) -> Int {
        guard raw.count >= 4 else { return 0 }
        return Int(UInt32(raw[0]) | UInt32(raw[1]) << 8 | UInt32(raw[2]) << 16 | UInt32(raw[3]) << 24)
    }

    // MARK: Maps

    /// Encodes a map's entries, sorted by key.
    static func encodeMap(_ entries: [String: StorageValue], kind: ValueKind) -> [UInt8] {
        guard !entries.isEmpty else { return [] }
        let sorted = entries.map { (key: Array($0.key.utf8), value: $0.value) }
            .sorted { $0.key.lexicographicallyPrecedes($1.key) }
        return encodeTable(sorted.map { entry in
            var writer = ByteWriter(capacity: 13 + entry.key.count)
            writer.u32(UInt32(entry.key.count))
            writer.append(entry.key)
            ValueCodec.appendElement(entry.value, kind: kind, to: &writer)
            return writer.bytes
        })
    }

    /// Decodes a map written by `encodeMap`.
    static func decodeMap(
        _ raw: UnsafeRawBufferPointer, kind: ValueKind, ref: NodeRef
    ) throws -> [String: StorageValue] {
        guard raw.count > 0 else { return [:] }
        var reader = ByteReader(raw, ref: ref, what: "map of \(kind)")
        let count = try readTable(&reader)
        var result: [String: StorageValue] = [:]
        result.reserveCapacity(count)
        for _ in 0..<count {
            let key = try readKey(&reader)
            result[key] = try ValueCodec.readElement(&reader, kind: kind)
        }
        return result
    }

    /// The value under `key` in an encoded map (`nil` when there is none), by binary search over its offsets.
    static func mapValue(_ raw: UnsafeRawBufferPointer, key: String, kind: ValueKind) throws -> StorageValue? {
        guard raw.count > 0 else { return nil }
        let wanted = Array(key.utf8)
        var found: StorageValue?
        _ = try binarySearch(raw, what: "map of \(kind)") { reader in
            let length = Int(try reader.u32())
            let order = Array(try reader.slice(length)).lexicographicallyCompared(to: wanted)
            if order == 0 { found = try ValueCodec.readElement(&reader, kind: kind) }
            return order
        }
        return found
    }

    // MARK: Verification

    /// Checks what readers rely on beyond decoding: a set's elements strictly ascend in element order, a map's keys
    /// strictly ascend by their bytes (so binary searches find every element and key).
    static func checkOrder(_ raw: UnsafeRawBufferPointer, type: ColumnType, ref: NodeRef) throws {
        guard raw.count > 0 else { return }
        var reader = ByteReader(raw, ref: ref, what: "\(type) value")
        let count = try readTable(&reader)
        var previous: [UInt8]?
        for _ in 0..<count {
            let key: [UInt8]
            switch type {
            case .set(let kind): key = orderKey(try ValueCodec.readElement(&reader, kind: kind))
            case .map(let kind):
                key = Array(try reader.slice(Int(try reader.u32())))
                _ = try ValueCodec.readElement(&reader, kind: kind)
            default: return
            }
            if let previous, !previous.lexicographicallyPrecedes(key) {
                throw reader.damage("its elements or keys are not in ascending order without repeats")
            }
            previous = key
        }
    }

    // MARK: Layout

    private static func encodeTable(_ items: [[UInt8]]) -> [UInt8] {
        var writer = ByteWriter(capacity: 4 + items.count * 4 + items.reduce(0) { $0 + $1.count })
        writer.u32(UInt32(items.count))
        var offset = 0
        for item in items {
            writer.u32(UInt32(offset))
            offset += item.count
        }
        for item in items { writer.append(item) }
        return writer.bytes
    }

    /// Reads the header and offset table, leaving `reader` at the first item; checks the offsets ascend.
    private static func readTable(_ reader: inout ByteReader) throws -> Int {
        let count = try reader.count(minimumItemSize: 5, label: "element count")
        var previous: UInt32 = 0
        for index in 0..<count {
            let offset = try reader.u32()
            guard index == 0 ? offset == 0 : offset > previous else {
                throw reader.damage("the offsets of its elements do not ascend")
            }
            previous = offset
        }
        return count
    }

    /// Binary search over the items of an encoded set or map: `compare` reads item *i* from a reader placed at it
    /// and says how it orders against the wanted one. Returns the index found.
    private static func binarySearch(
        _ raw: UnsafeRawBufferPointer, what: String, _ compare: (inout ByteReader) throws -> Int
    ) throws -> Int? {
        var header = ByteReader(raw, ref: .none, what: what)
        let count = try header.count(minimumItemSize: 5, label: "element count")
        let itemsStart = 4 + count * 4
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            var offsetReader = ByteReader(UnsafeRawBufferPointer(rebasing: raw[(4 + middle * 4)...]), ref: .none, what: what)
            let start = itemsStart + Int(try offsetReader.u32())
            guard start <= raw.count else { throw offsetReader.damage("an element offset is past its end") }
            var reader = ByteReader(UnsafeRawBufferPointer(rebasing: raw[start...]), ref: .none, what: what)
            let order = try compare(&reader)
            if order == 0 { return middle }
            if order < 0 { low = middle + 1 } else { high = middle }
        }
        return nil
    }

    private static func readKey(_ reader: inout ByteReader) throws -> String {
        let length = Int(try reader.u32())
        guard let key = String(validating: try reader.slice(length), as: UTF8.self) else {
            throw reader.damage("a map key is not valid UTF-8")
        }
        return key
    }
}

extension Array where Element == UInt8 {
    /// -1, 0 or 1 as `self` sorts before, equal to or after `other` byte by byte (a prefix sorts first).
    func lexicographicallyCompared(to other: [UInt8]) -> Int {
        let shared = Swift.min(count, other.count)
        for index in 0..<shared where self[index] != other[index] {
            return self[index] < other[index] ? -1 : 1
        }
        return count == other.count ? 0 : (count < other.count ? -1 : 1)
    }
}
