import StrataStorage

/// The change between two orderings of distinct object keys (results, linking objects), found by key.
///
/// Keys only in the old ordering are deletions, keys only in the new one insertions. Of the keys in both, the
/// longest run that kept its relative order stays in place; every other common key moved, which is reported as a
/// deletion plus an insertion (a table view cannot apply anything else without a move).
///
/// - Complexity: O(*n* + *m* + *c* log *c*) for orderings of *n* and *m* keys with *c* keys in common.
enum KeyDiff {
    static func changes(
        from old: [ObjectKey], to new: [ObjectKey], isModified: (ObjectKey) throws -> Bool
    ) rethrows -> IndexChanges {
        var oldPosition: [ObjectKey: Int] = [:]
        oldPosition.reserveCapacity(old.count)
        for (index, key) in old.enumerated() { oldPosition[key] = index }
        var changes = IndexChanges()
        var common: [(old: Int, new: Int)] = []
        var inNew = [Bool](repeating: false, count: old.count)
        for (index, key) in new.enumerated() {
            if let position = oldPosition[key] {
                common.append((position, index))
                inNew[position] = true
            } else {
                changes.insertions.append(index)
            }
        }
        for (index, present) in inNew.enumerated() where !present { changes.deletions.append(index) }
        let modified = try common.map { try isModified(new[$0.new]) }
        let staying = LongestIncreasingRun.members(of: common.map(\.old), preferringToMove: modified)
        for (offset, pair) in common.enumerated() {
            if staying[offset] {
                if modified[offset] { changes.modifications.append(pair.new) }
            } else {
                changes.deletions.append(pair.old)
                changes.insertions.append(pair.new)
            }
        }
        return changes.sorted()
    }
}
