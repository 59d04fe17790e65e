/// What a character is to word segmentation: the classes of Unicode text segmentation (UAX #29) that matter for
/// words, plus the scripts written without spaces and emoji.
package enum TextCharacterClass: Equatable, Sendable {
    /// A letter of a spaced script (UAX #29 `ALetter`, including Hangul, and numbers that are not decimal digits).
    case letter
    /// A decimal digit of any script (UAX #29 `Numeric`).
    case digit
    /// A connector such as `_` (UAX #29 `ExtendNumLet`): joins letters and digits on both sides.
    case connector
    /// A character of a script written without spaces between words (Han, Hiragana, Katakana, Thai, Lao, Khmer,
    /// Myanmar): cut into overlapping pairs rather than words.
    case unspaced
    /// An emoji: a token on its own.
    case emoji
    /// `'`, `’`, `.` (UAX #29 `MidNumLet`): joins two letters or two digits.
    case midNumberOrLetter
    /// `·` and its kin (UAX #29 `MidLetter`, without the colon): joins two letters.
    case midLetter
    /// `,` and `;` and their kin (UAX #29 `MidNum`): joins two digits.
    case midNumber
    /// Anything else: spaces, punctuation, symbols; separates tokens.
    case separator

    /// Whether the class starts or continues a word of a spaced script.
    package var isWordPart: Bool { self == .letter || self == .digit || self == .connector }

    /// The class of `character`, decided by its first scalar (marks that follow belong to the same character).
    package init(_ character: Character) {
        guard let scalar = character.unicodeScalars.first else {
            self = .separator
            return
        }
        if scalar.isASCII {
            self = Self.asciiClass(scalar.value)
            return
        }
        let properties = scalar.properties
        let category = properties.generalCategory
        let isLetterLike = properties.isAlphabetic || Self.isNumberOrMark(category)
        if isLetterLike, Self.isUnspaced(scalar.value) {
            self = .unspaced
        } else if category == .decimalNumber {
            self = .digit
        } else if isLetterLike {
            self = .letter
        } else if Self.isEmoji(character, first: scalar) {
            self = .emoji
        } else if Self.midNumberOrLetterScalars.contains(scalar.value) {
            self = .midNumberOrLetter
        } else if Self.midLetterScalars.contains(scalar.value) {
            self = .midLetter
        } else if Self.midNumberScalars.contains(scalar.value) {
            self = .midNumber
        } else if category == .connectorPunctuation {
            self = .connector
        } else {
            self = .separator
        }
    }

    private static func asciiClass(_ value: UInt32) -> TextCharacterClass {
        switch value {
        case 0x30...0x39: .digit
        case 0x41...0x5A, 0x61...0x7A: .letter
        case 0x5F: .connector
        case 0x27, 0x2E: .midNumberOrLetter
        case 0x2C, 0x3B: .midNumber
        default: .separator
        }
    }

    private static func isNumberOrMark(_ category: Unicode.GeneralCategory) -> Bool {
        switch category {
        case .decimalNumber, .letterNumber, .otherNumber, .nonspacingMark, .spacingMark, .enclosingMark: true
        default: false
        }
    }

    /// Han (all CJK ideograph blocks), Hiragana, Katakana (with its phonetic extensions and half-width forms),
    /// Thai, Lao, Khmer and Myanmar.
    private static func isUnspaced(_ value: UInt32) -> Bool {
        switch value {
        case 0x0E00...0x0EFF, 0x1000...0x109F, 0x1780...0x17FF, 0x19E0...0x19FF: true
        case 0x3005...0x3007, 0x3021...0x3029, 0x3031...0x3035, 0x3038...0x303C: true
        case 0x3040...0x30FF, 0x31F0...0x31FF, 0x3400...0x4DBF, 0x4E00...0x9FFF: true
        case 0xA9E0...0xA9FF, 0xAA60...0xAA7F, 0xF900...0xFAFF, 0xFF66...0xFF9F: true
        case 0x1B000...0x1B16F, 0x20000...0x3FFFF: true
        default: false
        }
    }

    private static func isEmoji(_ character: Character, first: Unicode.Scalar) -> Bool {
        let properties = first.properties
        if properties.isEmojiPresentation || (0x1F1E6...0x1F1FF).contains(first.value) { return true }
        guard properties.isEmoji else { return false }
        // A text-style emoji counts when it asks for emoji presentation or joins a sequence.
        return character.unicodeScalars.contains { $0.value == 0xFE0F || $0.value == 0x200D }
    }

    private static let midNumberOrLetterScalars: Set<UInt32> = [0x2018, 0x2019, 0x2024, 0xFE52, 0xFF07, 0xFF0E]
    private static let midLetterScalars: Set<UInt32> = [0x00B7, 0x0387, 0x05F4, 0x2027, 0xFE13, 0xFE55]
    private static let midNumberScalars: Set<UInt32> = [
        0x037E, 0x0589, 0x060C, 0x060D, 0x066C, 0x07F8, 0x2044, 0xFE10, 0xFE14, 0xFE50, 0xFE54, 0xFF0C, 0xFF1B,
    ]
}
