extension Results: CustomStringConvertible, CustomDebugStringConvertible {
    /// The element type, the count and the first few objects with their values:
    /// `Results<Person> (3 objects) [Person { id = 1; … }, …]`.
    public var description: String {
        ObjectDescription.describe(collection: self, kind: "Results", count: count)
    }

    /// As ``description``.
    public var debugDescription: String { description }
}
