/// Writes compact JSON into bytes for the wire types (``WireJSONCodable``), without `JSONEncoder`'s generic
/// machinery. Strings are escaped as `JSONEncoder` escapes them (except `/`, which stays as it is); numbers print as
/// `JSONEncoder` prints them; object members keep the order they are written in.
public struct WireJSONWriter {
    /// The JSON written so far.
    public private(set) var bytes: [UInt8] = []
    /// Whether the next member or element needs a comma first, one flag per open array or object.
    private var needsComma: [Bool] = []
    /// Whether a key was just written, so the value takes no comma.
    private var pendingValue = false

    /// An empty writer.
    public init(capacity: Int = 256) { bytes.reserveCapacity(capacity) }

    /// The JSON written so far, as text.
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    // MARK: Structure

    /// Writes an object whose members `body` writes (with ``key(_:)`` before each value).
    public mutating func object(_ body: (inout WireJSONWriter) -> Void) {
        separate()
        bytes.append(UInt8(ascii: "{"))
        needsComma.append(false)
        body(&self)
        needsComma.removeLast()
        bytes.append(UInt8(ascii: "}"))
    }

    /// Writes an array whose elements `body` writes.
    public mutating func array(_ body: (inout WireJSONWriter) -> Void) {
        separate()
        bytes.append(UInt8(ascii: "["))
        needsComma.append(false)
        body(&self)
        needsComma.removeLast()
        bytes.append(UInt8(ascii: "]"))
    }

    /// Writes a member's key; its value comes next.
    public mutating func key(_ name: String) {
        separate()
        appendString(name)
        bytes.append(UInt8(ascii: ":"))
        // The value follows the colon directly, with no comma.
        pendingValue = true
    }

    /// Writes member `name` with string `value`, leaving the member out when `value` is `nil`.
    public mutating func member(_ name: String, _ value: String?) {
        guard let value else { return }
        key(name)
        string(value)
    }

    /// Writes member `name` with a whole number.
    public mutating func member(_ name: String, _ value: Int64) {
        key(name)
        integer(value)
    }

    /// Writes member `name` with a JSON value, leaving the member out when `value` is `nil`.
    public mutating func member(_ name: String, _ value: SyncValue?) {
        guard let value else { return }
        key(name)
        self.value(value)
    }

    // MARK: Values

    /// Writes a string.
    public mutating func string(_ value: String) {
        separate()
        appendString(value)
    }

    /// Writes a whole number.
    public mutating func integer(_ value: Int64) {
        separate()
        bytes.append(contentsOf: String(value).utf8)
    }

    /// Writes `true` or `false`.
    public mutating func bool(_ value: Bool) {
        separate()
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }

    /// Writes `null`.
    public mutating func null() {
        separate()
        bytes.append(contentsOf: "null".utf8)
    }

    /// Writes a double as `JSONEncoder` does (a whole value without `.0`); a non-finite one, which JSON cannot
    /// hold and no decoded value is, as `null`.
    public mutating func double(_ value: Double) {
        separate()
        guard value.isFinite else {
            bytes.append(contentsOf: "null".utf8)
            return
        }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        bytes.append(contentsOf: text.utf8)
    }

    /// Writes any JSON value (object members in key order, byte by byte).
    public mutating func value(_ value: SyncValue) {
        switch value {
        case .null: null()
        case .bool(let flag): bool(flag)
        case .integer(let number): integer(number)
        case .number(let number): double(number)
        case .string(let text): string(text)
        case .array(let elements):
            array { writer in
                for element in elements { writer.value(element) }
            }
        case .object(let members):
            object { writer in
                for name in members.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
                    writer.key(name)
                    writer.value(members[name] ?? .null)
                }
            }
        }
    }

    // MARK: Helpers

    private mutating func separate() {
        if pendingValue {
            pendingValue = false
            return
        }
        guard let last = needsComma.last else { return }
        if last { bytes.append(UInt8(ascii: ",")) }
        needsComma[needsComma.count - 1] = true
    }

    /// Writes `value` quoted: the runs of bytes that need no escape are copied whole, each escaped byte is written
    /// by ``appendEscape(_:)``.
    private mutating func appendString(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { utf8 in
            var start = 0
            for index in utf8.indices {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
                appendEscape(byte)
                start = index + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Writes the escape of a quote, a backslash or a control character.
    private mutating func appendEscape(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
        case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
        case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
        case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
        case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
        case 0x08: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
        case 0x0C: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
        default:
            let hex = Array("0123456789abcdef".utf8)
            bytes.append(contentsOf: [
                UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)],
                hex[Int(byte & 0xF)],
            ])
        }
    }
}
