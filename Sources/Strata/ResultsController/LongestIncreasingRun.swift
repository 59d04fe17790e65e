/// The longest strictly increasing subsequence of a sequence of distinct integers (patience sorting,
/// O(n log n)): the objects that can stay in place when a collection is reordered, the others being moves.
enum LongestIncreasingRun {
    /// The positions in `values` of one longest strictly increasing subsequence, ascending.
    static func indices(of values: [Int]) -> [Int] {
        // Fast path: already increasing (no object changed place), which is what nearly every commit gives.
        if zip(values, values.dropFirst()).allSatisfy({ $0 < $1 }) { return Array(values.indices) }
        var tails: [Int] = []  // tails[k]: position of the smallest tail of an increasing run of length k + 1
        var previous = [Int](repeating: -1, count: values.count)
        for (position, value) in values.enumerated() {
            var low = 0
            var high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
            }
            if low > 0 { previous[position] = tails[low - 1] }
            if low == tails.count { tails.append(position) } else { tails[low] = position }
        }
        var run: [Int] = []
        var position = tails.last ?? -1
        while position >= 0 {
            run.append(position)
            position = previous[position]
        }
        return run.reversed()
    }
}
