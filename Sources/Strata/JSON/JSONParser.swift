/// Parses JSON text (RFC 8259) into a ``JSONValue``, reporting the line and column of a syntax error.
///
/// Written for the JSON import rather than `JSONSerialization`: it keeps numbers as text (a decimal or a 64-bit
/// integer converts exactly) and member order, and it is several times faster on large files.
package struct JSONParser {
    private let bytes: [UInt8]
    private var position = 0
    /// Nesting depth, bounded so that a hostile file cannot overflow the stack.
    private var depth = 0
    private static let maximumDepth = 512

    /// A parser over `bytes` (UTF-8; a leading byte-order mark is skipped).
    package init(_ bytes: [UInt8]) {
        self.bytes = bytes
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
    }

    /// Parses the whole text as one value.
    ///
    /// - Throws: ``JSONImportError`` naming the line and column of the first syntax error.
    package mutating func parse() throws -> JSONValue {
        let value = try parseValue()
        try finish()
        return value
    }

    mutating func parseValue() throws -> JSONValue {
        skipWhitespace()
        guard position < bytes.count else { throw syntax("the text ends where a value should be") }
        switch bytes[position] {
        case UInt8(ascii: "{"): return try nested { try $0.parseObject() }
        case UInt8(ascii: "["): return try nested { try $0.parseArray() }
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw syntax("unexpected character '\(Unicode.Scalar(bytes[position]))'")
        }
    }

    /// The byte at the current position, if any (what a streaming reader looks at before choosing what to parse).
    func peek() -> UInt8? { position < bytes.count ? bytes[position] : nil }

    /// Checks that nothing but whitespace follows the value a streaming reader parsed.
    ///
    /// - Throws: ``JSONImportError`` naming the line and column of the unexpected text.
    mutating func finish() throws {
        skipWhitespace()
        guard position == bytes.count else { throw syntax("unexpected text after the JSON value") }
    }

    private mutating func nested(_ body: (inout JSONParser) throws -> JSONValue) throws -> JSONValue {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maximumDepth else { throw syntax("values nested more than \(Self.maximumDepth) deep") }
        return try body(&self)
    }

    private mutating func parseObject() throws -> JSONValue {
        position += 1
        var members: [(key: String, value: JSONValue)] = []
        skipWhitespace()
        if consume(UInt8(ascii: "}")) { return .object(members) }
        repeat {
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
                throw syntax("expected a member name in quotes")
            }
            let key = try parseString()
            skipWhitespace()
            guard consume(UInt8(ascii: ":")) else { throw syntax("expected ':' after the member name \"\(key)\"") }
            members.append((key, try parseValue()))
            skipWhitespace()
        } while consume(UInt8(ascii: ","))
        guard consume(UInt8(ascii: "}")) else { throw syntax("expected ',' or '}' in an object") }
        return .object(members)
    }

    private mutating func parseArray() throws -> JSONValue {
        position += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if consume(UInt8(ascii: "]")) { return .array(elements) }
        repeat {
            elements.append(try parseValue())
            skipWhitespace()
        } while consume(UInt8(ascii: ","))
        guard consume(UInt8(ascii: "]")) else { throw syntax("expected ',' or ']' in an array") }
        return .array(elements)
    }

    mutating func parseString() throws -> String {
        position += 1
        let start = position
        // The common case: no escapes, so the bytes are the string.
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                let text = String(decoding: bytes[start..<position], as: UTF8.self)
                position += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw syntax("a control character inside a string must be escaped") }
            position += 1
        }
        var scalars = Array(bytes[start..<position])
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(decoding: scalars, as: UTF8.self)
            case UInt8(ascii: "\\"):
                try appendEscape(to: &scalars)
            case 0..<0x20:
                position -= 1
                throw syntax("a control character inside a string must be escaped")
            default:
                scalars.append(byte)
            }
        }
        throw syntax("the text ends inside a string")
    }

    private mutating func appendEscape(to output: inout [UInt8]) throws {
        guard position < bytes.count else { throw syntax("the text ends inside a string") }
        let escape = bytes[position]
        position += 1
        switch escape {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): output.append(escape)
        case UInt8(ascii: "b"): output.append(0x08)
        case UInt8(ascii: "f"): output.append(0x0C)
        case UInt8(ascii: "n"): output.append(0x0A)
        case UInt8(ascii: "r"): output.append(0x0D)
        case UInt8(ascii: "t"): output.append(0x09)
        case UInt8(ascii: "u"):
            var code = try hexQuad()
            if (0xD800..<0xDC00).contains(code), bytes[position...].starts(with: [UInt8(ascii: "\\"), UInt8(ascii: "u")]) {
                position += 2
                let low = try hexQuad()
                guard (0xDC00..<0xE000).contains(low) else { throw syntax("an unpaired UTF-16 surrogate escape") }
                code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
            }
            guard let scalar = Unicode.Scalar(code) else { throw syntax("an unpaired UTF-16 surrogate escape") }
            output.append(contentsOf: Array(String(Character(scalar)).utf8))
        default:
            position -= 1
            throw syntax("unknown escape '\\\(Unicode.Scalar(escape))'")
        }
    }

    private mutating func hexQuad() throws -> UInt32 {
        guard position + 4 <= bytes.count else { throw syntax("a \\u escape needs four hexadecimal digits") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw syntax("a \\u escape needs four hexadecimal digits")
            }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }

    private mutating func parseNumber() throws -> String {
        let start = position
        _ = consume(UInt8(ascii: "-"))
        let integerStart = position
        let count = digits()
        guard count > 0 else { throw syntax("a number needs digits") }
        if count > 1, bytes[integerStart] == UInt8(ascii: "0") { throw syntax("a number may not start with 0") }
        if consume(UInt8(ascii: ".")) {
            guard digits() > 0 else { throw syntax("a number needs digits after '.'") }
        }
        if consume(UInt8(ascii: "e")) || consume(UInt8(ascii: "E")) {
            if !consume(UInt8(ascii: "+")) { _ = consume(UInt8(ascii: "-")) }
            guard digits() > 0 else { throw syntax("a number needs digits in its exponent") }
        }
        return String(decoding: bytes[start..<position], as: UTF8.self)
    }

    private mutating func digits() -> Int {
        let start = position
        while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) {
            position += 1
        }
        return position - start
    }

    private mutating func literal(_ word: String, _ value: JSONValue) throws -> JSONValue {
        let text = Array(word.utf8)
        guard bytes[position...].starts(with: text) else { throw syntax("unexpected text; expected '\(word)'") }
        position += text.count
        return value
    }

    mutating func consume(_ byte: UInt8) -> Bool {
        guard position < bytes.count, bytes[position] == byte else { return false }
        position += 1
        return true
    }

    mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): position += 1
            default: return
            }
        }
    }

    /// A syntax error at the current position, with its line and column (counted from 1).
    func syntax(_ message: String) -> JSONImportError {
        var line = 1
        var column = 1
        for byte in bytes[..<min(position, bytes.count)] {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return JSONImportError(path: "$", message: "invalid JSON at line \(line), column \(column): \(message)")
    }
}
