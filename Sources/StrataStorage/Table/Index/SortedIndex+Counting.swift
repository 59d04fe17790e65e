extension SortedIndex {
    /// How many entries start with `prefix`, from the subtree counts the tree's branches keep: two descents, none
    /// of the entries between read. `nil` for an index implied by the object keys (it has no entries of its own).
    ///
    /// A query planner asks this to tell a selective lookup from one that matches a large part of the table
    /// before reading any of it.
    func count(withPrefix prefix: [UInt8]) throws -> Int? {
        try count(from: prefix, before: Self.firstBytes(after: prefix))
    }

    /// How many entries sort at or after `start` and before `end` (`nil`: the tree's end), counted as
    /// ``count(withPrefix:)`` counts.
    func count(from start: [UInt8], before end: [UInt8]?) throws -> Int? {
        guard impliedBy == nil else { return nil }
        let tree = try self.tree
        let first = try rank(of: start, in: tree)
        let last = try end.map { try rank(of: $0, in: tree) } ?? tree.count()
        return Swift.max(0, last - first)
    }

    /// How many entries sort before `bytes`.
    func rank(of bytes: [UInt8], in tree: IndexTree) throws -> Int {
        try bytes.withUnsafeBytes { target in
            try tree.rank(of: target) { try IndexLeafEntries($0, in: tree).lowerBound(target) }
        }
    }

    /// The smallest byte string that sorts after every string starting with `prefix` (`nil`: none does, as for
    /// an empty prefix or one of only `0xFF` bytes).
    static func firstBytes(after prefix: [UInt8]) -> [UInt8]? {
        var bytes = prefix
        while let last = bytes.last {
            if last < 0xFF {
                bytes[bytes.count - 1] = last + 1
                return bytes
            }
            bytes.removeLast()
        }
        return nil
    }
}
