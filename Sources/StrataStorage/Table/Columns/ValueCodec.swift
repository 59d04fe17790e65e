#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Converts values between `StorageValue` and the two lanes a cluster stores them in: 64-bit words (ints, bools,
/// floats, doubles, timestamps, links) and byte strings (strings, binary, UUIDs, encoded lists and backlinks).
enum ValueCodec {
    /// The word for a non-null value of a word kind, `nil` if the value is not of that kind.
    static func word(_ value: StorageValue, kind: ValueKind) -> UInt64? {
        switch (kind, value) {
        case (.int, .int(let number)), (.timestamp, .timestamp(let number)): return UInt64(bitPattern: number)
        case (.link, .link(let key)): return UInt64(bitPattern: key.rawValue)
        case (.bool, .bool(let flag)): return flag ? 1 : 0
        case (.float, .float(let number)): return UInt64(number.bitPattern)
        case (.double, .double(let number)): return number.bitPattern
        default: return nil
        }
    }

    /// The value a word of `kind` stands for.
    static func value(word: UInt64, kind: ValueKind) -> StorageValue {
        switch kind {
        case .int: return .int(Int64(bitPattern: word))
        case .timestamp: return .timestamp(Int64(bitPattern: word))
        case .link: return .link(ObjectKey(Int64(bitPattern: word)))
        case .bool: return .bool(word != 0)
        case .float: return .float(Float(bitPattern: UInt32(truncatingIfNeeded: word)))
        case .double: return .double(Double(bitPattern: word))
        case .string, .binary, .uuid: return .null
        case .decimal, .objectId, .mixed, .typedLink: return .null
        }
    }

    /// The bytes of a non-null value of a byte kind, `nil` if the value is not of that kind.
    static func bytes(_ value: StorageValue, kind: ValueKind) -> [UInt8]? {
        switch (kind, value) {
        case (.string, .string(var text)):
            // One copy of the UTF-8 storage, where `Array(text.utf8)` walks it byte by byte.
            return text.withUTF8 { Array($0) }
        case (.binary, .binary(let data)): return data
        case (.uuid, .uuid(let id)): return withUnsafeBytes(of: id.uuid) { Array($0) }
        case (.decimal, .decimal(let number)): return DecimalCoding.encode(number)
        case (.objectId, .objectId(let id)): return id.bytes
        case (.typedLink, .typedLink(let table, let key)):
            var writer = ByteWriter(capacity: 12)
            writer.u32(table.rawValue)
            writer.i64(key.rawValue)
            return writer.bytes
        case (.mixed, _): return mixedBytes(value)
        default: return nil
        }
    }

    /// The value bytes of `kind` stand for; `nil` when they cannot (invalid UTF-8, a UUID of the wrong size).
    static func value(bytes: UnsafeRawBufferPointer, kind: ValueKind) -> StorageValue? {
        switch kind {
        case .string:
            guard let text = String(validating: bytes, as: UTF8.self) else { return nil }
            return .string(text)
        case .binary: return .binary(Array(bytes))
        case .uuid:
            guard bytes.count == 16 else { return nil }
            var raw: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            withUnsafeMutableBytes(of: &raw) { $0.copyMemory(from: bytes) }
            return .uuid(UUID(uuid: raw))
        case .decimal: return DecimalCoding.decode(bytes).map { .decimal($0) }
        case .objectId: return ObjectId(bytes: bytes).map { .objectId($0) }
        case .typedLink:
            guard bytes.count == 12 else { return nil }
            let table = bytes.loadUnaligned(fromByteOffset: 0, as: UInt32.self).littleEndian
            let key = bytes.loadUnaligned(fromByteOffset: 4, as: Int64.self).littleEndian
            return .typedLink(TableKey(rawValue: table), ObjectKey(key))
        case .mixed: return mixedValue(bytes)
        default: return nil
        }
    }

    /// Whether `value` may be stored in a column or list of `kind` (`nullable` allows `.null`).
    static func accepts(_ value: StorageValue, kind: ValueKind, nullable: Bool) -> Bool {
        if value.isNull { return nullable || kind == .link }
        if kind == .mixed { return value.kind.map(mixedHolds) ?? false }
        return value.kind == kind
    }

    // MARK: Mixed values

    /// Whether a mixed value may hold a value of `kind`: any kind but a plain link (which needs a target table) and
    /// a mixed value itself.
    static func mixedHolds(_ kind: ValueKind) -> Bool { kind != .link && kind != .mixed }

