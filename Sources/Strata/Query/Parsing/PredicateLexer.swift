/// Splits a predicate string into tokens, reporting the offset of anything it cannot read.
struct PredicateLexer {
    private let source: [UInt8]
    private let text: String
    private var position = 0

    init(_ text: String) {
        self.text = text
        self.source = Array(text.utf8)
    }

    /// Every token of the string, ending with `.end`.
    ///
    /// - Throws: `StrataError.invalidPredicate` at an unterminated string or a character that starts no token.
    mutating func tokenize() throws -> [PredicateToken] {
        var tokens: [PredicateToken] = []
        while true {
            let token = try next()
            tokens.append(token)
            if token.kind == .end { return tokens }
        }
    }

    private mutating func next() throws -> PredicateToken {
        while position < source.count, Self.isSpace(source[position]) { position += 1 }
        let start = position
        guard position < source.count else { return PredicateToken(kind: .end, offset: start, text: "end of input") }
        let byte = source[position]

        if Self.isIdentifierStart(byte) {
            let name = readIdentifier()
            return PredicateToken(kind: .identifier(name), offset: start, text: name)
        }
        if byte == UInt8(ascii: "$") || byte == UInt8(ascii: "@") {
            position += 1
            let name = readIdentifier()
            guard !name.isEmpty else { throw error("expected a name after '\(Character(Unicode.Scalar(byte)))'", at: start) }
            let sigil = Character(Unicode.Scalar(byte))
            let kind: PredicateToken.Kind = byte == UInt8(ascii: "$") ? .variable(name) : .aggregate(name)
            return PredicateToken(kind: kind, offset: start, text: "\(sigil)\(name)")
        }
        if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
            return try readString(quote: byte, start: start)
        }
        if Self.isDigit(byte) || (byte == UInt8(ascii: "-") && position + 1 < source.count && Self.isDigit(source[position + 1])) {
            return try readNumber(start: start)
        }
        if byte == UInt8(ascii: "%") {
            guard position + 1 < source.count else { throw error("'%' must be followed by @, K, d or f", at: start) }
            let letter = Character(Unicode.Scalar(source[position + 1]))
            guard "@KdfilsuU".contains(letter) else {
                throw error("unknown argument format '%\(letter)'; use %@, %K, %d or %f", at: start)
            }
            position += 2
            return PredicateToken(kind: .argument(letter), offset: start, text: "%\(letter)")
        }
        for symbol in Self.symbols where matches(symbol) {
            position += symbol.utf8.count
            return PredicateToken(kind: .symbol(symbol), offset: start, text: symbol)
        }
        let scalarText = String(decoding: source[start..<min(source.count, start + 4)], as: UTF8.self)
        throw error("unexpected character '\(scalarText.first.map(String.init) ?? "?")'", at: start)
    }

    /// Longest first, so `<=` wins over `<`.
    private static let symbols = [
        "==", "!=", "<>", "<=", ">=", "=<", "=>", "&&", "||", "=", "<", ">", "!", "(", ")", "{", "}", "[", "]", ",", ".",
    ]

    private func matches(_ symbol: String) -> Bool {
        let bytes = Array(symbol.utf8)
        guard position + bytes.count <= source.count else { return false }
        return Array(source[position..<position + bytes.count]) == bytes
    }

    private mutating func readIdentifier() -> String {
        let start = position
        while position < source.count, Self.isIdentifierPart(source[position]) { position += 1 }
        return String(decoding: source[start..<position], as: UTF8.self)
    }

    private mutating func readString(quote: UInt8, start: Int) throws -> PredicateToken {
        position += 1
        var bytes: [UInt8] = []
        while position < source.count {
            let byte = source[position]
            if byte == quote {
                position += 1
                let value = String(decoding: bytes, as: UTF8.self)
                return PredicateToken(
                    kind: .string(value), offset: start,
                    text: String(decoding: source[start..<position], as: UTF8.self))
            }
            if byte == UInt8(ascii: "\\"), position + 1 < source.count {
                let escaped = source[position + 1]
                switch escaped {
                case UInt8(ascii: "n"): bytes.append(UInt8(ascii: "\n"))
                case UInt8(ascii: "t"): bytes.append(UInt8(ascii: "\t"))
                default: bytes.append(escaped)
                }
                position += 2
                continue
            }
            bytes.append(byte)
            position += 1
        }
        throw error("unterminated string starting here", at: start)
    }

    private mutating func readNumber(start: Int) throws -> PredicateToken {
        if source[position] == UInt8(ascii: "-") { position += 1 }
        var isDouble = false
        while position < source.count {
            let byte = source[position]
            if Self.isDigit(byte) {
                position += 1
            } else if byte == UInt8(ascii: "."), !isDouble, position + 1 < source.count, Self.isDigit(source[position + 1]) {
                isDouble = true
                position += 1
            } else if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
                isDouble = true
                position += 1
                if position < source.count, source[position] == UInt8(ascii: "-") || source[position] == UInt8(ascii: "+") {
                    position += 1
                }
            } else {
                break
            }
        }
        let literal = String(decoding: source[start..<position], as: UTF8.self)
        if !isDouble, let value = Int64(literal) {
            return PredicateToken(kind: .integer(value), offset: start, text: literal)
        }
        guard let value = Double(literal) else { throw error("'\(literal)' is not a number", at: start) }
        return PredicateToken(kind: .double(value), offset: start, text: literal)
    }

    private func error(_ message: String, at offset: Int) -> StrataError {
        .invalidPredicate(predicate: text, offset: offset, message: message)
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    /// ASCII letters, `_`, and any non-ASCII byte (Swift identifiers may be Unicode).
    private static func isIdentifierStart(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F || byte >= 0x80
    }

    private static func isIdentifierPart(_ byte: UInt8) -> Bool { isIdentifierStart(byte) || isDigit(byte) }
}
