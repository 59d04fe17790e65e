import StrataStorage

/// A parsed full-text query, the right side of `TEXT`: words that must all be in the text, `-word` that must not,
/// `prefix*` that matches any word starting with the prefix, and `"a phrase"` whose words must follow each other.
///
/// Each clause is cut and folded by ``TextTokenizer`` exactly as indexed text is, so a clause may be several tokens
/// (`x-ray`, `数据库`), which then must follow each other as in a phrase. A query with no required clause (empty,
/// or only exclusions) matches nothing.
struct FullTextQuery: Hashable, Sendable {
    /// One token of a clause: an exact term, or a prefix of terms.
    struct Term: Hashable, Sendable {
        /// The folded term (or prefix).
        var text: String
        /// Whether any term starting with `text` matches.
        var isPrefix: Bool
    }

    /// Tokens that must occur at consecutive positions.
    struct Clause: Hashable, Sendable {
        var terms: [Term]
    }

    /// Clauses every matching text has.
    private(set) var required: [Clause] = []
    /// Clauses no matching text has.
    private(set) var excluded: [Clause] = []

    /// Whether the query matches no text at all (no required clause).
    var matchesNothing: Bool { required.isEmpty }

    /// Parses `query`: clauses separated by spaces; `-` before a clause excludes it; `*` after one makes its last
    /// token a prefix; `"…"` makes a phrase of everything up to the closing quote (or the end).
    init(_ query: String) {
        var characters = Substring(query)
        while let first = characters.first {
            if first.isWhitespace {
                characters.removeFirst()
                continue
            }
            var isExcluded = false
            if first == "-" {
                isExcluded = true
                characters.removeFirst()
            }
            let text: Substring
            if characters.first == "\"" {
                characters.removeFirst()
                let end = characters.firstIndex(of: "\"") ?? characters.endIndex
                text = characters[..<end]
                characters = end == characters.endIndex ? "" : characters[characters.index(after: end)...]
            } else {
                let end = characters.firstIndex(where: \.isWhitespace) ?? characters.endIndex
                text = characters[..<end]
                characters = characters[end...]
            }
            let isPrefix = text.hasSuffix("*")
            guard let clause = Self.clause(String(isPrefix ? text.dropLast() : text), isPrefix: isPrefix) else {
                continue
            }
            if isExcluded { excluded.append(clause) } else { required.append(clause) }
        }
    }

    /// The clause of one written word or phrase, `nil` when it has no token.
    ///
    /// The single-character tail of a run of an unspaced script (`TextTokenizer`) is a prefix: it matches the
    /// token of any text that continues the run. After a pair it adds nothing (the pair already says what the next
    /// token starts with), so it is dropped there.
    private static func clause(_ text: String, isPrefix: Bool) -> Clause? {
        let tokens = TextTokenizer.tokens(in: text)
        guard !tokens.isEmpty else { return nil }
        var terms: [Term] = []
        for (offset, token) in tokens.enumerated() {
            let isLast = offset == tokens.count - 1
            if token.isRunTail, offset > 0, !tokens[offset - 1].isRunTail,
                tokens[offset - 1].position == token.position - 1,
                tokens[offset - 1].term.hasSuffix(token.term), !(isLast && isPrefix)
            {
                continue
            }
            terms.append(Term(text: token.term, isPrefix: token.isRunTail || (isLast && isPrefix)))
        }
        return Clause(terms: terms)
    }

    /// Whether `text` matches (the brute-force check, without an index).
    func matches(_ text: String) -> Bool { matches(tokens: TextTokenizer.tokens(in: text)) }

    /// Whether a text cut into `tokens` matches.
    func matches(tokens: [TextToken]) -> Bool {
        guard !matchesNothing else { return false }
        return required.allSatisfy { Self.occurrences(of: $0, in: tokens) > 0 }
            && !excluded.contains { Self.occurrences(of: $0, in: tokens) > 0 }
    }

    /// How many times `clause` occurs in `tokens` (positions where its first term starts a match).
    static func occurrences(of clause: Clause, in tokens: [TextToken]) -> Int {
        var count = 0
        for start in tokens.indices where occurs(clause, in: tokens, at: start) { count += 1 }
        return count
    }

    /// Whether `clause` occurs in `tokens` starting at token `start`.
    static func occurs(_ clause: Clause, in tokens: [TextToken], at start: Int) -> Bool {
        guard start + clause.terms.count <= tokens.count else { return false }
        for (offset, term) in clause.terms.enumerated() {
            let token = tokens[start + offset]
            let fits = term.isPrefix ? token.term.utf8.starts(with: term.text.utf8) : token.term == term.text
            if !fits || token.position != tokens[start].position + offset { return false }
        }
        return true
    }
}

extension FullTextQuery {
    /// The ranges of `text` where the required clauses occur, in order and merged where they touch (a prefix that
    /// matched inside a pair of an unspaced script covers its own character only).
    func highlights(in text: String) -> [Range<String.Index>] {
        let tokens = TextTokenizer.tokens(in: text)
        var ranges: [Range<String.Index>] = []
        for clause in required {
            for start in tokens.indices where Self.occurs(clause, in: tokens, at: start) {
                let tail = tokens[start + clause.terms.count - 1]
                var upper = tail.range.upperBound
                if let last = clause.terms.last, last.isPrefix,
                    TextCharacterClass(text[tail.range.lowerBound]) == .unspaced
                {
                    upper = text.index(after: tail.range.lowerBound)
                }
                ranges.append(tokens[start].range.lowerBound..<upper)
            }
        }
        ranges.sort { $0.lowerBound < $1.lowerBound }
        var merged: [Range<String.Index>] = []
        for range in ranges {
            if let last = merged.last, range.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<Swift.max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        return merged
    }
}
