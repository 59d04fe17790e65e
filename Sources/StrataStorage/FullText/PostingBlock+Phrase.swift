extension PostingBlock {
    /// Narrows phrase starts by one block of a word's postings at `offset` in the phrase past the driving word's
    /// (`shift`, which may be negative): for each object of `candidates` from `next` that the block passes (`next`
    /// moves past them), the object is kept in `kept` with those of its starts whose position `shift` further on
    /// is one of the word's positions there; an object the block passes without holding goes. `false` for damaged
    /// bytes.
    ///
    /// One pass over the block: its heads are read whole (four at a time where they allow), matched with the
    /// candidates as they go, and a matched object's positions are read only as far as its starts need them and
    /// compared there; the positions of the objects not asked for are stepped over, not decoded, and nothing of
    /// the word's postings is kept (the word's keys, positions and their ends are never gathered). The rest of
    /// the block past the last candidate is not read.
    static func narrow(
        _ candidates: PhraseStarts, by payload: UnsafeRawBufferPointer, layout: PostingLayout, shift: Int64,
        next: inout Int, into kept: inout PhraseStarts.Writer
    ) -> Bool {
        withHeads(of: payload, layout: layout) { reader, n, blockKeys, frequencies in
            candidates.keys.withUnsafeBufferPointer { keys in
                candidates.starts.withUnsafeBufferPointer { starts in
                    candidates.ends.withUnsafeBufferPointer { ends in
                        var cursor = next
                        var index = 0
                        // Positions of postings not asked for (or not read to their end), stepped over at once.
                        var stepped = 0
                        var lastMatched = false
                        while cursor < keys.count {
                            let wanted = keys[cursor].rawValue
                            // The postings below the candidate, their positions to step over.
                            while index < n, blockKeys[index] < wanted {
                                stepped &+= Int(truncatingIfNeeded: frequencies[index])
                                index += 1
                                lastMatched = false
                            }
                            if index == n { break }
                            let key = blockKeys[index]
                            // A candidate the word does not hold goes.
                            guard key == wanted else {
                                cursor += 1
                                continue
                            }
                            let frequency = Int(frequencies[index])
                            index += 1
                            if stepped > 0 {
                                guard reader.skip(stepped) else { return false }
                                stepped = 0
                            }
                            let first = cursor == 0 ? 0 : Int(ends[cursor - 1])
                            let own = UnsafeBufferPointer(rebasing: starts[first..<Int(ends[cursor])])
                            var position: UInt64 = 0
                            let read = kept.keep(
                                ObjectKey(key), starts: own, shift: shift, count: frequency
                            ) {
                                guard let gap = reader.next() else { return nil }
                                position &+= gap
                                return Int64(truncatingIfNeeded: position)
                            }
                            guard let read else { return false }
                            stepped = frequency - read
                            cursor += 1
                            lastMatched = true
                        }
                        next = cursor
                        // A block read to its end must end there.
                        guard index == n, lastMatched else { return true }
                        return reader.skip(stepped) && reader.isAtEnd
                    }
                }
            }
        }
    }

    /// Appends every posting of `payload` (a term's block in `layout`) to `starts` as a phrase's driving word's:
    /// its key, and each of its positions less `shift` as a start; `false` for damaged bytes (then `starts` may
    /// hold part of the block). The heads are read whole, the positions into space on the stack, and each of
    /// the three arrays takes the block's at once (one check of its storage per block, not per posting).
    static func appendStarts(
        of payload: UnsafeRawBufferPointer, layout: PostingLayout, shift: Int32, to starts: inout PhraseStarts
    ) -> Bool {
        withHeads(of: payload, layout: layout) { reader, n, blockKeys, frequencies in
            // Each frequency is at most the payload's size, so the sum does not overflow; each position takes a
            // byte at least.
            var total = 0
            for index in 0..<n { total += Int(frequencies[index]) }
            guard total <= reader.count - reader.offset else { return false }
            let decoded = withUnsafeTemporaryAllocation(of: Int32.self, capacity: Swift.max(1, total)) { space in
                let positions = space.baseAddress!
                var written = 0
                for index in 0..<n {
                    var position: UInt64 = 0
                    for _ in 0..<Int(frequencies[index]) {
                        guard let gap = reader.next() else { return false }
                        position &+= gap
                        positions[written] = Int32(truncatingIfNeeded: position) &- shift
                        written += 1
                    }
                }
                guard reader.isAtEnd else { return false }
                starts.starts.append(contentsOf: UnsafeBufferPointer(start: positions, count: total))
                return true
            }
            guard decoded else { return false }
            // The keys as object keys (one `Int64` each), copied at once; the ends summed on the stack, then
            // copied (no closure per element, whose captured sum the compiler would check at run time).
            blockKeys.withMemoryRebound(to: ObjectKey.self, capacity: n) {
                starts.keys.append(contentsOf: UnsafeBufferPointer(start: $0, count: n))
            }
            let first = starts.ends.last ?? 0
            withUnsafeTemporaryAllocation(of: Int32.self, capacity: n) { space in
                let ends = space.baseAddress!
                var end = first
                for index in 0..<n {
                    end &+= Int32(truncatingIfNeeded: frequencies[index])
                    ends[index] = end
                }
                starts.ends.append(contentsOf: UnsafeBufferPointer(start: ends, count: n))
            }
            return true
        }
    }

    /// Reads the posting count and the heads of `payload` (a term's block in `layout`) into space on the stack and
    /// runs `body` with the reader at the block's positions, the count, the keys and the frequencies; `false` for
    /// damaged bytes (a count of zero or past the payload, heads ``readHeads(_:layout:count:keys:frequencies:)``
    /// refuses), or what `body` returns.
    @inline(__always)
    static func withHeads(
        of payload: UnsafeRawBufferPointer, layout: PostingLayout,
        _ body: (inout VarintReader, Int, UnsafeMutablePointer<Int64>, UnsafeMutablePointer<Int64>) -> Bool
    ) -> Bool {
        var reader = VarintReader(payload)
        guard let count = reader.next(), count > 0, count <= UInt64(payload.count) else { return false }
        let n = Int(count)
        return withUnsafeTemporaryAllocation(of: Int64.self, capacity: 2 * n) { space in
            let keys = space.baseAddress!, frequencies = keys + n
            guard readHeads(&reader, layout: layout, count: n, keys: keys, frequencies: frequencies) else {
                return false
            }
            return body(&reader, n, keys, frequencies)
        }
    }

    /// Reads the heads of a payload's `count` postings in `layout` (`reader` just past `n`, left at the positions):
    /// each key into `keys`, the term's frequency into `frequencies` (at most the payload's size); `false` for
    /// damaged bytes (keys that do not ascend, a varint past the end).
    @inline(__always)
    static func readHeads(
        _ reader: inout VarintReader, layout: PostingLayout, count n: Int, keys: UnsafeMutablePointer<Int64>,
        frequencies: UnsafeMutablePointer<Int64>
    ) -> Bool {
        let limit = UInt64(reader.count)
        switch layout {
        case .compact:
            return readCompactHeads(&reader, count: n, keys: keys, frequencies: frequencies, limit: limit)
        case .wide:
            var key: Int64 = 0
            for index in 0..<n {
                guard let gap = reader.next(), index == 0 || gap > 0 else { return false }
                key &+= Int64(bitPattern: gap)
                keys[index] = key
            }
            // Each posting's token count (not needed here), then its frequency.
            for index in 0..<n {
                guard reader.next() != nil, let frequency = reader.next(), frequency <= limit else { return false }
                frequencies[index] = Int64(frequency)
            }
            return true
        }
    }
}
