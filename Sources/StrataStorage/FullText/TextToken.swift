/// One searchable unit of a text, as ``TextTokenizer`` cuts it: a folded term, its position among the text's
/// tokens (for phrases) and the characters of the source text it came from (for highlighting).
package struct TextToken: Hashable, Sendable {
    /// The folded term that the index stores and queries compare (case, diacritics and width folded).
    package var term: String
    /// The token's ordinal among the text's tokens: consecutive words, and consecutive characters of a run of an
    /// unspaced script, have consecutive positions.
    package var position: Int
    /// The characters of the source text that the token covers.
    package var range: Range<String.Index>
    /// Whether the token is the last one of a run of an unspaced script: a single character rather than a pair.
    /// A query's tail matches any document token that starts with it (see ``TextTokenizer``).
    package var isRunTail: Bool
}
