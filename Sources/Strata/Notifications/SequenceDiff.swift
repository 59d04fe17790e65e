/// The change between two sequences that may hold the same element several times (a list), as a shortest edit
/// script (Myers' O(ND) algorithm): the elements it keeps are matched pairs, the rest deletions and insertions.
enum SequenceDiff {
    /// Beyond this many differences the script is not searched for: everything is replaced (the trace of the
    /// search grows with the square of the differences).
    static let maximumDifferences = 4_096

    /// Matched (old index, new index) pairs of a shortest edit script, ascending.
    ///
    /// - Complexity: O((*n* + *m*) *D*) time and O(*D*²) memory for *D* differences, after trimming the common
    ///   prefix and suffix.
    static func matches<Element: Equatable>(_ old: [Element], _ new: [Element]) -> [(old: Int, new: Int)] {
        var prefix = 0
        while prefix < old.count, prefix < new.count, old[prefix] == new[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < old.count - prefix, suffix < new.count - prefix,
            old[old.count - 1 - suffix] == new[new.count - 1 - suffix]
        {
            suffix += 1
        }
        var pairs = (0..<prefix).map { (old: $0, new: $0) }
        let a = Array(old[prefix..<(old.count - suffix)])
        let b = Array(new[prefix..<(new.count - suffix)])
        pairs += middle(a, b).map { (old: $0.old + prefix, new: $0.new + prefix) }
        pairs += (0..<suffix).map { (old: old.count - suffix + $0, new: new.count - suffix + $0) }
        return pairs
    }

    /// The change between two sequences: unmatched old elements are deletions, unmatched new ones insertions,
    /// matched ones for which `isModified(newIndex)` holds are modifications.
    static func changes<Element: Equatable>(
        from old: [Element], to new: [Element], isModified: (Int) throws -> Bool
    ) rethrows -> IndexChanges {
        let pairs = matches(old, new)
        var changes = IndexChanges()
        var nextOld = 0
        var nextNew = 0
        for pair in pairs {
            changes.deletions += Array(nextOld..<pair.old)
            changes.insertions += Array(nextNew..<pair.new)
            if try isModified(pair.new) { changes.modifications.append(pair.new) }
            nextOld = pair.old + 1
            nextNew = pair.new + 1
        }
        changes.deletions += Array(nextOld..<old.count)
        changes.insertions += Array(nextNew..<new.count)
        return changes
    }

    /// Myers' forward search over sequences with no common prefix or suffix.
    private static func middle<Element: Equatable>(_ a: [Element], _ b: [Element]) -> [(old: Int, new: Int)] {
        let n = a.count
        let m = b.count
        if n == 0 || m == 0 { return [] }
        let limit = min(n + m, maximumDifferences)
        let offset = limit + 1
        var frontier = [Int](repeating: 0, count: 2 * limit + 3)
        var trace: [[Int]] = []
        var found = false
        search: for d in 0...limit {
            trace.append(frontier)
            for k in stride(from: -d, through: d, by: 2) {
                var x: Int
                if k == -d || (k != d && frontier[offset + k - 1] < frontier[offset + k + 1]) {
                    x = frontier[offset + k + 1]
                } else {
                    x = frontier[offset + k - 1] + 1
                }
                var y = x - k
                while x < n, y < m, a[x] == b[y] {
                    x += 1
                    y += 1
                }
                frontier[offset + k] = x
                if x >= n, y >= m {
                    found = true
                    break search
                }
            }
        }
        guard found else { return [] }
        // Walk back through the saved frontiers, collecting the diagonal (matched) steps.
        var pairs: [(old: Int, new: Int)] = []
        var x = n
        var y = m
        for d in stride(from: trace.count - 1, through: 0, by: -1) {
            let saved = trace[d]
            let k = x - y
            let previousK: Int
            if d == 0 {
                previousK = 0
            } else if k == -d || (k != d && saved[offset + k - 1] < saved[offset + k + 1]) {
                previousK = k + 1
            } else {
                previousK = k - 1
            }
            let previousX = d == 0 ? 0 : saved[offset + previousK]
            let previousY = previousX - previousK
            while x > previousX, y > previousY {
                x -= 1
                y -= 1
                pairs.append((x, y))
            }
            x = previousX
            y = previousY
        }
        return pairs.reversed()
    }
}
