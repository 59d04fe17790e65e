#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Turns values into byte strings whose `memcmp` order is the values' order, and that are prefix-free, so an
/// index entry `encode(v1) + encode(v2) + … + key` sorts by (v1, v2, …, object key) and equality on the leading
/// values is a byte-prefix match.
///
/// `null` is `00`; any other value is `01` followed by: ints, timestamps and links as 8 big-endian bytes with the
/// sign bit flipped; bools as one byte; UUIDs as their 16 bytes; floats and doubles as their IEEE bits made
/// sortable; strings and binary as their bytes with `00` escaped as `00 FF`, ended by `00 00`; decimals as their
/// ordered encoding (`DecimalCoding`); ObjectIds as their 12 bytes; typed links as the table key (4 big-endian
/// bytes) and the object key as above. A value of a mixed (`any`) column has its kind's raw value between the `01`
/// and the value's bytes, so values of different kinds never share a prefix (they sort by kind, then by value).
enum IndexKeyEncoding {
    /// Appends the encoding of `value` to `bytes`; `mixed` when the value is in a mixed (`any`) column.
    static func append(_ value: StorageValue, mixed: Bool = false, to bytes: inout [UInt8]) {
        guard !value.isNull else {
            bytes.append(0)
            return
        }
        bytes.append(1)
        if mixed, let kind = value.kind { bytes.append(kind.rawValue) }
        switch value {
        case .int(let number), .timestamp(let number): bytes += ByteOrder.key(number)
        case .link(let key): bytes += ByteOrder.key(key.rawValue)
        case .bool(let flag): bytes.append(flag ? 1 : 0)
        case .uuid(let id): withUnsafeBytes(of: id.uuid) { bytes += $0 }
        case .double(let number): bytes += sortable(number.bitPattern)
        case .float(let number): bytes += sortable(Double(number).bitPattern)
        case .string(var text):
            text.withUTF8 { appendEscaped($0, to: &bytes, terminated: true) }
        case .binary(let data): appendEscaped(data, to: &bytes, terminated: true)
        case .decimal(let number): bytes += DecimalCoding.encode(number)
        case .objectId(let id): bytes += id.bytes
        case .typedLink(let table, let key):
            withUnsafeBytes(of: table.rawValue.bigEndian) { bytes += $0 }
            bytes += ByteOrder.key(key.rawValue)
        case .null, .list, .map: break
        }
    }

    /// The encoding of several values (a compound index's columns, in order); `mixed[i]` tells whether the i-th
    /// column is a mixed one (an empty `mixed`: none is).
    static func encode(_ values: [StorageValue], mixed: [Bool] = []) -> [UInt8] {
        var bytes: [UInt8] = []
        // Sized once (every lookup and insert encodes): growing from empty reallocated for a string's bytes and
        // again for its terminator. Escaped zeros, rare, may still grow it.
        bytes.reserveCapacity(values.reduce(0) { $0 + byteCountEstimate($1) } + mixed.count)
        for (offset, value) in values.enumerated() {
            append(value, mixed: offset < mixed.count && mixed[offset], to: &bytes)
        }
        return bytes
    }

