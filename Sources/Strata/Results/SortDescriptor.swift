/// One sort key of ``Results/sorted(by:)``: a key path (through to-one links, e.g. `"favourite.name"`) and a
/// direction. A string literal is an ascending sort: `["age", SortDescriptor(keyPath: "name", ascending: false)]`.
public struct SortDescriptor: Hashable, Sendable, ExpressibleByStringLiteral {
    /// The property, or a key path through to-one links.
    public var keyPath: String
    /// Whether smaller values come first (nil sorts before every value).
    public var ascending: Bool
    /// How strings compare: ``SortCollation/binary`` (by Unicode scalars, the default and the fastest),
    /// ``SortCollation/caseInsensitive`` or ``SortCollation/unicode`` (`"Eli"`, `"Émile"`, `"Emma"`).
    public var collation: SortCollation = .binary

    /// Sorts by `keyPath`, ascending unless told otherwise, comparing strings as `collation` says.
    public init(keyPath: String, ascending: Bool = true, collation: SortCollation = .binary) {
        self.keyPath = keyPath
        self.ascending = ascending
        self.collation = collation
    }

    /// An ascending sort by the key path the literal names.
    public init(stringLiteral keyPath: String) {
        self.init(keyPath: keyPath)
    }

    /// The same key path in the other direction.
    public var reversed: SortDescriptor {
        SortDescriptor(keyPath: keyPath, ascending: !ascending, collation: collation)
    }
}
