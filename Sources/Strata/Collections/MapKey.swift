/// A type a ``Map`` is keyed by: `String`, as in the schema's `map<T>` (docs/SCHEMA.md).
public protocol MapKey: Hashable {
    /// The key as the store keeps it.
    var mapKeyText: String { get }
    /// The key the stored text stands for.
    init(mapKeyText: String)
}

extension String: MapKey {
    /// The string itself.
    public var mapKeyText: String { self }
    /// The stored text itself.
    public init(mapKeyText: String) { self = mapKeyText }
}
