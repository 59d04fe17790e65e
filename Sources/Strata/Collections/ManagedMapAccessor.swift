/// The store reference behind one managed ``Map``: the object layer implements it over the storage engine.
///
/// Keys are in key order (their UTF-8 bytes, docs/FILE-FORMAT.md, "Column block").
@_spi(StrataGenerated) public protocol ManagedMapAccessor<Value>: AnyObject {
    /// The type of the map's values.
    associatedtype Value: ListElement

    /// The number of entries.
    var count: Int { get }
    /// Every entry, in key order.
    var entries: [(key: String, value: Value)] { get }
    /// The value under `key`, or `nil` when the map has no such key.
    func value(for key: String) -> Value?
    /// Sets the value under `key`, adding the key when it is new.
    func setValue(_ value: Value, for key: String)
    /// Removes `key` and its value, if the map has it.
    func removeValue(for key: String)
    /// Replaces every entry with those of `entries`, in one write.
    func replaceAll(with entries: [String: Value])
}
