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

    /// Narrows these starts by a word's postings at `offset` in the phrase, flat (`keys` ascending, any objects;
    /// `positions` and `ends` as ``init(keys:positions:ends:offset:)`` takes them), where no posting block is read
    /// (an index of one entry per term and object).
    package func narrowed(byKeys found: [ObjectKey], positions: [Int32], ends foundEnds: [Int32], offset: Int)
        -> PhraseStarts
    {
        let shift = Int64(offset)
        var row = 0
        return narrowed { kept in
            starts.withUnsafeBufferPointer { all in
                for candidate in keys.indices {
                    while row < found.count, found[row].rawValue < keys[candidate].rawValue { row += 1 }
                    if row == found.count { break }
                    guard found[row] == keys[candidate] else { continue }
                    var next = row == 0 ? 0 : Int(foundEnds[row - 1])
                    _ = kept.keep(
                        keys[candidate], starts: UnsafeBufferPointer(rebasing: all[range(of: candidate)]),
                        shift: shift, count: Int(foundEnds[row]) - next
                    ) {
                        defer { next += 1 }
                        return Int64(positions[next])
                    }
                }
            }
        }
    }

    /// The starts `body` keeps of these (``Writer``), in space for all of them made once.
    func narrowed(_ body: (inout Writer) throws -> Void) rethrows -> PhraseStarts {
        let keyCapacity = Swift.max(1, keys.count), startCapacity = Swift.max(1, starts.count)
        let keptKeys = UnsafeMutablePointer<ObjectKey>.allocate(capacity: keyCapacity)
        let keptEnds = UnsafeMutablePointer<Int32>.allocate(capacity: keyCapacity)
        let keptStarts = UnsafeMutablePointer<Int32>.allocate(capacity: startCapacity)
        defer {
            keptKeys.deallocate()
            keptEnds.deallocate()
            keptStarts.deallocate()
        }
        var writer = Writer(keys: keptKeys, ends: keptEnds, starts: keptStarts)
        try body(&writer)
        var kept = PhraseStarts()
        kept.keys = Array(UnsafeBufferPointer(start: keptKeys, count: writer.count))
        kept.ends = Array(UnsafeBufferPointer(start: keptEnds, count: writer.count))
        kept.starts = Array(UnsafeBufferPointer(start: keptStarts, count: writer.startCount))
        return kept
    }

    /// Where narrowing writes the starts it keeps of a ``PhraseStarts``: space for all of its objects and starts
    /// (a kept start is one of them, so it never runs out), written without a check per append.
    struct Writer {
        fileprivate let keys: UnsafeMutablePointer<ObjectKey>
        fileprivate let ends: UnsafeMutablePointer<Int32>
        fileprivate let starts: UnsafeMutablePointer<Int32>
        /// The objects kept so far.
        fileprivate(set) var count = 0
        /// The starts kept so far.
        fileprivate(set) var startCount = 0

        /// Keeps object `key` (one of the narrowed starts' objects, each at most once, ascending) with those of
        /// `starts` (ascending, its starts) whose position `shift` further on is one of the object's `count`
        /// positions of the narrowing word, read in ascending order by `position` (`nil` for damaged bytes); the
        /// object goes when none is left. Returns how many positions were read (the others are past every
        /// start's, so not needed), or `nil` when `position` failed.
        @inline(__always)
        mutating func keep(
            _ key: ObjectKey, starts candidateStarts: UnsafeBufferPointer<Int32>, shift: Int64, count: Int,
            position: () -> Int64?
        ) -> Int? {
            let before = startCount
            var read = 0
            var current = Int64.min
            search: for start in candidateStarts {
                let wanted = Int64(start) + shift
                while current < wanted {
                    guard read < count else { break search }
                    guard let next = position() else { return nil }
                    current = next
                    read += 1
                }
                if current == wanted {
                    starts[startCount] = start
                    startCount += 1
                }
            }
            if startCount > before {
                keys[self.count] = key
                ends[self.count] = Int32(truncatingIfNeeded: startCount)
                self.count += 1
            }
            return read
        }
    }
}
