/// What `add(_:update:)` and `create(_:value:update:)` do when an object with the same primary key is stored.
public enum UpdatePolicy: Sendable, Hashable {
    /// Refuse with an error (the default): the object must be new.
    case error
    /// Update the stored object, writing only the properties whose values differ (so observers see only those).
    case modified
    /// Update the stored object, writing every property.
    case all
}
