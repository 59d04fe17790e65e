import Foundation

/// One object of a controller's results as the controller last saw it: whether its `filter` kept it, its section
/// and its mapped value.
struct ControllerEntry<Key: Hashable, Mapped> {
    let key: Key
    /// The section's name: the object's value of `sectionKeyPath` as text.
    let sectionName: String
    /// The mapped value, or nil when the controller's `filter` left the object out.
    let value: Mapped?

    var isIncluded: Bool { value != nil }
}

/// What a ``ResultsController`` shows at one version: one entry per object of its results (in the results'
/// order), the sections made of the entries its filter kept, and where each kept entry sits.
///
/// Generic over the key so that the change arithmetic can be tested without a database.
struct ControllerSnapshot<Key: Hashable, Mapped> {
    let entries: [ControllerEntry<Key, Mapped>]
    let sections: [ResultsSection<Mapped>]
    /// The index path of each entry the filter kept, `nil` for the others; aligned with `entries`.
    let paths: [IndexPath?]

    /// Groups consecutive kept entries with the same section name (the results are sorted by the section key
    /// first, so each section is one run).
    init(entries: [ControllerEntry<Key, Mapped>]) {
        self.entries = entries
        var sections: [ResultsSection<Mapped>] = []
        var paths: [IndexPath?] = []
        paths.reserveCapacity(entries.count)
        var currentName: String?
        var currentObjects: [Mapped] = []
        for entry in entries {
            guard let value = entry.value else {
                paths.append(nil)
                continue
            }
            if entry.sectionName != currentName {
                if let currentName { sections.append(ResultsSection(name: currentName, objects: currentObjects)) }
                currentName = entry.sectionName
                currentObjects = []
            }
            paths.append(IndexPath(indexes: [sections.count, currentObjects.count]))
            currentObjects.append(value)
        }
        if let currentName { sections.append(ResultsSection(name: currentName, objects: currentObjects)) }
        self.sections = sections
        self.paths = paths
    }

    static var empty: ControllerSnapshot { ControllerSnapshot(entries: []) }
}

/// How a snapshot became the next one: the next snapshot, where each of its entries came from in the previous one
/// (`nil` for objects new to the results), and which entries were read afresh because they changed.
struct ControllerTransition<Key: Hashable, Mapped> {
    let snapshot: ControllerSnapshot<Key, Mapped>
    /// For each entry of `snapshot`, the index of the same object's entry in the previous snapshot.
    let origins: [Int?]
    /// Entries of `snapshot` that were read afresh (inserted or modified in the results).
    let refreshed: Set<Int>

    /// Applies a results change set (`deletions` in the old results, `insertions` and `modifications` in the new)
    /// to `old`, reading only the inserted and modified objects through `entry(at:)`. `newKeys` are the new
    /// results' keys: when the change set does not lead to them (it never should), the whole results are read
    /// again and matched by key, so the controller can never drift from its results.
    static func applying(
        deletions: [Int], insertions: [Int], modifications: [Int], newKeys: [Key],
        to old: ControllerSnapshot<Key, Mapped>, entry: (Int) -> ControllerEntry<Key, Mapped>
    ) -> ControllerTransition {
        let deleted = Set(deletions)
        let inserted = Set(insertions)
        let modified = Set(modifications)
        var entries: [ControllerEntry<Key, Mapped>] = []
        entries.reserveCapacity(newKeys.count)
        var origins: [Int?] = []
        origins.reserveCapacity(newKeys.count)
        var oldIndex = 0
        for (index, key) in newKeys.enumerated() {
            if inserted.contains(index) {
                entries.append(entry(index))
                origins.append(nil)
                continue
            }
            while deleted.contains(oldIndex) { oldIndex += 1 }
            guard oldIndex < old.entries.count, old.entries[oldIndex].key == key else {
                return rebuilding(newKeys: newKeys, from: old, entry: entry)
            }
            entries.append(modified.contains(index) ? entry(index) : old.entries[oldIndex])
            origins.append(oldIndex)
            oldIndex += 1
        }
        while deleted.contains(oldIndex) { oldIndex += 1 }
        guard oldIndex == old.entries.count else { return rebuilding(newKeys: newKeys, from: old, entry: entry) }
        // A sorted object whose place changed comes as a deletion plus an insertion: pair them by key, so that it
        // becomes a move (or an update, when it did not actually change place among the others).
        var deletedKeys: [Key: Int] = [:]
        for index in deletions where index < old.entries.count { deletedKeys[old.entries[index].key] = index }
        if !deletedKeys.isEmpty {
            for index in insertions where index < entries.count {
                origins[index] = deletedKeys[entries[index].key]
            }
        }
        return ControllerTransition(
            snapshot: ControllerSnapshot(entries: entries), origins: origins, refreshed: inserted.union(modified))
    }

    /// Reads every object afresh and matches the entries with the old ones by key.
    static func rebuilding(
        newKeys: [Key], from old: ControllerSnapshot<Key, Mapped>, entry: (Int) -> ControllerEntry<Key, Mapped>
    ) -> ControllerTransition {
        var oldPositions: [Key: Int] = [:]
        for (index, oldEntry) in old.entries.enumerated() { oldPositions[oldEntry.key] = index }
        let entries = newKeys.indices.map(entry)
        return ControllerTransition(
            snapshot: ControllerSnapshot(entries: entries),
            origins: entries.map { oldPositions[$0.key] },
            refreshed: Set(newKeys.indices))
    }
}
