extension LongestIncreasingRun {
    /// For each element, whether it stays in place: one longest strictly increasing subsequence of `values`
    /// (distinct, non-negative), and among the longest ones, one that keeps the most elements `changed` does not
    /// flag. A reordering then moves as few objects as possible and, among equally short answers, the objects that
    /// changed (the reason it happened) rather than the untouched ones around them.
    ///
    /// - Complexity: O(*n* log *m*) for *n* values below *m*, with a Fenwick tree of prefix maxima.
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
        let size = (values.max() ?? 0) + 1
        var tree = [Run](repeating: Run(), count: size + 1)  // tree[i]: best run ending below value i (1-based)
        var previous = [Int](repeating: -1, count: values.count)
        var best = Run()
        for (index, value) in values.enumerated() {
            var before = Run()
            var position = value  // runs ending at a value < `value`: prefix [0, value)
            while position > 0 {
                before = max(before, tree[position])
                position -= position & -position
            }
            previous[index] = before.last
            let run = Run(length: before.length + 1, unchanged: before.unchanged + (changed[index] ? 0 : 1), last: index)
            best = max(best, run)
            position = value + 1
            while position <= size {
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
