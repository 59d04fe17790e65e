import StrataStorage

/// How a sort orders strings (``SortDescriptor/collation``).
public enum SortCollation: Hashable, Sendable {
    /// By Unicode scalars (UTF-8 bytes): fast, and the default; `"Zoe"` before `"adam"`, `"Émile"` after `"Emma"`.
    case binary
    /// Case folded first (Unicode case folding, all scripts), then by scalars: `"adam"` before `"Zoe"`.
    case caseInsensitive
    /// Close to the Unicode Collation Algorithm's default order, without locale tailoring: first by the letters
    /// with case, diacritics and width folded away (`"Eli"` < `"Émile"` < `"Emma"`), then by diacritics (a letter
    /// without one before the letter with one), then lowercase before uppercase, then by scalars.
    case unicode

    /// The bytes whose order is this collation's order for `text` (`binary`: the text itself).
    func sortKey(_ text: String) -> String {
        switch self {
        case .binary:
            return text
        case .caseInsensitive:
            return UnicodeFolding.fold(text, caseInsensitive: true, diacriticInsensitive: false) + "\u{0}" + text
        case .unicode:
            let primary = UnicodeFolding.fold(
                text, caseInsensitive: true, diacriticInsensitive: true, widthInsensitive: true)
            let secondary = UnicodeFolding.fold(text, caseInsensitive: true, diacriticInsensitive: false)
            // Lowercase before uppercase: swap the case of each character for the tertiary level.
            let tertiary = text.map { $0.isUppercase ? $0.lowercased() : $0.uppercased() }.joined()
            return primary + "\u{0}" + secondary + "\u{0}" + tertiary
        }
    }
}
