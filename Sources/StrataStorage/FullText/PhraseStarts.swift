/// The objects where a phrase of exact words may occur, each with the positions where it may start, flat: object
/// `keys[i]`'s starts are `starts[ends[i - 1]..<ends[i]]` (from 0 for the first), ascending, so no array is made
/// per object. Made from the phrase's driving word's postings (``Table/fullTextPhraseStarts(_:term:offset:)``),
/// then narrowed word by word (``Table/fullTextNarrow(_:_:term:offset:)``): each other word keeps the objects that
/// hold it and the starts it follows at its place in the phrase.
package struct PhraseStarts: Sendable, Equatable {
    /// The objects, ascending.
    package internal(set) var keys: [ObjectKey] = []
    /// Each object's possible starts, ascending, flat.
    package internal(set) var starts: [Int32] = []
    /// Where each object's starts end in ``starts``.
    package internal(set) var ends: [Int32] = []

    /// No object.
    package init() {}

    /// The objects `keys` of a word's postings at `offset` in the phrase, with its positions flat (`positions`,
    /// `ends` as ``Table/fullTextPositions(_:term:within:withLengths:)`` gives them): each position is a start
    /// `offset` earlier.
    package init(keys: [ObjectKey], positions: [Int32], ends: [Int32], offset: Int) {
        self.keys = keys
        self.ends = ends
        let shift = Int32(truncatingIfNeeded: offset)
        starts = shift == 0 ? positions : positions.map { $0 &- shift }
    }

    /// How many objects are left.
    package var count: Int { keys.count }

    /// The possible starts of object `row`, ascending: once every word has narrowed them, the phrase's occurrences
    /// in that object.
    package func starts(of row: Int) -> ArraySlice<Int32> {
        starts[range(of: row)]
    }

    /// Where object `row`'s starts are in ``starts``.
    func range(of row: Int) -> Range<Int> {
        (row == 0 ? 0 : Int(ends[row - 1]))..<Int(ends[row])
    }

    /// Keeps object `key` with those of `starts` (ascending, an object's) whose position `shift` further on is
    /// one of the object's `count` positions of the narrowing word, read in ascending order by `position` (`nil`
    /// for damaged bytes); the object goes when none is left. Returns how many positions were read (the others
    /// are past every start's, so not needed), or `nil` when `position` failed.
    @inline(__always)
    mutating func keep(
        _ key: ObjectKey, starts: UnsafeBufferPointer<Int32>, shift: Int64, count: Int, position: () -> Int64?
    ) -> Int? {
        let before = self.starts.count
        var read = 0
        var current = Int64.min
        search: for start in starts {
            let wanted = Int64(start) + shift
            while current < wanted {
                guard read < count else { break search }
                guard let next = position() else { return nil }
                current = next
                read += 1
            }
            if current == wanted { self.starts.append(start) }
        }
        if self.starts.count > before {
            keys.append(key)
            ends.append(Int32(truncatingIfNeeded: self.starts.count))
        }
        return read
    }

    /// Narrows these starts by a word's postings at `offset` in the phrase, flat (`keys` ascending, any objects;
    /// `positions` and `ends` as ``init(keys:positions:ends:offset:)`` takes them), where no posting block is read
    /// (an index of one entry per term and object).
    package func narrowed(byKeys found: [ObjectKey], positions: [Int32], ends foundEnds: [Int32], offset: Int)
        -> PhraseStarts
    {
        var kept = PhraseStarts()
        let shift = Int64(offset)
        var row = 0
        starts.withUnsafeBufferPointer { all in
            for candidate in keys.indices {
                while row < found.count, found[row].rawValue < keys[candidate].rawValue { row += 1 }
                if row == found.count { break }
                guard found[row] == keys[candidate] else { continue }
                let range = range(of: candidate)
                var next = row == 0 ? 0 : Int(foundEnds[row - 1])
                _ = kept.keep(
                    keys[candidate], starts: UnsafeBufferPointer(rebasing: all[range]), shift: shift,
                    count: Int(foundEnds[row]) - next
                ) {
                    defer { next += 1 }
                    return Int64(positions[next])
                }
            }
        }
        return kept
    }
}
