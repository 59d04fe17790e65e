/// A JSON reader over bytes for the wire types (docs/SYNC.md, "Protocol"): each type reads its own fields with it
/// (``WireJSONCodable``), so a download page or an upload batch decodes without `JSONDecoder`'s generic machinery
/// (its containers, coding keys and, for ``SyncValue``, a failed attempt per JSON kind before the right one).
///
/// It reads what `JSONDecoder` reads for these types: unknown keys are skipped, a missing or `null` optional field
/// is `nil`, and numbers become ``SyncValue/integer(_:)`` when they are whole and fit 64 bits.
///
/// The reader points into the bytes it was given: use it only inside ``read(_:_:)``.
public struct WireJSONReader {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    /// How deep arrays and objects nest at this point (bounded, so a hostile body cannot exhaust the stack).
    private var depth = 0
    private static let maximumDepth = 512

    private init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// Runs `body` on a reader of `bytes`, then checks that nothing but white space follows what it read.
    /// - Throws: ``WireJSONError`` naming the byte offset of the first thing that is not the expected JSON.
    public static func read<Bytes: Sequence<UInt8>, T>(
        _ bytes: Bytes, _ body: (inout WireJSONReader) throws -> T
    ) throws -> T {
        if let result = try bytes.withContiguousStorageIfAvailable({ try read(buffer: $0, body) }) {
            return result
        }
        let copy = Array(bytes)
        return try copy.withUnsafeBufferPointer { try read(buffer: $0, body) }
    }

    private static func read<T>(buffer: UnsafeBufferPointer<UInt8>, _ body: (inout WireJSONReader) throws -> T) throws
        -> T
    {
        var reader = WireJSONReader(buffer)
        let result = try body(&reader)
        reader.skipSpace()
        guard reader.index == buffer.count else { throw reader.error("unexpected text after the JSON value") }
        return result
    }

    // MARK: Structure

