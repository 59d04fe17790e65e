/// The object keys an index lookup found, the first one inline: a lookup that finds one object (a unique value,
/// the usual `name == %@`) allocates no array for it; a second key moves both into an array.
package struct FoundKeys {
    /// The one key found, while there is exactly one.
    private var single: ObjectKey?
    /// Every key, when there are none or more than one.
    private var all: [ObjectKey]

    /// No keys.
    package init() {
        all = []
    }

    /// The keys of `keys`, kept as that array.
    package init(_ keys: [ObjectKey]) {
        all = keys
    }

    /// How many keys were found.
    package var count: Int { single == nil ? all.count : 1 }

    /// The key at `position` (below ``count``).
    package subscript(position: Int) -> ObjectKey {
        if let single {
            precondition(position == 0, "FoundKeys: position \(position) of one key")
            return single
        }
        return all[position]
    }

    /// The keys as an array (one allocated for a single key).
    package var array: [ObjectKey] { single.map { [$0] } ?? all }

    /// Adds `key` after the others.
    mutating func append(_ key: ObjectKey) {
        if let first = single {
            all = [first, key]
            single = nil
        } else if all.isEmpty {
            single = key
        } else {
            all.append(key)
        }
    }
}