    /// A mixed value's bytes: its kind's raw value, then 8 little-endian bytes for a word kind or the kind's own
    /// bytes (to the end) for a byte kind. `nil` for null, a list or a kind a mixed value cannot hold.
    static func mixedBytes(_ value: StorageValue) -> [UInt8]? {
        guard let kind = value.kind, mixedHolds(kind) else { return nil }
        var writer = ByteWriter(capacity: 16)
        writer.u8(kind.rawValue)
        if kind.isWord {
            writer.u64(word(value, kind: kind) ?? 0)
        } else {
            writer.append(bytes(value, kind: kind) ?? [])
        }
        return writer.bytes
    }

    /// The value of bytes written by `mixedBytes`; `nil` when they describe none.
    static func mixedValue(_ raw: UnsafeRawBufferPointer) -> StorageValue? {
        guard let tag = raw.first, let kind = ValueKind(rawValue: tag), mixedHolds(kind) else { return nil }
        let payload = UnsafeRawBufferPointer(rebasing: raw[1...])
        if kind.isWord {
            guard payload.count == 8 else { return nil }
            return value(word: payload.loadUnaligned(as: UInt64.self).littleEndian, kind: kind)
        }
        return value(bytes: payload, kind: kind)
    }

    // MARK: Lists

    /// Encodes a list: `count u32`, then per element a presence byte (0 = null) and, when present, 8 bytes for a
    /// word kind or `u32 length + bytes` for a byte kind.
    static func encodeList(_ elements: [StorageValue], kind: ValueKind) -> [UInt8] {
        var writer = ByteWriter(capacity: 4 + elements.count * 9)
        writer.u32(UInt32(elements.count))
        for element in elements { appendElement(element, kind: kind, to: &writer) }
        return writer.bytes
    }

    /// Decodes a list written by `encodeList`; throws on bytes that do not describe one.
    static func decodeList(_ raw: UnsafeRawBufferPointer, kind: ValueKind, ref: NodeRef) throws -> [StorageValue] {
        var reader = ByteReader(raw, ref: ref, what: "list of \(kind)")
        guard raw.count > 0 else { return [] }
        let count = try reader.count(minimumItemSize: 1, label: "list length")
        var result: [StorageValue] = []
        result.reserveCapacity(count)
        for _ in 0..<count { result.append(try readElement(&reader, kind: kind)) }
        return result
    }

    /// Appends one element of a list, set or map: a presence byte (0 = null) and, when present, 8 bytes for a
    /// word kind or `u32 length + bytes` for a byte kind.
    static func appendElement(_ element: StorageValue, kind: ValueKind, to writer: inout ByteWriter) {
        if element.isNull {
            writer.u8(0)
            return
        }
        writer.u8(1)
        if kind.isWord {
            writer.u64(word(element, kind: kind) ?? 0)
        } else {
            let data = bytes(element, kind: kind) ?? []
            writer.u32(UInt32(data.count))
            writer.append(data)
        }
    }

    /// Reads one element written by `appendElement`.
    static func readElement(_ reader: inout ByteReader, kind: ValueKind) throws -> StorageValue {
        if try reader.u8() == 0 { return .null }
        if kind.isWord { return value(word: try reader.u64(), kind: kind) }
        let length = Int(try reader.u32())
        guard let element = value(bytes: try reader.slice(length), kind: kind) else {
            throw reader.damage("an element is not a valid \(kind)")
        }
        return element
    }

    // MARK: Backlinks

    /// Encodes the keys of objects linking to one object: `count u32`, then ascending `i64` keys (a key appears
    /// once per link, so a list holding the object twice appears twice).
    static func encodeBacklinks(_ keys: [Int64]) -> [UInt8] {
        guard !keys.isEmpty else { return [] }
        var writer = ByteWriter(capacity: 4 + keys.count * 8)
        writer.u32(UInt32(keys.count))
        for key in keys { writer.i64(key) }
        return writer.bytes
    }

    /// `encodeBacklinks([key])` without the array of keys: the one backlink of an embedded object inserted with
    /// its owner.
    static func encodeBacklink(_ key: Int64) -> [UInt8] {
        var writer = ByteWriter(capacity: 12)
        writer.u32(1)
        writer.i64(key)
        return writer.bytes
    }

    /// Decodes backlink keys written by `encodeBacklinks`.
    static func decodeBacklinks(_ raw: UnsafeRawBufferPointer, ref: NodeRef) throws -> [Int64] {
        guard raw.count > 0 else { return [] }
        var reader = ByteReader(raw, ref: ref, what: "backlinks")
        let count = try reader.count(minimumItemSize: 8, label: "backlink count")
        var keys: [Int64] = []
        keys.reserveCapacity(count)
        for _ in 0..<count { keys.append(try reader.i64()) }
        return keys
    }
}
