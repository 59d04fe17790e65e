/// The characters Swift's lexer accepts in an identifier (swift-syntax's `isValidIdentifierStartCodePoint` and
/// `isValidIdentifierContinuationCodePoint`, the ranges of N1518 Annex X), which are not Unicode's XID classes:
/// U+2E2F VERTICAL TILDE is a letter to Unicode but not to Swift, and a combining mark (U+0345) may continue a
/// name but not start one.
enum SwiftIdentifierCharacters {
    /// Ranges of code points (above ASCII) that may appear in an identifier.
    private static let continuation: [ClosedRange<UInt32>] = [
        0x00A8...0x00A8, 0x00AA...0x00AA, 0x00AD...0x00AD, 0x00AF...0x00AF, 0x00B2...0x00B5, 0x00B7...0x00BA,
        0x00BC...0x00BE, 0x00C0...0x00D6, 0x00D8...0x00F6, 0x00F8...0x00FF,
        0x0100...0x167F, 0x1681...0x180D, 0x180F...0x1FFF,
        0x200B...0x200D, 0x202A...0x202E, 0x203F...0x2040, 0x2054...0x2054, 0x2060...0x206F,
        0x2070...0x218F, 0x2460...0x24FF, 0x2776...0x2793, 0x2C00...0x2DFF, 0x2E80...0x2FFF,
        0x3004...0x3007, 0x3021...0x302F, 0x3031...0x303F, 0x3040...0xD7FF,
        0xF900...0xFD3D, 0xFD40...0xFDCF, 0xFDF0...0xFE44, 0xFE47...0xFFF8,
        0x10000...0x1FFFD, 0x20000...0x2FFFD, 0x30000...0x3FFFD, 0x40000...0x4FFFD, 0x50000...0x5FFFD,
        0x60000...0x6FFFD, 0x70000...0x7FFFD, 0x80000...0x8FFFD, 0x90000...0x9FFFD, 0xA0000...0xAFFFD,
        0xB0000...0xBFFFD, 0xC0000...0xCFFFD, 0xD0000...0xDFFFD, 0xE0000...0xEFFFD,
    ]

    /// Ranges of `continuation` that may not start an identifier (combining marks).
    private static let notInitially: [ClosedRange<UInt32>] = [
        0x0300...0x036F, 0x1DC0...0x1DFF, 0x20D0...0x20FF, 0xFE20...0xFE2F,
    ]

    /// Whether Swift accepts `scalar` inside an identifier, after its first character (ASCII: letters, digits, `_`).
    static func canContinue(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return isASCIILetter(scalar) || ("0"..."9").contains(scalar) || scalar == "_" }
        return continuation.contains { $0.contains(scalar.value) }
    }

    /// Whether Swift accepts `scalar` as the first character of an identifier (ASCII: letters and `_`).
    static func canStart(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return isASCIILetter(scalar) || scalar == "_" }
        return canContinue(scalar) && !notInitially.contains { $0.contains(scalar.value) }
    }

    private static func isASCIILetter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }
}
