import Foundation
import StrataStorage

/// Case and diacritic folding for `[c]` and `[d]`, over all of Unicode (not only Latin): `ß` matches `SS`,
/// `Σ` matches `ς`, `ﬁ` matches `fi`, `é` matches `e`, `Ä` matches `a` under `[cd]`.
struct StringFolding: Sendable {
    let options: StringComparisonOptions

    /// `text` folded as the options say; unchanged when there are none.
    func fold(_ text: String) -> String {
        UnicodeFolding.fold(
            text, caseInsensitive: options.contains(.caseInsensitive),
            diacriticInsensitive: options.contains(.diacriticInsensitive))
    }
}

/// `LIKE` patterns: `*` matches any run of characters (also none), `?` exactly one character.
struct LikePattern: Sendable {
    private let pattern: [Character]

    /// A pattern, already folded by the caller when `[c]`/`[d]` apply.
    init(_ pattern: String) { self.pattern = Array(pattern) }

    /// Whether `text` (folded like the pattern) matches.
    ///
    /// - Complexity: O(n·m) at worst, with the usual greedy backtracking over the last `*`.
    func matches(_ text: String) -> Bool {
        let characters = Array(text)
        var t = 0, p = 0
        var starP = -1, starT = 0
        while t < characters.count {
            if p < pattern.count, pattern[p] == "?" || (pattern[p] != "*" && pattern[p] == characters[t]) {
                t += 1
                p += 1
            } else if p < pattern.count, pattern[p] == "*" {
                starP = p
                starT = t
                p += 1
            } else if starP >= 0 {
                p = starP + 1
                starT += 1
                t = starT
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == "*" { p += 1 }
        return p == pattern.count
    }
}
