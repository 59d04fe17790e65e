extension LongestIncreasingRun {
    /// For each element, whether it stays in place, preferring to move the elements `changed` flags: a longest
    /// increasing run of the unflagged elements stays, then each flagged element stays too when it fits between
    /// its staying neighbours. A reordering then moves the objects that changed (the reason it happened), not the
    /// untouched ones around them that a plain longest run may pick on a tie.
    ///
    /// - Complexity: O(*n* log *n*).
    static func members(of values: [Int], preferringToMove changed: [Bool]) -> [Bool] {
        let unflagged = values.indices.filter { !changed[$0] }
        var staying = [Bool](repeating: false, count: values.count)
        for (offset, isMember) in members(of: unflagged.map { values[$0] }).enumerated() where isMember {
            staying[unflagged[offset]] = true
        }
        // The smallest value of a staying unflagged element after each position.
        var nextStaying = [Int](repeating: Int.max, count: values.count + 1)
        for index in values.indices.reversed() {
            nextStaying[index] = staying[index] && !changed[index] ? values[index] : nextStaying[index + 1]
        }
        var previous = Int.min
        for index in values.indices {
            if staying[index] {
                previous = values[index]
            } else if changed[index], values[index] > previous, values[index] < nextStaying[index + 1] {
                staying[index] = true
                previous = values[index]
            }
        }
        return staying
    }
}
