/// One object's occurrences of one term in a full-text index: what a posting entry holds.
package struct FullTextPosting: Hashable, Sendable {
    /// The object whose text holds the term.
    package var key: ObjectKey
    /// How many tokens the object's text has (BM25's document length).
    package var documentLength: Int
    /// The token positions of the term in the text, ascending (their count is the term frequency).
    package var positions: [Int]

    /// Makes a posting.
    package init(key: ObjectKey, documentLength: Int, positions: [Int]) {
        self.key = key
        self.documentLength = documentLength
        self.positions = positions
    }
}
