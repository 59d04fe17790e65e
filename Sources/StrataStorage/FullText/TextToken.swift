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
    /// Whether the token is one of the last of a run of an unspaced script, shorter than the run's other tokens:
    /// the single last character of a run cut into pairs, the last pair or character of one cut into trigrams. A
    /// query's tail matches any document token that starts with it (see ``TextTokenizer``).
    package var isRunTail: Bool
}
