import StrataStorage

/// The objects where a phrase of exact words may occur, each with the positions where it may start, narrowed word
/// by word (``FullTextIndexSearch``): made from the driving word's postings, then each other word keeps the
/// objects that hold it and the starts it follows at its place in the phrase. Flat arrays throughout: object `i`'s
/// starts are `starts[ends[i - 1]..<ends[i]]` (from 0 for the first), so no array is made per object.
struct PhraseCandidates {
    /// One word's postings among some objects, flat: `keys[i]`'s positions are `positions[ends[i - 1]..<ends[i]]`
    /// (from 0 for the first).
    struct Postings {
        var keys: [ObjectKey]
        var positions: [Int32]
        var ends: [Int32]

        /// The postings `Table.fullTextPositions` found (their token counts, if any, are not kept: a phrase
        /// ranked reads its matches' once, `Table.fullTextDocumentLengths`).
        init(_ found: (keys: [ObjectKey], positions: [Int32], ends: [Int32], lengths: [Int32])) {
            (keys, positions, ends) = (found.keys, found.positions, found.ends)
        }

        /// Where row `row`'s positions are in ``positions``.
        func range(_ row: Int) -> Range<Int> {
            (row == 0 ? 0 : Int(ends[row - 1]))..<Int(ends[row])
        }
    }

    /// The candidates, ascending.
    private(set) var keys: [ObjectKey]
    /// Each candidate's possible starts, ascending, flat.
    private var startPositions: [Int32]
    /// Where each candidate's starts end in ``startPositions``.
    private var ends: [Int32]

    /// The objects of `driver`, the postings of the phrase's word at `offset`: each of its positions is a start
    /// `offset` earlier.
    init(driver: Postings, offset: Int) {
        keys = driver.keys
        ends = driver.ends
        let shift = Int32(truncatingIfNeeded: offset)
        startPositions = driver.positions.map { $0 - shift }
    }

    /// The possible starts of candidate `row`, ascending: once every word has narrowed them, the phrase's
    /// occurrences in that object.
    func starts(of row: Int) -> ArraySlice<Int32> {
        startPositions[(row == 0 ? 0 : Int(ends[row - 1]))..<Int(ends[row])]
    }

    /// Keeps the candidates that `list` (the postings, ascending, of the phrase's word at `offset`; any objects)
    /// holds, each with the starts whose position `offset` further on is one of the word's there; a candidate
    /// left without a start goes.
    mutating func narrow(by list: Postings, offset: Int) {
        let shift = Int32(truncatingIfNeeded: offset)
        var keptKeys: [ObjectKey] = [], keptStarts: [Int32] = [], keptEnds: [Int32] = []
        keptKeys.reserveCapacity(Swift.min(keys.count, list.keys.count))
        var row = 0
        for candidate in keys.indices {
            row = FullTextIndexSearch.firstIndex(in: list.keys, notBelow: keys[candidate], from: row)
            if row == list.keys.count { break }
            guard list.keys[row] == keys[candidate] else { continue }
            let positions = list.range(row)
            var next = positions.lowerBound
            let before = keptStarts.count
            for start in starts(of: candidate) {
                let wanted = start + shift
                while next < positions.upperBound, list.positions[next] < wanted { next += 1 }
                if next == positions.upperBound { break }
                if list.positions[next] == wanted { keptStarts.append(start) }
            }
            guard keptStarts.count > before else { continue }
            keptKeys.append(keys[candidate])
            keptEnds.append(Int32(truncatingIfNeeded: keptStarts.count))
        }
        keys = keptKeys
        startPositions = keptStarts
        ends = keptEnds
    }
}
