/// One property of an observed object that a commit changed.
public struct PropertyChange {
    /// The property's name, as the schema declares it.
    public let name: String
    /// The value before the change: a `String`, `Int`, `Double`, … as the property's type, an `Object` of a
    /// frozen snapshot for a link, `nil` for a nil optional or a list.
    public let oldValue: Any?
    /// The value after the change, in the same terms (a link's object belongs to the observer's database).
    public let newValue: Any?
}

/// What an observer of one object (``ObservableModel/observe(keyPaths:on:_:)``) is told.
public enum ObjectChange<T> {
    /// One or more commits changed these properties of the object.
    case change(T, [PropertyChange])
    /// The object was deleted; the block is not called again.
    case deleted
    /// The observation could not start or continue; the block is not called again.
    case error(Error)
}
