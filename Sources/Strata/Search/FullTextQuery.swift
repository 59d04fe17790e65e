import StrataStorage

/// A parsed full-text query, the right side of `TEXT`: words that must all be in the text, `-word` that must not,
/// `prefix*` that matches any word starting with the prefix, and `"a phrase"` whose words must follow each other.
///
/// Each clause is cut and folded by ``TextTokenizer`` exactly as indexed text is, so a clause may be several tokens
/// (`x-ray`, `数据库`), which then must follow each other as in a phrase. A query with no required clause (empty,
/// or only exclusions) matches nothing.
///
/// Runs of unspaced scripts are cut into pairs in ``required`` and ``excluded`` (what the brute-force matcher and
/// an index of pairs use) and into trigrams in ``requiredTrigrams`` and ``excludedTrigrams`` (what an index of
/// trigrams reads): the same texts match either way, a query run matching where it is a substring of a text's run.
struct FullTextQuery: Hashable, Sendable {
    /// One token of a clause: an exact term, or a prefix of terms, at its place in the clause.
    struct Term: Hashable, Sendable {
        /// The folded term (or prefix).
        var text: String
        /// Whether any term starting with `text` matches.
        var isPrefix: Bool
        /// How many positions after the clause's first token this one is (0 for the first): the run tails a
        /// clause leaves out (see ``FullTextQuery/clause(_:isPrefix:trigrams:)``) leave gaps.
        var offset: Int
    }

    /// Tokens that must occur at their offsets from the first one.
    struct Clause: Hashable, Sendable {
        var terms: [Term]
    }

    /// Clauses every matching text has (runs of unspaced scripts as pairs).
    private(set) var required: [Clause] = []
    /// Clauses no matching text has (runs of unspaced scripts as pairs).
    private(set) var excluded: [Clause] = []
    /// ``required`` with runs of unspaced scripts as trigrams, for an index of trigrams.
    private(set) var requiredTrigrams: [Clause] = []
    /// ``excluded`` with runs of unspaced scripts as trigrams, for an index of trigrams.
    private(set) var excludedTrigrams: [Clause] = []

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
            let written = String(isPrefix ? text.dropLast() : text)
            guard let clause = Self.clause(written, isPrefix: isPrefix, trigrams: false),
                let trigrams = Self.clause(written, isPrefix: isPrefix, trigrams: true)
            else { continue }
            if isExcluded {
                excluded.append(clause)
                excludedTrigrams.append(trigrams)
            } else {
                required.append(clause)
                requiredTrigrams.append(trigrams)
            }
        }
    }

    /// The clause of one written word or phrase, runs of unspaced scripts cut into pairs or (`trigrams`)
    /// trigrams; `nil` when it has no token.
    ///
    /// The tails of a run of an unspaced script (`TextTokenizer`: its last character, and with trigrams its last
    /// pair) are prefixes: each matches the token of any text that continues the run. After a longer token of the
    /// same run they add nothing (that token already says what the next ones start with), so they are left out
    /// there, and the terms after them keep their offsets.
    private static func clause(_ text: String, isPrefix: Bool, trigrams: Bool) -> Clause? {
        let tokens = TextTokenizer.tokens(in: text, trigrams: trigrams)
        guard let first = tokens.first else { return nil }
        var terms: [Term] = []
        for (index, token) in tokens.enumerated() {
            let isLast = index == tokens.count - 1
            // The token before covers this one when it is of the same run (their characters overlap).
            if token.isRunTail, index > 0, tokens[index - 1].range.upperBound > token.range.lowerBound,
                tokens[index - 1].term.hasSuffix(token.term), !(isLast && isPrefix)
            {
                continue
            }
            terms.append(
                Term(
                    text: token.term, isPrefix: token.isRunTail || (isLast && isPrefix),
                    offset: token.position - first.position))
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

    /// Whether `clause` occurs in `tokens` starting at token `start` (each term at its offset from there).
    static func occurs(_ clause: Clause, in tokens: [TextToken], at start: Int) -> Bool {
        guard let last = clause.terms.last, start + last.offset < tokens.count else { return false }
        for term in clause.terms {
            let token = tokens[start + term.offset]
            let fits = term.isPrefix ? token.term.utf8.starts(with: term.text.utf8) : token.term == term.text
            if !fits || token.position != tokens[start].position + term.offset { return false }
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
                let tail = tokens[start + (clause.terms.last?.offset ?? 0)]
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
