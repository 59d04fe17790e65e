/// One object found by ``Results/search(_:in:limit:)``: the object, how relevant its text is to the query, and
/// where the query matched in that text.
public struct SearchHit<Element: Object> {
    /// The object.
    public let object: Element
    /// Its BM25 relevance to the query (higher is more relevant; comparable within one search only).
    public let score: Double
    /// The searched property's text, as it was when the search ran.
    public let text: String
    /// The parsed query, which finds ``ranges`` in ``text`` when they are asked for.
    let query: FullTextQuery

    /// The ranges of ``text`` that the query's required words and phrases matched, in order, without overlaps
    /// (for highlighting). Worked out from ``text`` each time they are read (the text is tokenized again), so a
    /// search whose hits are not highlighted does not pay for it.
    public var ranges: [Range<String.Index>] { query.highlights(in: text) }
}
