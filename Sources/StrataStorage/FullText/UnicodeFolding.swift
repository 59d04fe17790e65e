import Foundation

/// Case, diacritic and width folding over all of Unicode: what `[c]` and `[d]` compare (through the query layer's
/// `StringFolding`) and what the full-text index stores, kept in one place so both fold alike.
package enum UnicodeFolding {
    /// `text` folded: `ß` becomes `ss`, `Σ` and `ς` become `σ`, `ﬁ` becomes `fi` under case folding; `é` becomes
    /// `e` under diacritic folding; `Ａ` becomes `A` and `ｶ` becomes `カ` under width folding.
    package static func fold(
        _ text: String, caseInsensitive: Bool, diacriticInsensitive: Bool, widthInsensitive: Bool = false
    ) -> String {
        if !caseInsensitive && !diacriticInsensitive && !widthInsensitive { return text }
        var hasUppercase = false
        if text.utf8.allSatisfy({ byte in
            if byte >= 0x41 && byte <= 0x5A { hasUppercase = true }
            return byte < 0x80
        }) {
            // ASCII has no diacritics and no wide forms, and its case folding is plain lowercasing.
            return caseInsensitive && hasUppercase ? text.lowercased() : text
        }
        var options: String.CompareOptions = []
        if caseInsensitive { options.insert(.caseInsensitive) }
        if diacriticInsensitive { options.insert(.diacriticInsensitive) }
        if widthInsensitive { options.insert(.widthInsensitive) }
        let folded = text.folding(options: options, locale: nil)
        // Foundation leaves the final sigma as is under case folding; Unicode folds it to σ.
        guard caseInsensitive, folded.unicodeScalars.contains("\u{03C2}") else { return folded }
        return folded.replacingOccurrences(of: "ς", with: "σ")
    }
}
