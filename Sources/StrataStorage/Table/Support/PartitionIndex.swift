extension RandomAccessCollection {
    /// The first index whose element satisfies `isAfter`, for a collection in which every element that does
    /// comes after every element that does not (a sorted collection and "is at or past the target"): a binary
    /// search, `endIndex` when none does. Every sorted structure of the engine (cluster keys, index entries,
    /// branch separators, the free list, the commit record) finds its place with it.
    @inline(__always)
    func partitionIndex(where isAfter: (Element) throws -> Bool) rethrows -> Index {
        var low = startIndex
        var count = self.count
        while count > 0 {
            let half = count / 2
            let middle = index(low, offsetBy: half)
            if try isAfter(self[middle]) {
                count = half
            } else {
                low = index(after: middle)
                count -= half + 1
            }
        }
        return low
    }
}
