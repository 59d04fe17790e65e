/// One sort key of ``Results/sorted(by:)``: a key path (through to-one links, e.g. `"favourite.name"`) and a
/// direction. A string literal is an ascending sort: `["age", SortDescriptor(keyPath: "name", ascending: false)]`.
public struct SortDescriptor: Hashable, Sendable, ExpressibleByStringLiteral {
    /// The property, or a key path through to-one links.
    public var keyPath: String
    /// Whether smaller values come first (nil sorts before every value).
    public var ascending: Bool

    /// Sorts by `keyPath`, ascending unless told otherwise.
    public init(keyPath: String, ascending: Bool = true) {
        self.keyPath = keyPath
        self.ascending = ascending
    }

    /// An ascending sort by the key path the literal names.
    public init(stringLiteral keyPath: String) {
        self.init(keyPath: keyPath)
    }

    /// The same key path in the other direction.
    public var reversed: SortDescriptor { SortDescriptor(keyPath: keyPath, ascending: !ascending) }
}
