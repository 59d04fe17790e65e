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
        from old: [ObjectKey], to new: [ObjectKey], isModified: (ObjectKey) -> Bool
    ) -> IndexChanges {
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
        let modified = common.map { isModified(new[$0.new]) }
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

/// The longest strictly increasing subsequence of a sequence of distinct positions (patience sorting).
enum LongestIncreasingRun {
    /// For each element, whether it belongs to one longest increasing subsequence.
    ///
    /// - Complexity: O(*n* log *n*).
    static func members(of values: [Int]) -> [Bool] {
        var tails: [Int] = []  // index into values of the smallest tail of each length
        var previous = [Int](repeating: -1, count: values.count)
        for (index, value) in values.enumerated() {
            var low = 0
            var high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
            }
            if low > 0 { previous[index] = tails[low - 1] }
            if low == tails.count { tails.append(index) } else { tails[low] = index }
        }
        var members = [Bool](repeating: false, count: values.count)
        var cursor = tails.last ?? -1
        while cursor >= 0 {
            members[cursor] = true
            cursor = previous[cursor]
        }
        return members
    }
}