    /// Reads an object, calling `field` with each key; `field` must read (or ``skip()``) the key's value.
    public mutating func object(_ field: (inout WireJSONReader, String) throws -> Void) throws {
        try expect(UInt8(ascii: "{"), "an object")
        try enter()
        skipSpace()
        if peek() == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return
        }
        while true {
            skipSpace()
            guard peek() == UInt8(ascii: "\"") else { throw error("expected a key") }
            let key = try string()
            try expect(UInt8(ascii: ":"), "':' after a key")
            try field(&self, key)
            skipSpace()
            switch peek() {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"):
                index += 1
                depth -= 1
                return
            default: throw error("expected ',' or '}' in an object")
            }
        }
    }

    /// Reads an array, calling `element` once per element; `element` must read (or ``skip()``) it.
    public mutating func array(_ element: (inout WireJSONReader) throws -> Void) throws {
        try expect(UInt8(ascii: "["), "an array")
        try enter()
        skipSpace()
        if peek() == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return
        }
        while true {
            try element(&self)
            skipSpace()
            switch peek() {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"):
                index += 1
                depth -= 1
                return
            default: throw error("expected ',' or ']' in an array")
            }
        }
    }

    /// Reads an array whose elements `element` reads.
    public mutating func array<T>(of element: (inout WireJSONReader) throws -> T) throws -> [T] {
        var values: [T] = []
        try array { reader in values.append(try element(&reader)) }
        return values
    }

    /// Reads `null` if it comes next; returns whether it did.
    public mutating func null() -> Bool {
        skipSpace()
        guard index + 4 <= bytes.count, bytes[index] == UInt8(ascii: "n"), bytes[index + 1] == UInt8(ascii: "u"),
            bytes[index + 2] == UInt8(ascii: "l"), bytes[index + 3] == UInt8(ascii: "l")
        else { return false }
        index += 4
        return true
    }

    /// Skips the next value, whatever it is.
    public mutating func skip() throws { _ = try value() }

    // MARK: Scalars

    /// Reads a string.
    public mutating func string() throws -> String {
        skipSpace()
        guard peek() == UInt8(ascii: "\"") else { throw error("expected a string") }
        index += 1
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                defer { index += 1 }
                return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\") { return try escapedString(from: start) }
            if byte < 0x20 { throw error("a control character inside a string") }
            index += 1
        }
        throw error("a string that does not end")
    }

    /// Reads a string, or `null` as `nil`.
    public mutating func optionalString() throws -> String? { null() ? nil : try string() }

    /// Reads a whole number that fits 64 bits.
    public mutating func int64() throws -> Int64 {
        let start = index
        guard case .integer(let value) = try number() else {
            index = start
            throw error("expected a whole number that fits 64 bits")
        }
        return value
    }

    /// Reads `true` or `false`.
    public mutating func bool() throws -> Bool {
        skipSpace()
        if matches("true") { return true }
        if matches("false") { return false }
        throw error("expected true or false")
    }

    /// Reads any JSON value.
    public mutating func value() throws -> SyncValue {
        skipSpace()
        switch peek() {
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "{"):
            var members: [String: SyncValue] = [:]
            try object { reader, key in members[key] = try reader.value() }
            return .object(members)
        case UInt8(ascii: "["): return .array(try array(of: { try $0.value() }))
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return .bool(try bool())
        case UInt8(ascii: "n"):
            guard null() else { throw error("expected null") }
            return .null
        default: return try number()
        }
    }

    /// Reads a number: an integer when it has no fraction or exponent and fits 64 bits, or when it does but its
    /// value is whole and fits (as `JSONDecoder` decodes `1.0` as an `Int64`); a double otherwise.
    private mutating func number() throws -> SyncValue {
        skipSpace()
        let start = index
        var simple = true
        if peek() == UInt8(ascii: "-") { index += 1 }
        let digitsStart = index
        while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") { index += 1 }
        guard index > digitsStart else { throw error("expected a value") }
        if bytes[digitsStart] == UInt8(ascii: "0"), index - digitsStart > 1 { throw error("a number with a leading 0") }
        if peek() == UInt8(ascii: ".") {
            simple = false
            index += 1
            let fraction = index
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                index += 1
            }
            guard index > fraction else { throw error("a number without digits after '.'") }
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            simple = false
            index += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { index += 1 }
            let exponent = index
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                index += 1
            }
            guard index > exponent else { throw error("a number without digits in its exponent") }
        }
        let text = UnsafeBufferPointer(rebasing: bytes[start..<index])
        if simple, let value = Self.integer(text) { return .integer(value) }
        guard let double = Double(String(decoding: text, as: UTF8.self)) else { throw error("a malformed number") }
        if !simple, double == double.rounded(), double >= -9.223372036854775808e18, double < 9.223372036854775808e18 {
            return .integer(Int64(double))
        }
        return .number(double)
    }

    /// The value of an optional `-` and decimal digits, or `nil` when it overflows 64 bits.
    private static func integer(_ text: UnsafeBufferPointer<UInt8>) -> Int64? {
        let negative = text.first == UInt8(ascii: "-")
        var value: Int64 = 0
        for byte in text.dropFirst(negative ? 1 : 0) {
            let digit = Int64(byte &- UInt8(ascii: "0"))
            let (times, overflow) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowed) =
                negative ? times.subtractingReportingOverflow(digit) : times.addingReportingOverflow(digit)
            if overflow || overflowed { return nil }
            value = sum
        }
        return value
    }

    // MARK: Helpers

    private mutating func escapedString(from start: Int) throws -> String {
        var utf8 = Array(UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""): return String(decoding: utf8, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard index < bytes.count else { break }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escape)
                case UInt8(ascii: "b"): utf8.append(0x08)
                case UInt8(ascii: "f"): utf8.append(0x0C)
                case UInt8(ascii: "n"): utf8.append(0x0A)
                case UInt8(ascii: "r"): utf8.append(0x0D)
                case UInt8(ascii: "t"): utf8.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hexQuad()
                    if (0xD800..<0xDC00).contains(scalar) {
                        guard matches("\\u") else { throw error("a lone high surrogate in a string") }
                        let low = try hexQuad()
                        guard (0xDC00..<0xE000).contains(low) else { throw error("a malformed surrogate pair") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let unicode = Unicode.Scalar(scalar) else { throw error("an invalid \\u escape") }
                    utf8.append(contentsOf: String(Character(unicode)).utf8)
                default: throw error("an invalid escape in a string")
                }
            default:
                if byte < 0x20 { throw error("a control character inside a string") }
                utf8.append(byte)
            }
        }
        throw error("a string that does not end")
    }

    private mutating func hexQuad() throws -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("a short \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            index += 1
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error("a \\u escape with a non-hex digit")
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    private mutating func enter() throws {
        depth += 1
        guard depth <= Self.maximumDepth else { throw error("arrays and objects nested too deep") }
    }

    private mutating func expect(_ byte: UInt8, _ what: String) throws {
        skipSpace()
        guard peek() == byte else { throw error("expected \(what)") }
        index += 1
    }

    private mutating func matches(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { return false }
        index += count
        return true
    }

    private func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipSpace() {
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): index += 1
            default: return
            }
        }
    }

    /// An error at the current offset.
    public func error(_ message: String) -> WireJSONError { WireJSONError(message: message, offset: index) }
}

/// JSON that does not read as the wire type expected.
public struct WireJSONError: Error, Sendable, CustomStringConvertible {
    /// What was expected or wrong.
    public var message: String
    /// The byte offset where reading stopped.
    public var offset: Int

    /// Creates an error.
    public init(message: String, offset: Int) {
        self.message = message
        self.offset = offset
    }

    /// `message at byte N`.
    public var description: String { "\(message) at byte \(offset)" }
}
