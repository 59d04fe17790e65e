/// Which objects of a reordered collection stay in place: a longest strictly increasing subsequence of their old
/// positions taken in the new order. The others are moves.
enum LongestIncreasingRun {
    /// For each element, whether it belongs to one longest strictly increasing subsequence of `values`.
    static func members(of values: [Int]) -> [Bool] {
        members(of: values, preferringToMove: [Bool](repeating: false, count: values.count))
    }

    /// For each element, whether it stays in place: one longest strictly increasing subsequence of `values`, and
    /// among the longest ones, one that keeps the most elements `changed` does not flag. A reordering then moves
    /// as few objects as possible and, among equally short answers, the objects that changed (the reason it
    /// happened) rather than the untouched ones around them.
    ///
    /// - Complexity: O(*n* log *n*): a Fenwick tree of prefix maxima over the values' ranks.
    static func members(of values: [Int], preferringToMove changed: [Bool]) -> [Bool] {
        guard !values.isEmpty else { return [] }
        /// The best run ending at an element: its length, how many unchanged elements it keeps, its last element.
        struct Run: Comparable {
            var length = 0
            var unchanged = 0
            var last = -1
            static func < (left: Run, right: Run) -> Bool {
                (left.length, left.unchanged) < (right.length, right.unchanged)
            }
        }
        // Ranks instead of values keep the tree as small as the input (positions may run into the millions).
        var rank = [Int](repeating: 0, count: values.count)
        var distinct = 0
        var previousValue: Int?
        for index in values.indices.sorted(by: { values[$0] < values[$1] }) {
            if previousValue != values[index] { distinct += 1 }
            previousValue = values[index]
            rank[index] = distinct  // 1-based; equal values share a rank
        }
        var tree = [Run](repeating: Run(), count: distinct + 1)  // tree[i] covers the runs ending at ranks ≤ i
        var previous = [Int](repeating: -1, count: values.count)
        var best = Run()
        for index in values.indices {
            var before = Run()
            var position = rank[index] - 1  // strictly smaller ranks
            while position > 0 {
                before = max(before, tree[position])
                position -= position & -position
            }
            previous[index] = before.last
            let run = Run(length: before.length + 1, unchanged: before.unchanged + (changed[index] ? 0 : 1), last: index)
            best = max(best, run)
            position = rank[index]
            while position <= distinct {
                if tree[position] < run { tree[position] = run }
                position += position & -position
            }
        }
        var members = [Bool](repeating: false, count: values.count)
        var cursor = best.last
        while cursor >= 0 {
            members[cursor] = true
            cursor = previous[cursor]
        }
        return members
    }
}
