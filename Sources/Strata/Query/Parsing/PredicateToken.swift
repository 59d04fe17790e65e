/// One lexical token of a predicate string, with the UTF-8 offset where it starts (for error messages).
struct PredicateToken: Equatable, Sendable {
    /// What kind of token, with its payload.
    enum Kind: Equatable, Sendable {
        /// A key-path component or a keyword (`AND`, `BEGINSWITH`, `nil`, …); keywords are recognised by the parser.
        case identifier(String)
        /// `$x` in a SUBQUERY.
        case variable(String)
        /// `@count`, `@sum`, …
        case aggregate(String)
        /// A quoted string literal, unescaped.
        case string(String)
        /// An integer literal.
        case integer(Int64)
        /// A floating-point literal.
        case double(Double)
        /// `%@`, `%d`, `%f`, `%K`, …: the letter after `%`.
        case argument(Character)
        /// `==`, `<=`, `&&`, `(`, `{`, `[c]`-style brackets are lexed as `[`, identifier, `]`.
        case symbol(String)
        /// The end of the string.
        case end
    }

    /// The token.
    let kind: Kind
    /// Offset of its first character, in UTF-8 bytes from the start of the predicate string.
    let offset: Int
    /// The token as written (for messages).
    let text: String
}
