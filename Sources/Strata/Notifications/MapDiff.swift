import StrataStorage

/// The change between two states of a map, by key: what ``MapChange`` reports.
struct MapDiff: Equatable {
    /// Keys only the old state has, in key order.
    var deletions: [String] = []
    /// Keys only the new state has, in key order.
    var insertions: [String] = []
    /// Keys both have whose values differ or for which `isModified(newValue)` holds, in key order.
    var modifications: [String] = []

    /// Whether nothing changed.
    var isEmpty: Bool { deletions.isEmpty && insertions.isEmpty && modifications.isEmpty }

    /// Compares `old` with `new`; `isModified` says whether an unchanged value (a link) changed all the same (its
    /// object did).
    static func changes(
        from old: [String: StorageValue], to new: [String: StorageValue], isModified: (StorageValue) throws -> Bool
    ) rethrows -> MapDiff {
        var diff = MapDiff()
        for key in old.keys.sorted(by: MapKeyOrder.precedes) where new[key] == nil { diff.deletions.append(key) }
        for key in new.keys.sorted(by: MapKeyOrder.precedes) {
            guard let value = new[key] else { continue }
            guard let before = old[key] else {
                diff.insertions.append(key)
                continue
            }
            if before != value {
                diff.modifications.append(key)
            } else if try isModified(value) {
                diff.modifications.append(key)
            }
        }
        return diff
    }
}