    /// The encoding of one value (an index's first column), without the array of values ``encode(_:mixed:)``
    /// takes: an equality lookup in a loop encodes its argument once per call.
    static func encode(_ value: StorageValue, mixed: Bool) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(byteCountEstimate(value) + (mixed ? 1 : 0))
        append(value, mixed: mixed, to: &bytes)
        return bytes
    }

    /// The bytes `append` writes for `value`, exact but for zeros in strings and binary (one more byte each).
    private static func byteCountEstimate(_ value: StorageValue) -> Int {
        switch value {
        case .string(let text): return 3 + text.utf8.count
        case .binary(let data): return 3 + data.count
        case .uuid: return 17
        case .decimal: return 24
        case .objectId: return 13
        case .bool: return 2
        case .null, .list, .map: return 1
        default: return 9
        }
    }

    /// Runs `body` on the encoding of one value (as ``encode(_:mixed:)`` gives it): a string of a plain column
    /// without zero bytes, up to 256 bytes, is encoded on the stack (an equality lookup in a loop, `name == %@`,
    /// encodes its argument on every call); anything else through ``encode(_:mixed:)``.
    static func withEncoding<R>(
        of value: StorageValue, mixed: Bool, _ body: (UnsafeRawBufferPointer) throws -> R
    ) rethrows -> R {
        guard !mixed, case .string(var text) = value, text.utf8.count <= 256 else {
            return try encode(value, mixed: mixed).withUnsafeBytes(body)
        }
        return try text.withUTF8 { utf8 in
            guard !utf8.contains(0) else { return try encode(value, mixed: mixed).withUnsafeBytes(body) }
            return try withUnsafeTemporaryAllocation(byteCount: utf8.count + 3, alignment: 1) { buffer in
                let count = storeString(utf8, at: buffer.baseAddress!)
                return try body(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
            }
        }
    }

    /// Writes at `target` the encoding of a string value whose UTF-8 bytes `utf8` hold no zero byte, as ``append``
    /// writes it (`01`, the bytes, the `00 00` terminator: no byte to escape), and returns its length,
    /// `utf8.count + 3`: for callers that encode into memory of their own, without an array.
    static func storeString(_ utf8: UnsafeBufferPointer<UInt8>, at target: UnsafeMutableRawPointer) -> Int {
        target.storeBytes(of: 1, as: UInt8.self)
        if let source = utf8.baseAddress { (target + 1).copyMemory(from: source, byteCount: utf8.count) }
        target.storeBytes(of: 0, toByteOffset: utf8.count + 1, as: UInt16.self)
        return utf8.count + 3
    }

    /// Appends the encoding of a string value whose UTF-8 bytes are `utf8` (as ``append(_:mixed:to:)`` writes a
    /// `.string`: `01`, the bytes with `00` escaped, the `00 00` terminator).
    static func appendString(_ utf8: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8]) {
        bytes.append(1)
        appendEscaped(utf8, to: &bytes, terminated: true)
    }

    /// The bytes every entry of a string starting with `prefix` begins with (no terminator).
    static func stringPrefix(_ prefix: String, after leading: [StorageValue] = [], mixed: [Bool] = []) -> [UInt8] {
        var bytes = encode(leading, mixed: mixed)
        bytes.append(1)
        appendEscaped(prefix.utf8, to: &bytes, terminated: false)
        return bytes
    }

    /// The 8 bytes of an index entry that follow its values: the object key.
    static func entry(values: [UInt8], key: ObjectKey) -> [UInt8] { values + ByteOrder.key(key.rawValue) }

    /// The object key at the end of an index entry.
    static func objectKey(ofEntry entry: UnsafeRawBufferPointer) -> ObjectKey {
        ObjectKey(ByteOrder.int64(fromKey: UnsafeRawBufferPointer(rebasing: entry[max(0, entry.count - 8)...])))
    }

    private static func sortable(_ bits: UInt64) -> [UInt8] {
        let ordered = bits & 0x8000_0000_0000_0000 != 0 ? ~bits : bits | 0x8000_0000_0000_0000
        return withUnsafeBytes(of: ordered.bigEndian) { Array($0) }
    }

    /// Appends bytes whole when they hold no zero (nearly all text), else byte by byte with each zero escaped.
    private static func appendEscaped(_ source: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8], terminated: Bool) {
        guard source.contains(0) else {
            bytes.append(contentsOf: source)
            if terminated {
                bytes.append(0)
                bytes.append(0)
            }
            return
        }
        appendEscaped(source.lazy, to: &bytes, terminated: terminated)
    }

    private static func appendEscaped<S: Sequence>(_ source: S, to bytes: inout [UInt8], terminated: Bool) where S.Element == UInt8 {
        for byte in source {
            bytes.append(byte)
            if byte == 0 { bytes.append(0xFF) }
        }
        if terminated { bytes += [0, 0] }
    }
}
