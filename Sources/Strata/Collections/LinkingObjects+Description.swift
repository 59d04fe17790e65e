extension LinkingObjects: CustomStringConvertible, CustomDebugStringConvertible {
    /// The element type, the count and the first few objects with their values:
    /// `LinkingObjects<Person> (2 objects) [Person { id = 1; … }, …]`.
    public var description: String {
        ObjectDescription.describe(collection: self, kind: "LinkingObjects", count: count)
    }

    /// As ``description``.
    public var debugDescription: String { description }
}
