/// "Did you mean …?" for a misspelt key, type, model or property name: the schema compiler's diagnostics, and
/// the runtime's errors for a name a call gets wrong (`create(_:value:)`).
package enum Suggestion {
    /// The candidate closest to `word`, if it is close enough to be the likely intent.
    ///
    /// Closeness is the edit distance ignoring case (so `String` suggests `string`), accepted up to a third of
    /// the word's length (at least 1, at most 3): close enough to catch typos, far enough not to suggest
    /// unrelated names.
    package static func closest(to word: String, among candidates: [String]) -> String? {
        guard !word.isEmpty, word.count <= 300 else { return nil }
        let limit = min(3, max(1, word.count / 3))
        var best: (candidate: String, distance: Int)?
        for candidate in candidates where candidate != word && candidate.count <= 300 {
            let distance = editDistance(word.lowercased(), candidate.lowercased())
            if distance <= limit, distance < (best?.distance ?? Int.max) { best = (candidate, distance) }
        }
        return best?.candidate
    }

    /// `: did you mean 'x'?` or the empty string, to append to a message.
    package static func didYouMean(_ word: String, among candidates: [String]) -> String {
        closest(to: word, among: candidates).map { ": did you mean '\($0)'?" } ?? ""
    }

    /// Levenshtein distance with adjacent transpositions counting as one edit (`tilte` → `title`).
    package static func editDistance(_ lhs: String, _ rhs: String) -> Int {
        let a = Array(lhs)
        let b = Array(rhs)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previousPrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, previousPrevious[j - 2] + 1)
                }
                current[j] = value
            }
            (previousPrevious, previous, current) = (previous, current, previousPrevious)
        }
        return previous[b.count]
    }
}
