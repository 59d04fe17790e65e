/// String-keyed values or objects held by a model's `map<T>` property, like Realm's `Map`.
///
/// An unmanaged map is a plain in-memory dictionary; a managed map (the property of an object that belongs to a
/// database) reads and writes the store directly. Both iterate in key order (by the keys' UTF-8 bytes). As in
/// Realm, `map[key] = nil` removes the key (for optional values, `map[key] = .some(nil)` stores a nil), and a key
/// may not contain `.` or start with `$` (queries read those as key paths and operators).
///
/// ```swift
/// person.scores["math"] = 18
/// let math = person.scores["math"]   // Int?
/// ```
public final class Map<Key: MapKey, Value: ListElement> {
    /// The entries of an unmanaged map; unused once the map is managed.
    private var entries: [String: Value]
    /// The store reference of a managed map.
    private let managed: (any ManagedMapAccessor<Value>)?

    /// Creates an empty, unmanaged map.
    public init() {
        entries = [:]
        managed = nil
    }

    /// Creates an unmanaged map holding the entries of `entries` (a dictionary, or another map); of repeated keys,
    /// the last value is kept.
    public init<Entries: Sequence>(_ entries: Entries) where Entries.Element == (key: Key, value: Value) {
        self.entries = [:]
        managed = nil
        for entry in entries { updateValue(entry.value, forKey: entry.key) }
    }

    /// Creates a managed map over a store reference: the object layer calls this.
    @_spi(StrataGenerated) public init(managedBy accessor: any ManagedMapAccessor<Value>) {
        entries = [:]
        managed = accessor
    }

    /// Whether the map belongs to a database (its changes write the store).
    public var isManaged: Bool { managed != nil }

    /// The store reference of a managed map (observation reads its owner and column).
    var managedStorage: (any ManagedMapAccessor<Value>)? { managed }

    // MARK: Reading

    /// The number of entries.
    ///
    /// - Complexity: O(1).
    public var count: Int { managed?.count ?? entries.count }

    /// The keys, in key order.
    public var keys: [Key] { orderedEntries.map { Key(mapKeyText: $0.key) } }

    /// The values, in the order of their keys.
    public var values: [Value] { orderedEntries.map(\.value) }

    /// The value under `key`; setting `nil` removes the key.
    ///
    /// - Complexity: O(log *n*) to read from a managed map (a binary search of the stored keys).
    public subscript(key: Key) -> Value? {
        get {
            if let managed { return managed.value(for: key.mapKeyText) }
            return entries[key.mapKeyText]
        }
        set {
            if let newValue { updateValue(newValue, forKey: key) } else { removeObject(for: key) }
        }
    }

    /// The value under `key` (Realm's spelling of the subscript).
    public func object(forKey key: Key) -> Value? { self[key] }

    // MARK: Changing

    /// Sets the value under `key`, adding the key when it is new.
    public func updateValue(_ value: Value, forKey key: Key) {
        let text = key.mapKeyText
        if let problem = MapKeyOrder.problem(with: text) { preconditionFailure("Strata: \(problem)") }
        if let managed { managed.setValue(value, for: text) } else { entries[text] = value }
    }

    /// Sets the value under `key` (Realm's spelling of ``updateValue(_:forKey:)``).
    public func setValue(_ value: Value, forKey key: Key) { updateValue(value, forKey: key) }

    /// Removes `key` and its value, if the map has it.
    public func removeObject(for key: Key) {
        if let managed { managed.removeValue(for: key.mapKeyText) } else { entries[key.mapKeyText] = nil }
    }

    /// Removes every entry.
    public func removeAll() {
        if let managed { managed.replaceAll(with: [:]) } else { entries = [:] }
    }

    /// Sets every entry of `other` (its values replace those under the same keys), in one write for a managed map.
    public func merge<Other: Sequence>(_ other: Other) where Other.Element == (key: Key, value: Value) {
        let added = Array(other)  // copied first: `other` may be this very map
        for entry in added {
            if let problem = MapKeyOrder.problem(with: entry.key.mapKeyText) { preconditionFailure("Strata: \(problem)") }
        }
        if let managed {
            var merged = Dictionary(managed.entries.map { ($0.key, $0.value) }, uniquingKeysWith: { $1 })
            for entry in added { merged[entry.key.mapKeyText] = entry.value }
            managed.replaceAll(with: merged)
        } else {
            for entry in added { entries[entry.key.mapKeyText] = entry.value }
        }
    }

    /// Replaces every entry with those of `entries` (one write for a managed map).
    func replace(with entries: [String: Value]) {
        if let managed { managed.replaceAll(with: entries) } else { self.entries = entries }
    }

    /// The entries as a persisted value: what generated code reads from an unmanaged object when it is added.
    @_spi(StrataGenerated) public var persistedEntries: PersistedValue {
        .map(Dictionary(uniqueKeysWithValues: orderedEntries.map { ($0.key, $0.value.persistedValue) }))
    }

    /// Every entry, in key order.
    var orderedEntries: [(key: String, value: Value)] {
        if let managed { return managed.entries }
        return entries.sorted { MapKeyOrder.precedes($0.key, $1.key) }.map { (key: $0.key, value: $0.value) }
    }
}

/// A `Map` is a sequence of its entries, in key order.
extension Map: Sequence {
    /// Iterates the entries of the map as they were when iteration started.
    public func makeIterator() -> IndexingIterator<[(key: Key, value: Value)]> {
        orderedEntries.map { (key: Key(mapKeyText: $0.key), value: $0.value) }.makeIterator()
    }

    /// `count`.
    public var underestimatedCount: Int { count }
}

extension Map: CustomStringConvertible {
    /// The entries, as a dictionary prints them: `Map<String, Int>["a": 1, "b": 2]`.
    public var description: String {
        let shown = orderedEntries.map { "\(String(reflecting: $0.key)): \(String(reflecting: $0.value))" }
        return "Map<\(Key.self), \(Value.self)>[" + (shown.isEmpty ? ":" : shown.joined(separator: ", ")) + "]"
    }
}
