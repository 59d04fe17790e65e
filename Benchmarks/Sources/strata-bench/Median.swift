extension Array where Element == Double {
    /// The middle value once sorted (the mean of the two middle ones for an even count); `nil` when empty.
    var median: Double? {
        guard !isEmpty else { return nil }
        let sorted = sorted()
        return count % 2 == 1 ? sorted[count / 2] : (sorted[count / 2 - 1] + sorted[count / 2]) / 2
    }
}
